import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a write or a flush takes a file's bytes toward stable storage (docs/ios-launch-cache.md
/// §4). Only a full flush makes anything safe from a power cut on Apple platforms; it covers every
/// file handed to the drive before it, so many files handed over and one full flush cost one.
@_spi(Testing) public enum Flush: Sendable, Equatable {
    /// Left in the system's buffers: a power cut may tear it.
    case none
    /// Handed to the drive (`fsync(2)`): on Apple platforms still in the drive's cache, and safe
    /// only once a later full flush, of any file or folder, has run.
    case toDrive
    /// On stable storage, with everything handed to the drive before it (`F_FULLFSYNC` on Apple
    /// platforms, `fsync(2)` elsewhere).
    case full
}

/// The applier's writes. The executor makes every change through this protocol, so tests can put a
/// fault-injecting one in its place (a kill after any operation, a power cut's losses), or count
/// its full flushes.
@_spi(Testing) public protocol ApplierFileSystem: Sendable {
    /// Writes `data` to a new file at `url`, flushed as far as `flush` says.
    func write(_ data: Data, to url: URL, flush: Flush) throws(ApplierError)
    /// Writes `data` over the file at `url` in place (made when missing), cut to its length, flushed
    /// as far as `flush` says: no rename, so the file and its folder entry stay the ones made first.
    /// A reader may find it torn after a kill or power cut. Returns whether the file was made.
    @discardableResult func overwrite(_ data: Data, at url: URL, flush: Flush) throws(ApplierError) -> Bool
    /// Atomically renames `source` to `target` (same volume); durable once the folder is synced.
    func rename(_ source: URL, to target: URL) throws(ApplierError)
    /// Makes the renames and removals in a folder durable: a full flush.
    func syncFolder(_ url: URL) throws(ApplierError)
    /// Removes a file or folder; a missing one is fine.
    func remove(_ url: URL) throws(ApplierError)
    /// Creates a folder and its parents.
    func makeFolder(_ url: URL) throws(ApplierError)
    /// Flushes a file written with less as far as `flush` says. It changes nothing a kill could see
    /// (only what survives a power cut), so a fault-injecting file system may pass it on.
    func flush(_ url: URL, _ flush: Flush) throws(ApplierError)
}

extension ApplierFileSystem {
    /// Writes a whole file through a temporary sibling and a rename: readers see old or new, never
    /// half. `durably` also syncs the folder, for a file others must be able to rely on at once.
    /// `flush: .none` is for a file whose loss costs only work: it can be rebuilt from what is
    /// durable; `.toDrive` for one a later full flush covers before anything relies on it.
    package func replace(_ url: URL, with data: Data, durably: Bool = false, flush: Flush = .full) throws(ApplierError) {
        let partial = url.deletingLastPathComponent().appendingPath(url.lastPathComponent + ApplierFileSystemPartial.suffix)
        try write(data, to: partial, flush: flush)
        try rename(partial, to: url)
        if durably { try syncFolder(url.deletingLastPathComponent()) }
    }
}

/// The suffix of the applier's temporary siblings; leftovers are removed on the next run that edits the folder.
enum ApplierFileSystemPartial {
    static let suffix = ".splashgen-partial"
}

/// The real file system, through POSIX calls (`F_FULLFSYNC` on Apple platforms, where `fsync`
/// alone does not reach the disk), below one root folder: the container for the applier, the
/// downloads folder for the fetcher. Every path is reached from the root one folder descriptor at a
/// time (``ContainedFolder``): `openat`, `renameat`, `mkdirat` and `unlinkat` with `O_NOFOLLOW`, so
/// a symbolic link anywhere below the root is refused, and one swapped in after a check redirects
/// nothing. A call cut short by a signal (`EINTR`) is made again, and a folder that cannot be synced
/// is an error.
@_spi(Testing) public struct POSIXFileSystem: ApplierFileSystem {
    let folder: ContainedFolder

    /// The file system below `root`.
    public init(root: URL) {
        folder = ContainedFolder(root)
    }

