import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for every path a command writes where its user said (`-o`): the path is resolved
/// once (``resolve(_:followingLast:)``, as the kernel walks it), and that resolved path is the one
/// checked and the one written. It is never an input, never inside an input, never inside a bundle
/// folder that holds an input (nor, for a folder that is replaced, holding one), and never over what
/// the command did not make. A file output (``check(_:example:inputs:)``) is a new path or a
/// regular file, written through a temporary sibling renamed over it: a folder, a device node, a
/// pipe, a socket or a symbolic link there is refused by name and left as it is (`-o /dev/null` as
/// root must never replace the system's device with a PNG). A folder output
/// (``checkFolder(_:inputs:what:isOwn:)``) is a new path, an empty folder, or a folder that holds
/// nothing but what the command itself makes (``holdsOnlyABundle(_:)``).
package enum OutputFile {
    /// Why an output path is refused.
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        /// The path is a folder; `example` is a file name that would do inside it.
        case folder(String, example: String)
        /// The path is something other than a regular file (`kind` says what).
        case notARegularFile(String, kind: String)
        /// The path is one of the command's inputs.
        case isInput(String)
        /// The path lies inside an input folder.
        case insideInput(String, input: String)
        /// The path lies inside the bundle folder `bundle`, which holds `input`, one of the command's inputs.
        case insideBundleOfInput(String, bundle: String, input: String)
        /// The folder to be replaced holds one of the command's inputs.
        case holdsInput(String, input: String)
        /// The folder holds something the command did not make (`what` says what it should hold).
        case notOurs(String, what: String)
        /// The path is relative and the working folder it starts from no longer exists.
        case workingFolderGone(String)
        /// On the way to the path, `at` is `kind`, not a folder.
        case notAFolder(String, at: String, kind: String)
        /// On the way to the path, the link `link` points to `target`, which does not exist.
        case danglingLink(String, link: String, target: String)
        /// The path goes up (`..`) from `missing`, a folder that does not exist.
        case upFromMissing(String, missing: String)
        /// The path cannot be walked at `at` (`reason` is the system's), or its links go round.
        case unreachable(String, at: String, reason: String)

        package var description: String {
            switch self {
            case .folder(let path, let example): return "\(path) is a folder; name the file to write, e.g. \(path)/\(example)"
            case .notARegularFile(let path, let kind): return "\(path) is \(kind), not a regular file; refusing to replace it"
            case .isInput(let path): return "\(path) is this command's input; write the output somewhere else"
            case .insideInput(let path, let input): return "\(path) is inside \(input), this command's input; write the output somewhere else"
            case .insideBundleOfInput(let path, let bundle, let input):
                return "\(path) is inside the bundle \(bundle), which holds \(input), this command's input; write the output somewhere else"
            case .holdsInput(let path, let input): return "\(path) holds \(input), this command's input; refusing to replace it"
            case .notOurs(let path, let what):
                return "\(path) exists and is not \(what); refusing to replace what this command did not make (remove it, or choose another output)"
            case .workingFolderGone(let path):
                return "\(path) is relative, and the working folder it starts from no longer exists; give an absolute path, or run from a folder that exists"
            case .notAFolder(let path, let at, let kind): return "\(path) cannot be written: \(at) is \(kind), not a folder"
            case .danglingLink(let path, let link, let target):
                return "\(path) cannot be written: \(link) is a symbolic link to \(target), which does not exist; refusing to write through it"
            case .upFromMissing(let path, let missing): return "\(path) cannot be written: it goes up (..) from \(missing), which does not exist"
            case .unreachable(let path, let at, let reason): return "\(path) cannot be written: \(at): \(reason)"
            }
        }
    }

    /// The absolute path `path` names, walked as the kernel walks it: from the working folder when
    /// relative; every link on the way followed where it stands, so `lnk/..` is the folder above
    /// the link's target, not the link's own folder (no textual standardizing); the part not yet on
    /// disk appended as written. The last component is followed only when `followingLast` (a folder
    /// a command writes into); otherwise a link there stays for the caller to refuse. Every command
    /// resolves an output once and then checks and writes only the path this returns.
    /// - Throws: ``Refusal`` when the working folder is gone, a component on the way is not a
    ///   folder, a link points nowhere, `..` follows a missing folder, or the links go round.
    package static func resolve(_ path: String, followingLast: Bool = false) throws(Refusal) -> URL {
        var folders: [String] = []
        if !path.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else { throw .workingFolderGone(path) }
            defer { free(cwd) }
            folders = String(cString: cwd).split(separator: "/").map(String.init)
        }
        var pending = Array(path.split(separator: "/").map(String.init).reversed())
        var missing: String?
        var links = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                if let missing { throw .upFromMissing(path, missing: missing) }
                _ = folders.popLast()
                continue
            }
            let here = "/" + (folders + [part]).joined(separator: "/")
            var info = stat()
            if missing != nil || lstat(here, &info) != 0 {
                guard missing != nil || errno == ENOENT else { throw .unreachable(path, at: here, reason: String(cString: strerror(errno))) }
                missing = missing ?? here
                folders.append(part)
                continue
            }
            let last = pending.isEmpty
            switch info.st_mode & S_IFMT {
            case S_IFLNK where !last || followingLast:
                let target = try linkTarget(here, of: path)
                links += 1
                guard links <= 40 else { throw .unreachable(path, at: here, reason: "too many levels of symbolic links") }
                var followed = stat()
                guard stat(here, &followed) == 0 || errno != ENOENT else { throw .danglingLink(path, link: here, target: target) }
                if target.hasPrefix("/") { folders = [] }
                pending += target.split(separator: "/").map(String.init).reversed()
            case S_IFDIR, S_IFLNK: folders.append(part)
            default:
                guard last else { throw .notAFolder(path, at: here, kind: FileKind.describe(info.st_mode)) }
                folders.append(part)
            }
        }
        return URL(fileURLWithPath: "/" + folders.joined(separator: "/"))
    }

    /// What the link at `link` holds.
    private static func linkTarget(_ link: String, of path: String) throws(Refusal) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .unreachable(path, at: link, reason: String(cString: strerror(errno))) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Resolves `url` once (``resolve(_:followingLast:)``) and throws unless that path is missing or
    /// a regular file (a link is not followed: it is refused), is none of `inputs`, lies inside none,
    /// and lies inside no bundle folder that holds one. `example` names a file that would do, for the
    /// message when it is a folder. Returns the resolved path: the one to write.
    @discardableResult
    package static func check(_ url: URL, example: String, inputs: [URL] = []) throws(Refusal) -> URL {
        let target = try resolve(url.path)
        try refuseInputs(target, inputs: inputs, replacedWhole: false)
        var info = stat()
        guard lstat(target.path, &info) == 0 else { return target }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return target
        case S_IFDIR: throw .folder(target.path, example: example)
        default: throw .notARegularFile(target.path, kind: FileKind.describe(info.st_mode))
        }
    }

    /// Writes `data` whole at the path ``check(_:example:inputs:)`` resolves and checks; returns it.
    @discardableResult
    package static func write(_ data: Data, to url: URL, example: String, inputs: [URL] = []) throws -> URL {
        let target = try check(url, example: example, inputs: inputs)
        try data.write(to: target, options: .atomic)
        return target
    }

    /// Resolves `url` once and throws unless that folder, about to be replaced whole, is missing, an
    /// empty folder, or one `isOwn` recognises as holding only what the command makes (`what` names
    /// it, for the message); and unless it is none of `inputs`, lies inside none, and holds none. A
    /// link or a file there is refused. Returns the resolved path: the one to replace.
    @discardableResult
    package static func checkFolder(_ url: URL, inputs: [URL], what: String, isOwn: (URL) -> Bool) throws(Refusal) -> URL {
        let target = try resolve(url.path)
        try refuseInputs(target, inputs: inputs, replacedWhole: true)
        var info = stat()
        guard lstat(target.path, &info) == 0 else { return target }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notOurs(target.path, what: "a folder (it is \(FileKind.describe(info.st_mode)))") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []
        guard entries.isEmpty || isOwn(target) else { throw .notOurs(target.path, what: what) }
        return target
    }

    /// Whether `folder` is a bundle this tool made and nothing else: a regular `manifest.json` that
    /// reads as a manifest, at most a regular `manifest.sig`, an `objects` folder of regular files
    /// each named by an object the manifest names, and no other entry (what `BundleWriter` writes
    /// for `build` and `unpack`). A published tree (`screens/`, `.deflate` files), a `.git`, a
    /// `CNAME` or a link anywhere makes it someone's folder.
    package static func holdsOnlyABundle(_ folder: URL) -> Bool {
        let contained = ContainedFolder(folder)
        guard let manifest = manifest(in: folder) else { return false }
        let named = Set(manifest.campaigns.flatMap(\.snapshots).map(\.object))
        // A folder that cannot be listed whole is not known to hold only a bundle.
        func listing(_ url: URL) -> [(name: String, kind: mode_t)]? {
            let entries = contained.kinds(in: url)
            guard let listed = try? FileManager.default.contentsOfDirectory(atPath: url.path), listed.count == entries.count else { return nil }
            return entries
        }
        guard let top = listing(folder) else { return false }
        for (name, kind) in top {
            switch (name, kind) {
            case ("manifest.json", S_IFREG), (BundleSignature.fileName, S_IFREG): continue
            case ("objects", S_IFDIR):
                guard let objects = listing(folder.appendingPathComponent("objects")),
                    objects.allSatisfy({ $0.kind == S_IFREG && named.contains($0.name) })
                else { return false }
            default: return false
            }
        }
        return true
    }

    /// The manifest `folder` holds, a bundle's or a published tree's: its `manifest.json`, when that
    /// reads as a manifest.
    static func manifest(in folder: URL) -> Manifest? {
        guard let data = readBounded(folder.appendingPathComponent("manifest.json"), limit: ReadLimits.manifestBytes) else { return nil }
        return try? Manifest.decode(from: data)
    }

    /// The output (resolved) against the inputs, each resolved through links: the same path, one
    /// inside the other, the output inside a bundle folder that holds an input, or
    /// (`replacedWhole`) an input inside the output is refused.
    static func refuseInputs(_ output: URL, inputs: [URL], replacedWhole: Bool) throws(Refusal) {
        // An input is read through its links, the last one too; one that cannot be walked is compared as given.
        let sources = inputs.map { input in (input, (try? resolve(input.path, followingLast: true))?.path ?? input.path) }
        for (input, source) in sources {
            if output.path == source { throw .isInput(output.path) }
            if output.path.hasPrefix(source + "/") { throw .insideInput(output.path, input: input.path) }
            if replacedWhole, source.hasPrefix(output.path + "/") { throw .holdsInput(output.path, input: input.path) }
        }
        var folder = output.deletingLastPathComponent()
        while folder.path != "/" {
            if let (input, _) = sources.first(where: { $0.1.hasPrefix(folder.path + "/") }), manifest(in: folder) != nil {
                throw .insideBundleOfInput(output.path, bundle: folder.path, input: input.path)
            }
            folder = folder.deletingLastPathComponent()
        }
    }
}
