import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed, with its cause, on the model of swift-nio's `FileSystemError`:
/// what was done, to which path, the error beneath it (a failed system call with its name and
/// error number, or Foundation's error), and where in splashgen it was raised. An app can tell a
/// full disk (`code == .ENOSPC`) from a refused permission (`.EACCES`); a log gets the whole
/// story from ``detailedDescription()``. The generator's I/O errors are these too.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: String, Sendable, Equatable {
        case open, create, read, write, flush, syncFolder, rename, remove, makeFolder, lock
    }

    /// A system call that failed: its name and the error number it set.
    public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The call, as its manual page names it: `openat`, `fsync`, `renameat`, …
        public var systemCall: String
        /// The error number it set.
        public var errno: Int32

        /// Makes one.
        public init(systemCall: String, errno: Int32) { (self.systemCall, self.errno) = (systemCall, errno) }

        public var description: String { "\(systemCall)(2): \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    /// Where in splashgen's code the error was raised.
    public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
        /// The function.
        public var function: String
        /// The file, as `#fileID` gives it (`SplashApplier/ApplierFileSystem.swift`).
        public var file: String
        /// The line.
        public var line: Int

        public var description: String { "\(file):\(line) in \(function)" }
    }

    /// What was being done.
    public var operation: Operation
    /// The path it was done to (a rename's source).
    public var path: String
    /// A rename's target.
    public var destination: String?
    /// What went wrong in splashgen's words, where no error beneath says it (a file that changed
    /// while it was read, a path outside the folder every change is made in).
    public var message: String?
    /// The error beneath: a ``SystemCallError``, Foundation's error, or another error; nil when
    /// ``message`` says it all.
    public var cause: (any Error)?
    /// Where it was raised.
    public var location: SourceLocation

    /// An error whose cause is another error, or only splashgen's `message`.
    public init(
        _ operation: Operation, path: String, destination: String? = nil, message: String? = nil, cause: (any Error)? = nil,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) {
        (self.operation, self.path, self.destination, self.message, self.cause) = (operation, path, destination, message, cause)
        location = SourceLocation(function: function, file: file, line: line)
    }

    /// An error whose cause is a failed system call.
    public init(
        _ operation: Operation, path: String, destination: String? = nil, systemCall: String, errno: Int32,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) {
        self.init(
            operation, path: path, destination: destination, cause: SystemCallError(systemCall: systemCall, errno: errno),
            function: function, file: file, line: line)
    }

    /// The system's error number, from the cause (a failed call, or Foundation's error over one).
    public var errno: Int32? { Self.errorNumber(in: cause) }

    /// The error number as a POSIX code, to compare with `.ENOSPC`, `.EACCES`, …
    public var code: POSIXErrorCode? { errno.flatMap(POSIXErrorCode.init(rawValue:)) }

    /// The system call that failed, when the cause is one.
    public var systemCall: String? { (cause as? SystemCallError)?.systemCall }

    /// Why, in a reader's words: splashgen's message, then the cause's (the system's reason for its
    /// error number, Foundation's words otherwise).
    public var reason: String {
        let reasons = [message, cause.map(Self.reason(of:))].compactMap { $0 }
        return reasons.isEmpty ? "failed" : reasons.joined(separator: "; ")
    }

    public var description: String { "\(path): \(phrase): \(reason)" }

    /// Every field on its own line, the cause's own story indented beneath: for a log or a bug report.
    public func detailedDescription() -> String {
        var lines = ["FileSystemError: \(operation.rawValue) failed", "  path: \(path)"]
        if let destination { lines.append("  destination: \(destination)") }
        if let message { lines.append("  message: \(message)") }
        if let cause {
            let story = (cause as? FileSystemError)?.detailedDescription() ?? Self.story(of: cause)
            lines.append("  cause: " + story.split(separator: "\n").joined(separator: "\n    "))
        }
        lines.append("  raised at: \(location)")
        return lines.joined(separator: "\n")
    }

    /// Equal when they say the same thing; where each was raised is not compared.
    public static func == (lhs: FileSystemError, rhs: FileSystemError) -> Bool {
        (lhs.operation, lhs.path, lhs.destination, lhs.message, lhs.errno) == (rhs.operation, rhs.path, rhs.destination, rhs.message, rhs.errno)
            && lhs.systemCall == rhs.systemCall && lhs.cause.map(story(of:)) == rhs.cause.map(story(of:))
    }

    /// A reader's words for any error beneath a file operation: `strerror`'s for an error number,
    /// plain words for Foundation's file errors, the error's own description otherwise.
    package static func reason(of error: any Error) -> String {
        if let code = errorNumber(in: error) { return String(cString: strerror(code)) }
        if let file = error as? CocoaError {
            switch file.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileWriteFileExists: return "the file exists"
            default: return file.localizedDescription
            }
        }
        if let error = error as? FileSystemError { return error.reason }
        return String(describing: error)
    }

    /// The error number an error carries: a failed call's, a POSIX error's, or the one beneath
    /// Foundation's error.
    private static func errorNumber(in error: (any Error)?) -> Int32? {
        switch error {
        case nil: return nil
        case let call as SystemCallError: return call.errno
        case let nested as FileSystemError: return nested.errno
        case let posix as POSIXError: return posix.code.rawValue
        case let error?:
            let ns = error as NSError
            if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
            if let beneath = ns.userInfo[NSUnderlyingErrorKey] as? NSError, beneath.domain == NSPOSIXErrorDomain { return Int32(beneath.code) }
            return nil
        }
    }

    /// An error's type and what it says.
    private static func story(of error: any Error) -> String {
        if let call = error as? SystemCallError { return "SystemCallError: \(call)" }
        return "\(type(of: error)): \(String(describing: error))"
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