    public func write(_ data: Data, to url: URL, flush: Flush) throws(ApplierError) {
        let fd = try open(url, .create, O_WRONLY | O_CREAT | O_TRUNC)
        defer { close(fd) }
        try write(data, to: fd, at: url, flush: flush)
    }

    @discardableResult public func overwrite(_ data: Data, at url: URL, flush: Flush) throws(ApplierError) -> Bool {
        // Made when missing, never truncated first: the bytes go over the old ones, then the length is set.
        let (fd, made): (Int32, Bool)
        do throws(ApplierError) { (fd, made) = (try open(url, .open, O_WRONLY), false) } catch {
            guard case .fileSystem(let failure) = error, failure.errno == ENOENT else { throw error }
            (fd, made) = (try open(url, .create, O_WRONLY | O_CREAT | O_EXCL), true)
        }
        defer { close(fd) }
        try write(data, to: fd, at: url, flush: .none)
        if Self.retrying({ ftruncate(fd, off_t(data.count)) }) != 0 {
            throw .fileSystem(FileSystemError(.write, path: url.path, systemCall: "ftruncate", errno: errno))
        }
        if let call = Self.flush(fd, flush) { throw .fileSystem(FileSystemError(.flush, path: url.path, cause: call)) }
        return made
    }

    /// Writes all of `data` to `fd` from where it stands, then flushes it as far as `flush` says.
    private func write(_ data: Data, to fd: Int32, at url: URL, flush: Flush) throws(ApplierError) {
        let failure = data.withUnsafeBytes { buffer -> FileSystemError? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let n = Self.retrying { posixWrite(fd, base + offset, buffer.count - offset) }
                if n < 0 { return FileSystemError(.write, path: url.path, systemCall: "write", errno: errno) }
                if n == 0 { return FileSystemError(.write, path: url.path, message: "it took no more bytes") }
                offset += n
            }
            return nil
        }
        if let failure { throw .fileSystem(failure) }
        if let call = Self.flush(fd, flush) { throw .fileSystem(FileSystemError(.flush, path: url.path, cause: call)) }
    }

    public func rename(_ source: URL, to target: URL) throws(ApplierError) {
        let code = try inParent(of: source) { from, fromName throws(ApplierError) in
            try inParent(of: target) { to, toName in renameat(from, fromName, to, toName) == 0 ? 0 : errno }
        }
        guard code == 0 else { throw .fileSystem(FileSystemError(.rename, path: source.path, destination: target.path, systemCall: "renameat", errno: code)) }
    }

    public func flush(_ url: URL, _ flush: Flush) throws(ApplierError) {
        let fd = try open(url, .open, O_RDONLY)
        defer { close(fd) }
        if let call = Self.flush(fd, flush) { throw .fileSystem(FileSystemError(.flush, path: url.path, cause: call)) }
    }

    public func syncFolder(_ url: URL) throws(ApplierError) {
        let dir = try reach(url) { () throws(ContainedFolder.Failure) in try folder.openFolder(url) }
        defer { close(dir) }
        if let call = Self.flush(dir, .full) { throw .fileSystem(FileSystemError(.syncFolder, path: url.path, cause: call)) }
    }

    public func remove(_ url: URL) throws(ApplierError) {
        // A folder above that is missing means the path is missing too: fine.
        let code = try inParent(of: url, ifMissing: 0) { parent, name in ContainedFolder.remove(name, in: parent) }
        guard code == 0 else { throw .fileSystem(FileSystemError(.remove, path: url.path, systemCall: "unlinkat", errno: code)) }
    }

    /// A descriptor of the file `url` (never through a link), opened with `flags`: a failure names
    /// `operation` and the error number, taken before anything else can change it, and a link
    /// found there is refused as one.
    func open(_ url: URL, _ operation: FileSystemError.Operation, _ flags: Int32) throws(ApplierError) -> Int32 {
        let (fd, code, link) = try inParent(of: url) { parent, name -> (Int32, Int32, Bool) in
            let fd = Self.retrying { openat(parent, name, flags | O_NOFOLLOW | O_CLOEXEC, 0o644) }
            guard fd < 0 else { return (fd, 0, false) }
            let code = errno
            var info = stat()
            let link = code == ELOOP && fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
            return (fd, code, link)
        }
        if link { throw .symbolicLink(((try? folder.components(of: url)) ?? [url.path]).joined(separator: "/")) }
        guard fd >= 0 else { throw .fileSystem(FileSystemError(operation, path: url.path, systemCall: "openat", errno: code)) }
        return fd
    }

    public func makeFolder(_ url: URL) throws(ApplierError) {
        close(try reach(url) { () throws(ContainedFolder.Failure) in try folder.openFolder(url, creating: true) })
    }

    /// The value of `body` given the folder `url` is in (reached from the root) and its name;
    /// `ifMissing`, when given, if a folder above is missing.
    func inParent<Value>(
        of url: URL, ifMissing: Value? = nil, _ body: (Int32, String) throws(ApplierError) -> Value
    ) throws(ApplierError) -> Value {
        let (parent, name): (Int32, String)
        do { (parent, name) = try folder.openParent(of: url) } catch {
            if case .failed(_, ENOENT, _) = error, let ifMissing { return ifMissing }
            throw Self.applierError(error, root: folder.root)
        }
        defer { close(parent) }
        return try body(parent, name)
    }

    /// `walk`'s value; its failure as the applier's error.
    private func reach<Value>(_ url: URL, _ walk: () throws(ContainedFolder.Failure) -> Value) throws(ApplierError) -> Value {
        do { return try walk() } catch { throw Self.applierError(error, root: folder.root) }
    }

    /// A walk's failure as the applier's error: a link named as one.
    package static func applierError(_ failure: ContainedFolder.Failure, root: URL) -> ApplierError {
        if case .link(let path) = failure { return .symbolicLink(path) }
        return .fileSystem(failure.fileSystemError(root: root))
    }

    /// Flushes `fd` as far as `flush` says; the failed call when it could not.
    private static func flush(_ fd: Int32, _ flush: Flush) -> FileSystemError.SystemCallError? {
        switch flush {
        case .none: return nil
        case .toDrive: break
        case .full:
            #if canImport(Darwin)
            if retrying({ fcntl(fd, F_FULLFSYNC) }) == 0 { return nil }
            #endif
        }
        return retrying { fsync(fd) } == 0 ? nil : .init(systemCall: "fsync", errno: errno)
    }

    /// The result of `call`, made again while a signal cuts it short (`EINTR`).
    static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result { ContainedFolder.retrying(call) }

}

