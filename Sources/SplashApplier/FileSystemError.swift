import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed, with its cause: what was done, to which path, and the system's
/// error number when a system call said why (on the model of swift-nio's `FileSystemError`). An app
/// can tell a full disk (`code == .ENOSPC`) from a refused permission (`.EACCES`).
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: String, Sendable, Equatable {
        case open, create, read, write, flush, syncFolder, rename, remove, makeFolder, lock
    }

    /// What was being done.
    public var operation: Operation
    /// The path it was done to (a rename's source).
    public var path: String
    /// A rename's target.
    public var destination: String?
    /// The system's error number; nil when no system call failed (a file that changed while it was
    /// read, a path outside the folder every change is made in).
    public var errno: Int32?
    /// What went wrong, where no error number says it.
    public var underlying: String?

    /// Makes one.
    public init(_ operation: Operation, path: String, destination: String? = nil, errno: Int32? = nil, underlying: String? = nil) {
        (self.operation, self.path, self.destination, self.errno, self.underlying) = (operation, path, destination, errno, underlying)
    }

    /// The error number as a POSIX code, to compare with `.ENOSPC`, `.EACCES`, …
    public var code: POSIXErrorCode? { errno.flatMap(POSIXErrorCode.init(rawValue:)) }

    public var description: String {
        let reasons = [errno.map { String(cString: strerror($0)) }, underlying].compactMap { $0 }
        return "\(path): \(phrase): \(reasons.isEmpty ? "failed" : reasons.joined(separator: "; "))"
    }

    private var phrase: String {
        switch operation {
        case .open: return "cannot be opened"
        case .create: return "cannot be created"
        case .read: return "cannot be read"
        case .write: return "cannot be written"
        case .flush: return "cannot be flushed to stable storage"
        case .syncFolder: return "the folder cannot be synced"
        case .rename: return "cannot be renamed to \(destination ?? "its target")"
        case .remove: return "cannot be removed"
        case .makeFolder: return "the folder cannot be made"
        case .lock: return "the lock cannot be taken"
        }
    }
}
