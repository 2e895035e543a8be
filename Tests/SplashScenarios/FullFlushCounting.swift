// Expectations: none here; what FullFlushTests and `make bench` share to count a swap's full
// flushes (docs/ios-launch-cache.md §4): a launch folder of any size, and the real file system
// counting its full flushes.
import Foundation
@_spi(Testing) import SplashApplier
import SplashSimulator

extension SandboxSimulator {
    /// Leaves `count` snapshot files in the launch folder: the installed ones, fewer of them, or
    /// more under new names (copies of them, classified as they are).
    package func keepSnapshots(_ count: Int) throws {
        let folder = try snapshotFolder(model())
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ktx") }.sorted()
        for name in names.dropFirst(count) { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        for index in names.count..<max(names.count, count) {
            let name = String(format: "%08X-0000-4000-8000-%012X@3x.ktx", index, index)
            try FileManager.default.copyItem(at: folder.appendingPathComponent(names[index % names.count]), to: folder.appendingPathComponent(name))
        }
    }
}

/// The real file system, counting its full flushes: files written or flushed with ``Flush/full``,
/// and folder syncs (each is one).
package final class FullFlushCounter: ApplierFileSystem, @unchecked Sendable {  // `full` is guarded by `lock`
    private let real: POSIXFileSystem
    private let lock = NSLock()
    private var full = 0

    /// Counts the full flushes of everything done under `root`, the container.
    package init(root: URL) { real = POSIXFileSystem(root: root) }

    /// The full flushes so far.
    package var count: Int { lock.withLock { full } }

    private func note(_ flush: Flush) { if flush == .full { lock.withLock { full += 1 } } }

    package func write(_ data: Data, to url: URL, flush: Flush) throws(ApplierError) {
        try real.write(data, to: url, flush: flush)
        note(flush)
    }

    package func overwrite(_ data: Data, at url: URL, flush: Flush) throws(ApplierError) -> Bool {
        let made = try real.overwrite(data, at: url, flush: flush)
        note(flush)
        return made
    }

    package func flush(_ url: URL, _ flush: Flush) throws(ApplierError) {
        try real.flush(url, flush)
        note(flush)
    }

    package func syncFolder(_ url: URL) throws(ApplierError) {
        try real.syncFolder(url)
        note(.full)
    }

    package func rename(_ source: URL, to target: URL) throws(ApplierError) { try real.rename(source, to: target) }
    package func remove(_ url: URL) throws(ApplierError) { try real.remove(url) }
    package func makeFolder(_ url: URL) throws(ApplierError) { try real.makeFolder(url) }
}
