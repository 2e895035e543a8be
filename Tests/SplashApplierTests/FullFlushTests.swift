// Expectations: docs/ios-launch-cache.md §4. A full flush (`F_FULLFSYNC`) flushes the drive's whole
// cache, so it covers every file handed to the drive (`fsync`) before it; a swap needs one before
// its renames (the pending mark's, covering the staged files) and one after them (the launch
// folder's sync), whatever the number of files. Counted through the file-system layer.
import Foundation
@_spi(Testing) @_spi(UnsignedBundles) import SplashApplier
import SplashFormat
import SplashScenarios
import SplashSimulator
import Testing

@Suite struct FullFlushTests {
    /// A container whose launch folder holds `count` snapshot files: the iPhone 15's four, fewer of
    /// them, or more under new names.
    static func container(holding count: Int) throws -> SandboxSimulator {
        let sim = try sandbox(Installed.iPhone15)
        try sim.keepSnapshots(count)
        return sim
    }

    /// The full flushes of one apply (or restore) at `now`, and its report.
    static func fullFlushes(_ sim: SandboxSimulator, at now: Date, restore: Bool = false) throws -> (Int, ApplyReport) {
        let counter = FullFlushCounter(root: sim.container)
        var applier = try CrashMatrixTests.applier(sim, now: now)
        applier.fileSystem = counter
        let report = restore ? try applier.restore() : try applier.apply()
        return (counter.count, report)
    }

    @Test(arguments: [1, 4, 16])
    func aSwapMakesTwoFullFlushesWhateverTheNumberOfFiles(_ count: Int) throws {
        let sim = try Self.container(holding: count)
        // The first run classifies and backs up (no campaign in force yet).
        let (first, _) = try Self.fullFlushes(sim, at: CrashMatrixTests.before)
        let (swap, swapped) = try Self.fullFlushes(sim, at: CrashMatrixTests.during)
        #expect(swapped.files.filter { $0.action == .replaced }.count == count)
        #expect(swap == 2, "\(count) files swapped in: \(swap) full flushes")
        // The campaign ends: every original comes back.
        let (end, ended) = try Self.fullFlushes(sim, at: CrashMatrixTests.after)
        #expect(ended.files.filter { $0.action == .restored }.count == count, "\(ended.files.map(\.action))")
        #expect(end == 2, "\(count) originals back: \(end) full flushes")
        // A launch with nothing to do flushes nothing.
        let (none, idle) = try Self.fullFlushes(sim, at: CrashMatrixTests.after.addingTimeInterval(60))
        #expect(idle.nothingToDo && none == 0)
        // A first run that backs up and swaps at once: the backups' folder, the state made (and its
        // folder's entry), the launch folder.
        let fresh = try Self.container(holding: count)
        let (firstSwap, firstSwapped) = try Self.fullFlushes(fresh, at: CrashMatrixTests.during)
        #expect(firstSwapped.files.filter { $0.action == .replaced }.count == count)
        #expect(firstSwap == 4, "a first run swapping \(count) files: \(firstSwap) full flushes")
        print("full flushes, \(count) files: first run \(first), swap \(swap), campaign end \(end), first run swapping at once \(firstSwap)")
    }
}
