import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command writes where its user said (`-o`): only a new path or a regular file is
/// written, through a temporary sibling renamed over it. A folder, a device node, a pipe, a socket
/// or a symbolic link there is refused by name and left as it is: `-o /dev/null` as root must never
/// replace the system's device with a PNG.
public enum OutputFile {
    /// Why an output path is refused.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// The path is a folder; `example` is a file name that would do inside it.
        case folder(String, example: String)
        /// The path is something other than a regular file (`kind` says what).
        case notARegularFile(String, kind: String)

        public var description: String {
            switch self {
            case .folder(let path, let example): return "\(path) is a folder; name the file to write, e.g. \(path)/\(example)"
            case .notARegularFile(let path, let kind): return "\(path) is \(kind), not a regular file; refusing to replace it"
            }
        }
    }

    /// Throws unless `url` is missing or a regular file (a link is not followed: it is refused).
    /// `example` names a file that would do, for the message when `url` is a folder.
    public static func check(_ url: URL, example: String) throws(Refusal) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .folder(url.path, example: example)
        default: throw .notARegularFile(url.path, kind: FileKind.describe(info.st_mode))
        }
    }

    /// Writes `data` at `url` whole, after ``check(_:example:)``.
    public static func write(_ data: Data, to url: URL, example: String) throws {
        try check(url, example: example)
        try data.write(to: url, options: .atomic)
    }
}