/// An exclusive lock held while one applier works on a container. A second applier waits for it
/// at most `timeout` seconds (measured on the monotonic clock), then gives up with ``ApplierError/busy``;
/// a lock file that cannot be made or locked for any other reason is that reason
/// (``ApplierError/fileSystem(_:)``, or ``ApplierError/symbolicLink(_:)`` for a link planted there).
package final class ApplierLock: @unchecked Sendable {  // its descriptor never changes
    private let fd: Int32

    /// `cancellation` is asked while it waits: a cancelled wait ends at once with ``ApplierError/cancelled``.
    package init(at url: URL, in files: POSIXFileSystem, timeout: TimeInterval, cancellation: Cancellation? = nil) throws(ApplierError) {
        fd = try files.open(url, .create, O_RDWR | O_CREAT)
        let deadline = DispatchTime.now() + max(0, timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno  // before anything else runs
            if code == EINTR { continue }
            // Only a lock another holds is waited for: any other failure is that failure, at once.
            guard code == EWOULDBLOCK || code == EAGAIN else {
                close(fd)
                throw .fileSystem(FileSystemError(.lock, path: url.path, systemCall: "flock", errno: code))
            }
            if cancellation?.isCancelled == true {
                close(fd)
                throw .cancelled
            }
            guard DispatchTime.now() < deadline else {
                close(fd)
                throw .busy(seconds: timeout)
            }
            usleep(5_000)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

// The C functions, named apart from the methods above that shadow them.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
