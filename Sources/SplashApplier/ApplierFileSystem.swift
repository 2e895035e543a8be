import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The applier's writes, each durable before it returns: write-and-fsync, rename, remove.
/// Every mutating call counts as one operation; `crashAfter` stops the applier dead after that many,
/// leaving the disk exactly as a kill would (tests use it to prove crash safety).
final class ApplierFileSystem: @unchecked Sendable {
    private var remaining: Int?

    init(crashAfter: Int?) {
        remaining = crashAfter
    }

    private func operation() throws(ApplierError) {
        guard let left = remaining else { return }
        if left == 0 { throw .simulatedCrash }
        remaining = left - 1
    }

    /// Writes `data` to a new file at `url` and flushes it to disk.
    func write(_ data: Data, to url: URL) throws(ApplierError) {
        try operation()
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw .io(url.path, Self.errnoText()) }
        defer { close(fd) }
        let ok = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        guard ok, fsync(fd) == 0 else { throw .io(url.path, Self.errnoText()) }
    }

    /// Atomically replaces `target` with `source` (same folder). Durable once its folder is synced.
    func rename(_ source: URL, over target: URL) throws(ApplierError) {
        try operation()
        guard posixRename(source.path, target.path) == 0 else { throw .io(target.path, Self.errnoText()) }
    }

    /// Makes the renames in a folder durable.
    func syncFolder(_ url: URL) throws(ApplierError) {
        try operation()
        let dir = open(url.path, O_RDONLY)
        guard dir >= 0 else { throw .io(url.path, Self.errnoText()) }
        defer { close(dir) }
        fsync(dir)
    }

    /// Removes a file or folder; a missing one is fine.
    func remove(_ url: URL) throws(ApplierError) {
        try operation()
        do { try FileManager.default.removeItem(at: url) } catch CocoaError.fileNoSuchFile {} catch {
            throw .io(url.path, (error as NSError).localizedDescription)
        }
    }

    /// Creates a folder and its parents.
    func makeFolder(_ url: URL) throws(ApplierError) {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw .io(url.path, (error as NSError).localizedDescription)
        }
    }

    /// Writes a whole file through a temporary sibling and a rename: readers see old or new, never half.
    /// `durably` also syncs the folder, for a file others must be able to rely on at once.
    func replace(_ url: URL, with data: Data, durably: Bool = false) throws(ApplierError) {
        let partial = Self.partialURL(for: url)
        try write(data, to: partial)
        try rename(partial, over: url)
        if durably { try syncFolder(url.deletingLastPathComponent()) }
    }

    /// The temporary sibling used while replacing `url`; leftovers are removed on the next run.
    static func partialURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + partialSuffix)
    }

    static let partialSuffix = ".splashgen-partial"

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// An exclusive lock held while one applier works on a container; a second one waits for it.
final class ApplierLock {
    private let fd: Int32

    init(at url: URL) throws(ApplierError) {
        fd = open(url.path, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { throw .io(url.path, ApplierFileSystem.errnoText()) }
        guard flock(fd, LOCK_EX) == 0 else {
            close(fd)
            throw .io(url.path, ApplierFileSystem.errnoText())
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

// The C functions, named apart from the methods above that shadow them.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
