import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder whose contents are reached one path component at a time from folder descriptors:
/// the root is opened as the caller names it (an iOS container path passes through the `/var` link),
/// and every component below it with `openat(O_NOFOLLOW)`. A symbolic link anywhere below the root
/// is refused, and no link swapped in after a check can redirect a later call: the folder a name is
/// looked up in is the one already opened.
package struct ContainedFolder: Sendable {
    /// The folder everything is reached from.
    package let root: URL
    /// The root's path, as opened.
    private let rootPath: String

    /// Why a path below the root could not be reached.
    package enum Failure: Error, Equatable {
        /// The path is not below the root.
        case outside(String)
        /// A component of the path (given relative to the root) is a symbolic link.
        case link(String)
        /// A system call (`call`) failed on the path (relative to the root), with its `errno`.
        case failed(String, Int32, call: String)

        /// What a reader is told.
        package var description: String {
            switch self {
            case .outside(let path): return "\(path) is outside the folder worked in"
            case .link(let path): return "\(path) is a symbolic link, and no link is followed"
            case .failed(let path, let code, _): return "\(path): \(String(cString: strerror(code)))"
            }
        }

        /// As a file system error on the full path below `root`: the failed call as its cause
        /// (a folder that could not be made as `makeFolder`), a refusal in words.
        package func fileSystemError(root: URL) -> FileSystemError {
            switch self {
            case .outside(let path): return FileSystemError(.open, path: path, message: "outside \(root.path), where every change is made")
            case .link(let path):
                return FileSystemError(.open, path: root.appendingPathComponent(path).path, message: "\(path) is a symbolic link, and no link is followed")
            case .failed(let path, let code, let call):
                // The root's own failure names it whole; any other is relative to it.
                let full = path.hasPrefix("/") ? path : root.appendingPathComponent(path).path
                return FileSystemError(call == "mkdirat" ? .makeFolder : .open, path: full, systemCall: call, errno: code)
            }
        }
    }

    /// A folder reached from `root`.
    package init(_ root: URL) {
        self.root = root
        rootPath = root.path
    }

    /// The components of `url` below the root: empty for the root itself. A path spelt from the
    /// root's own bytes (as every path the applier makes is) is split as it is; any other (another
    /// Unicode spelling, a slash percent-encoded inside a name) is compared with the root once both
    /// are standardized.
    package func components(of url: URL) throws(Failure) -> [String] {
        let path = url.path
        if path.utf8.starts(with: rootPath.utf8), !Self.encodesSlash(url) {
            let rest = path.utf8.dropFirst(rootPath.utf8.count)
            if rest.isEmpty || rest.first == UInt8(ascii: "/") || rootPath.hasSuffix("/") {
                let below = rest.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
                if below.allSatisfy({ $0 != ".." && $0 != "." }) { return below }
            }
        }
        let base = root.standardizedFileURL.pathComponents
        let full = url.standardizedFileURL.pathComponents
        guard full.count >= base.count, Array(full.prefix(base.count)) == base else { throw .outside(url.path) }
        let below = Array(full.dropFirst(base.count))
        guard below.allSatisfy({ $0 != ".." && $0 != "." && !$0.contains("/") }) else { throw .outside(url.path) }
        return below
    }

    /// Whether `url` spells a slash percent-encoded (`%2F`, `%2f`), which Foundation may decode into a
    /// name; compared byte by byte (a case-insensitive string search took about half of this split's time).
    package static func encodesSlash(_ url: URL) -> Bool {
        var (twoBack, oneBack): (UInt8, UInt8) = (0, 0)
        for byte in url.absoluteString.utf8 {
            if twoBack == UInt8(ascii: "%"), oneBack == UInt8(ascii: "2"), byte | 0x20 == UInt8(ascii: "f") { return true }
            (twoBack, oneBack) = (oneBack, byte)
        }
        return false
    }

    /// A descriptor of the folder at `url` (the caller closes it). `creating` makes missing folders.
    package func openFolder(_ url: URL, creating: Bool = false) throws(Failure) -> Int32 {
        try openFolder(components(of: url), creating: creating)
    }

    /// A descriptor of the folder `url` is in, and `url`'s last name (the caller closes the descriptor).
    package func openParent(of url: URL, creating: Bool = false) throws(Failure) -> (folder: Int32, name: String) {
        var parts = try components(of: url)
        guard let name = parts.popLast() else { throw .outside(url.path) }
        return (try openFolder(parts, creating: creating), name)
    }

    /// What is at `url`, links not followed: its `stat`, or nil when nothing is.
    package func status(of url: URL) throws(Failure) -> stat? {
        let parts = try components(of: url)
        guard let name = parts.last else { return try withFolder(parts) { fd in Self.status(fd, nil) } }
        do {
            let parent = try openFolder(Array(parts.dropLast()))
            defer { close(parent) }
            return Self.status(parent, name)
        } catch .failed(_, ENOENT, _) {
            return nil
        }
    }

    /// The names in the folder at `url` (nil when it is missing).
    package func names(in url: URL) throws(Failure) -> [String]? {
        let parts = try components(of: url)
        do {
            let fd = try openFolder(parts)
            defer { close(fd) }
            return Self.names(fd)
        } catch .failed(_, ENOENT, _) {
            return nil
        }
    }

    /// What is at `url`, links not followed: nil when nothing is, or it cannot be reached without a link.
    package func statusIfReachable(_ url: URL) -> stat? {
        (try? status(of: url)) ?? nil
    }

    /// The names in the folder at `url`: none when it is missing or cannot be reached without a link.
    package func listing(_ url: URL) -> [String] {
        ((try? names(in: url)) ?? nil) ?? []
    }

    /// The entries of the folder at `url`, each with what it is: its `stat` type bits (`S_IFREG`,
    /// `S_IFLNK`…), links not followed, looked up in the one folder opened; 0 for one gone since it
    /// was listed. None when the folder is missing or cannot be reached without a link.
    package func kinds(in url: URL) -> [(name: String, kind: mode_t)] {
        let kinds = try? withFolder(components(of: url)) { fd in
            Self.names(fd).map { name in (name: name, kind: Self.status(fd, name).map { $0.st_mode & S_IFMT } ?? 0) }
        }
        return kinds ?? []
    }

    /// The folder at `parts`, each component opened from the last with `O_NOFOLLOW | O_DIRECTORY`.
    private func openFolder(_ parts: [String], creating: Bool = false) throws(Failure) -> Int32 {
        var fd = Self.retrying { open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw .failed(rootPath, errno, call: "open") }
        for (index, part) in parts.enumerated() {
            var relative: String { parts[...index].joined(separator: "/") }
            var next = Self.retrying { openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            var code = errno
            // Made only when missing: most walks that may create find every folder there.
            if next < 0, code == ENOENT, creating {
                if mkdirat(fd, part, 0o755) != 0, errno != EEXIST {
                    code = errno
                    close(fd)
                    throw .failed(relative, code, call: "mkdirat")
                }
                next = Self.retrying { openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                code = errno
            }
            let isLink = next < 0 && Self.status(fd, part).map { $0.st_mode & S_IFMT == S_IFLNK } == true
            close(fd)
            if isLink { throw .link(relative) }
            guard next >= 0 else { throw .failed(relative, code, call: "openat") }
            fd = next
        }
        return fd
    }

    private func withFolder<Value>(_ parts: [String], _ body: (Int32) -> Value) throws(Failure) -> Value {
        let fd = try openFolder(parts)
        defer { close(fd) }
        return body(fd)
    }

    /// What `name` in the folder `fd` is, links not followed (the folder itself when `name` is nil).
    package static func status(_ fd: Int32, _ name: String?) -> stat? {
        var info = stat()
        if let name {
            return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
        }
        return fstat(fd, &info) == 0 ? info : nil
    }

    /// The names in the folder `fd` (which stays open), without `.` and `..`.
    package static func names(_ fd: Int32) -> [String] {
        let copy = dup(fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `name` from the folder `fd`: a file or link itself, a folder with all it holds
    /// (reached by descriptor, so no link inside is followed). A missing one is fine; returns `errno`
    /// of the first failure, or 0.
    package static func remove(_ name: String, in fd: Int32) -> Int32 {
        guard let info = status(fd, name) else { return errno == ENOENT ? 0 : errno }
        if info.st_mode & S_IFMT != S_IFDIR { return unlinkat(fd, name, 0) == 0 || errno == ENOENT ? 0 : errno }
        let folder = retrying { openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard folder >= 0 else { return errno }
        for entry in names(folder) {
            let code = remove(entry, in: folder)
            if code != 0 {
                close(folder)
                return code
            }
        }
        close(folder)
        return unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : errno
    }

    /// The result of `call`, made again while a signal cuts it short (`EINTR`).
    package static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        var result = call()
        while result < 0, errno == EINTR { result = call() }
        return result
    }
}

extension URL {
    /// `relative` (one component or more) below this file URL, made without a system call:
    /// `appendingPathComponent(_:)` alone asks the disk whether the result is a folder, an `lstat`
    /// for every path made (Apple's documentation of it says so for its Foundation too; measured in
    /// docs/benchmarks.md). So no URL made here ends in a slash, a folder's included.
    package func appendingPath(_ relative: String) -> URL { appendingPathComponent(relative, isDirectory: false) }
}
