import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for every path a command writes where its user said (`-o`): never an input, never
/// inside an input (nor, for a folder that is replaced, holding one), never over what the command
/// did not make. A file output (``check(_:example:inputs:)``) is a new path or a regular file,
/// written through a temporary sibling renamed over it: a folder, a device node, a pipe, a socket or
/// a symbolic link there is refused by name and left as it is (`-o /dev/null` as root must never
/// replace the system's device with a PNG). A folder output (``checkFolder(_:inputs:what:isOwn:)``) is a
/// new path, an empty folder, or a folder the command itself made, as its contents show.
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
        /// The folder to be replaced holds one of the command's inputs.
        case holdsInput(String, input: String)
        /// The folder holds something the command did not make (`what` says what it should hold).
        case notOurs(String, what: String)

        package var description: String {
            switch self {
            case .folder(let path, let example): return "\(path) is a folder; name the file to write, e.g. \(path)/\(example)"
            case .notARegularFile(let path, let kind): return "\(path) is \(kind), not a regular file; refusing to replace it"
            case .isInput(let path): return "\(path) is this command's input; write the output somewhere else"
            case .insideInput(let path, let input): return "\(path) is inside \(input), this command's input; write the output somewhere else"
            case .holdsInput(let path, let input): return "\(path) holds \(input), this command's input; refusing to replace it"
            case .notOurs(let path, let what):
                return "\(path) exists and is not \(what); refusing to replace what this command did not make (remove it, or choose another output)"
            }
        }
    }

    /// Throws unless `url` is missing or a regular file (a link is not followed: it is refused), and
    /// is none of `inputs` nor inside one. `example` names a file that would do, for the message
    /// when `url` is a folder.
    package static func check(_ url: URL, example: String, inputs: [URL] = []) throws(Refusal) {
        try refuseInputs(url, inputs: inputs, replacedWhole: false)
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .folder(url.path, example: example)
        default: throw .notARegularFile(url.path, kind: FileKind.describe(info.st_mode))
        }
    }

    /// Writes `data` at `url` whole, after ``check(_:example:inputs:)``.
    package static func write(_ data: Data, to url: URL, example: String, inputs: [URL] = []) throws {
        try check(url, example: example, inputs: inputs)
        try data.write(to: url, options: .atomic)
    }

    /// Throws unless the folder `url`, about to be replaced whole, is missing, an empty folder, or one
    /// `isOwn` recognises as the command's own making (`what` names it, for the message); and unless
    /// it is none of `inputs`, lies inside none, and holds none. A link or a file there is refused.
    package static func checkFolder(_ url: URL, inputs: [URL], what: String, isOwn: (URL) -> Bool) throws(Refusal) {
        try refuseInputs(url, inputs: inputs, replacedWhole: true)
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notOurs(url.path, what: "a folder (it is \(FileKind.describe(info.st_mode)))") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        guard entries.isEmpty || isOwn(url) else { throw .notOurs(url.path, what: what) }
    }

    /// Whether `folder` holds a bundle splashgen wrote: a `manifest.json` that reads as a manifest.
    package static func holdsBundle(_ folder: URL) -> Bool {
        guard let data = readBounded(folder.appendingPathComponent("manifest.json"), limit: ReadLimits.manifestBytes) else { return false }
        return (try? Manifest.decode(from: data)) != nil
    }

    /// The output against the inputs, each resolved through links (a path not yet there by its
    /// nearest existing folder): the same path, one inside the other, or (`replacedWhole`) an input
    /// inside the output is refused.
    static func refuseInputs(_ url: URL, inputs: [URL], replacedWhole: Bool) throws(Refusal) {
        let output = resolved(url)
        for input in inputs {
            let source = resolved(input)
            if output == source { throw .isInput(url.path) }
            if output.hasPrefix(source + "/") { throw .insideInput(url.path, input: input.path) }
            if replacedWhole, source.hasPrefix(output + "/") { throw .holdsInput(url.path, input: input.path) }
        }
    }

    /// The absolute path with every link resolved; the part not yet on disk appended as written.
    static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while true {
            if let real = realpath(existing.path, nil) {
                defer { free(real) }
                return ([String(cString: real)] + rest.reversed()).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            }
            let parent = existing.deletingLastPathComponent()
            if parent.path == existing.path { return url.standardizedFileURL.path }
            rest.append(existing.lastPathComponent)
            existing = parent
        }
    }
}
