import Foundation
@_spi(Testing) @_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
@_spi(Testing) import SplashUpdater
import Testing

/// A file system that stops dead at a set operation, leaving the disk as a power cut on an Apple
/// device would: every operation before it done, none after; the data of every file not fully
/// flushed since it was written torn (half its bytes, wherever renames took it), where a file
/// handed to the drive (`fsync`, ``Flush/toDrive``) counts as fully flushed only once a later full
/// flush of any file or folder has run (`F_FULLFSYNC` flushes the drive's whole cache;
/// docs/ios-launch-cache.md §4); and every rename that no sync of its source's or target's folder
/// made durable undone (a rename is a change to folder entries, on disk only once the folder is
/// synced: `fsync(2)` of the folder; on journaling file systems one transaction, so a sync of
/// either folder commits it whole). With `inside`, a write that is the operation cut is cut
/// halfway through (its first half on disk, unflushed, so torn). Removals are kept whole.
final class FaultInjectingFileSystem: ApplierFileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private let inside: Bool
    private let real: POSIXFileSystem
    /// Files whose bytes are not yet on stable storage: path → the bytes written, and whether they
    /// were handed to the drive (then a later full flush makes them safe).
    private var unflushed: [String: (data: Data, toDrive: Bool)] = [:]
    /// Whether the cut came inside a write, and how many files it tore.
    private(set) var cutInsideWrite = false
    private(set) var torn = 0
    /// Renames no folder sync has made durable yet, oldest first: each with what its target held
    /// before (a file's bytes, or an empty folder), to be undone at the cut, newest first.
    private var unsynced: [(source: String, target: String, replaced: Replaced)] = []
    enum Replaced { case nothing, file(Data), emptyFolder }
    /// How many renames the cut undid.
    private(set) var lostRenames = 0

    init(failAfter operations: Int, inside: Bool = false, container: URL) {
        remaining = operations
        self.inside = inside
        real = POSIXFileSystem(root: container)
    }

    /// What the run is stopped with, as a kill would stop it (an error of the library's own kind, so
    /// the library needs no case for tests).
    static let kill = ApplierError.fileSystem(FileSystemError(.write, path: "fault-injecting file system", message: "killed here"))

    /// Operations left before the kill (negative once it happened).
    var left: Int { lock.withLock { remaining } }

    /// Counts an operation; at the cut, `during` (the cut operation's half, if any) runs, every
    /// unflushed file is torn, and the run is stopped.
    private func step(during: () -> Void = {}) throws(ApplierError) {
        let cut = lock.withLock { () -> Bool in
            remaining -= 1
            guard remaining == -1 else { return remaining < -1 }
            if inside { during() }
            for (path, (data, _)) in unflushed where FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: data.prefix(data.count / 2))
                torn += 1
            }
            unflushed = [:]
            for rename in unsynced.reversed() { undo(rename) }
            unsynced = []
            return true
        }
        if cut { throw Self.kill }
    }

    func write(_ data: Data, to url: URL, flush: Flush) throws(ApplierError) {
        try step {
            cutInsideWrite = true
            _ = FileManager.default.createFile(atPath: url.path, contents: data.prefix(data.count / 2))
            unflushed[url.path] = (data, false)
        }
        try real.write(data, to: url, flush: flush)
        lock.withLock { wrote(data, at: url.path, flush) }
    }

    /// Cut inside, the file holds the new bytes' first half and the old bytes after them.
    func overwrite(_ data: Data, at url: URL, flush: Flush) throws(ApplierError) -> Bool {
        try step {
            cutInsideWrite = true
            let old = FileManager.default.contents(atPath: url.path) ?? Data()
            _ = FileManager.default.createFile(atPath: url.path, contents: data.prefix(data.count / 2) + old.dropFirst(data.count / 2))
            unflushed[url.path] = (data, false)
        }
        let made = try real.overwrite(data, at: url, flush: flush)
        lock.withLock { wrote(data, at: url.path, flush) }
        return made
    }

    /// Notes a file written (under the lock).
    private func wrote(_ data: Data, at path: String, _ flush: Flush) {
        switch flush {
        case .none, .toDrive: unflushed[path] = (data, flush == .toDrive)
        case .full:
            unflushed[path] = nil
            flushedFully()
        }
    }

    /// A full flush (under the lock): every file handed to the drive is now safe.
    private func flushedFully() {
        unflushed = unflushed.filter { !$0.value.toDrive }
    }

    func rename(_ source: URL, to target: URL) throws(ApplierError) {
        try step()
        var isFolder: ObjCBool = false
        let replaced: Replaced =
            !FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder)
            ? .nothing : isFolder.boolValue ? .emptyFolder : (try? Data(contentsOf: target)).map(Replaced.file) ?? .nothing
        try real.rename(source, to: target)
        lock.withLock {
            move(source.path, to: target.path)
            unsynced.append((source.path, target.path, replaced))
        }
    }

    /// Makes the renames into or out of `url` durable.
    func syncFolder(_ url: URL) throws(ApplierError) {
        try step()
        try real.syncFolder(url)
        let folder = url.standardizedFileURL.path
        lock.withLock {
            flushedFully()
            unsynced.removeAll { rename in
                [rename.source, rename.target].contains { URL(fileURLWithPath: $0).deletingLastPathComponent().standardizedFileURL.path == folder }
            }
        }
    }

    /// Puts back what a rename changed: the moved file or folder at its source again, and at its
    /// target what was there before. A target removed since is left removed (removals are kept).
    private func undo(_ rename: (source: String, target: String, replaced: Replaced)) {
        let files = FileManager.default
        guard files.fileExists(atPath: rename.target) else { return }
        do {
            try? files.removeItem(atPath: rename.source)
            try files.moveItem(atPath: rename.target, toPath: rename.source)
            switch rename.replaced {
            case .nothing: break
            case .file(let data): _ = files.createFile(atPath: rename.target, contents: data)
            case .emptyFolder: try files.createDirectory(atPath: rename.target, withIntermediateDirectories: false)
            }
            lostRenames += 1
        } catch {
            Issue.record("the fault-injecting file system could not undo \(rename.source) → \(rename.target): \(error)")
        }
    }

    func remove(_ url: URL) throws(ApplierError) {
        try step()
        try real.remove(url)
        lock.withLock { unflushed = unflushed.filter { !Self.isAt($0.key, url.path) } }
    }

    func makeFolder(_ url: URL) throws(ApplierError) { try step(); try real.makeFolder(url) }

    /// Not an operation a kill can cut (it changes nothing a process sees), but its file's bytes are
    /// then handed to the drive, or safe from a power cut.
    func flush(_ url: URL, _ flush: Flush) throws(ApplierError) {
        try real.flush(url, flush)
        lock.withLock {
            guard let data = unflushed[url.path]?.data else {
                if flush == .full { flushedFully() }
                return
            }
            wrote(data, at: url.path, flush)
        }
    }

    /// A rename carries the unflushed bytes of a file, or of every file below a folder, along; the
    /// target's own are replaced.
    private func move(_ source: String, to target: String) {
        var moved: [String: (data: Data, toDrive: Bool)] = [:]
        for (path, data) in unflushed {
            if Self.isAt(path, source) {
                moved[target + path.dropFirst(source.count)] = data
            } else if !Self.isAt(path, target) {
                moved[path] = data
            }
        }
        unflushed = moved
    }

    /// Whether `path` is `place` or below it.
    private static func isAt(_ path: String, _ place: String) -> Bool { path == place || path.hasPrefix(place + "/") }
}

/// Every scenario × a kill at every file operation: after each, the next run ends in exactly the
/// state an uninterrupted run reaches, and restore gives the originals back byte for byte.
@Suite struct CrashMatrixTests {
    static let before = date("2026-11-10T10:00:00+08:00")
    static let during = date("2026-11-11T09:00:00+08:00")
    static let after = date("2026-11-12T03:00:00+08:00")

    /// One scenario: how to prepare the sandbox (after `install`, the OS's originals are taken as
    /// the originals restore must give back), and the run that is killed.
    struct Scenario: Sendable, CustomStringConvertible {
        var description: String
        var install: @Sendable () throws -> SandboxSimulator = { try sandbox(Installed.iPhone15) }
        var prepare: @Sendable (SandboxSimulator) throws -> Void = { _ in }
        var run: @Sendable (SnapshotApplier) throws -> ApplyReport
        var now: Date
        var restorable = true
        /// The preparation makes the OS render the cache anew: its originals are the ones after it.
        var rendersAnew = false
    }

    static func applier(_ sim: SandboxSimulator, now: Date, bundle: URL? = nil) throws -> SnapshotApplier {
        let model = try sim.model()
        return SnapshotApplier(
            container: sim.container, bundle: try bundle ?? (model.ios.hasPrefix("12") ? Bundles.double11OldPhone.get() : Bundles.double11.get()),
            appVersion: model.version, appBuild: model.build, osVersion: OSVersion(model.ios) ?? OSVersion(major: 17),
            decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { now })
    }

    static let scenarios: [Scenario] = [
        Scenario(description: "first apply", run: { try $0.apply() }, now: before),
        Scenario(description: "campaign start", prepare: { _ = try applier($0, now: before).apply() }, run: { try $0.apply() }, now: during),
        Scenario(description: "campaign end", prepare: { _ = try applier($0, now: during).apply() }, run: { try $0.apply() }, now: after),
        Scenario(description: "restore", prepare: { _ = try applier($0, now: during).apply() }, run: { try $0.restore() }, now: during),
        Scenario(
            description: "carry-over after an update",
            prepare: { sim in
                _ = try applier(sim, now: during).apply()
                _ = try sim.update(version: "5.3", build: "200")
            }, run: { try $0.apply() }, now: during, rendersAnew: true),
        Scenario(
            description: "language change",
            prepare: { sim in
                _ = try applier(sim, now: during).apply()
                _ = try sim.languageChange()
            }, run: { try $0.apply() }, now: during, rendersAnew: true),
        Scenario(
            description: "leftovers cleared",
            install: {
                SandboxSimulator(root: try Installed.install(ios: "17.0", leftovers: Repo.storyboard("colourful.json")))
            }, run: { try $0.apply() }, now: during, restorable: false),
        Scenario(
            description: "iOS 12 folder move", install: { SandboxSimulator(root: try Installed.install(device: "iPhone 8", ios: "12.4")) },
            prepare: { _ = try applier($0, now: before).apply() }, run: { try $0.apply() }, now: during),
    ]

    /// A private copy of a prepared sandbox: every run of a scenario starts from the same bytes.
    static func copy(_ prepared: SandboxSimulator) throws -> SandboxSimulator {
        let root = temporaryFolder("crash").appendingPathComponent("s")
        try FileManager.default.copyItem(at: prepared.root, to: root)
        return SandboxSimulator(root: root)
    }

    /// Everything below the folder that holds the launch folder, by relative path.
    static func tree(_ sim: SandboxSimulator) throws -> [String: Data] {
        let root = try sim.snapshotFolder(try sim.model()).deletingLastPathComponent()
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return files }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test(arguments: scenarios)
    func aKillAtEveryFileOperationEndsWhereAnUninterruptedRunDoes(_ scenario: Scenario) throws {
        let installed = try scenario.install()
        let installOriginals = try installed.cachedFiles()
        try scenario.prepare(installed)
        let originals = scenario.rendersAnew ? try installed.cachedFiles() : installOriginals
        let reference = try Self.copy(installed)
        let expectedReport = try scenario.run(try Self.applier(reference, now: scenario.now))
        let expected = try Self.tree(reference)
        let objects = Set(
            try Manifest.decode(from: Data(contentsOf: Bundles.double11.get().appendingPathComponent("manifest.json")))
                .campaigns.flatMap { $0.snapshots.map(\.object) }
        )
        .union(
            try Manifest.decode(from: Data(contentsOf: Bundles.double11OldPhone.get().appendingPathComponent("manifest.json")))
                .campaigns.flatMap { $0.snapshots.map(\.object) })
        // Whole files only: the originals, the campaign objects, what the cache held before the run,
        // and what the uninterrupted run put there (each object's picture in its original's container).
        // (A cleared folder holds none.)
        let known = Set(originals.values.map(sha256Hex)).union(objects).union(((try? installed.cachedFiles()) ?? [:]).values.map(sha256Hex))
            .union(((try? reference.cachedFiles()) ?? [:]).values.map(sha256Hex))
        var kills = 0, insideWrites = 0, torn = 0, lostRenames = 0
        cuts: for n in 0..<400 {
            for inside in [false, true] {
                let sim = try Self.copy(installed)
                var killed = try Self.applier(sim, now: scenario.now)
                let faults = FaultInjectingFileSystem(failAfter: n, inside: inside, container: sim.container)
                killed.fileSystem = faults
                do {
                    _ = try scenario.run(killed)
                    #expect(try Self.tree(sim) == expected, "\(scenario): uninterrupted with \(n) operations allowed")
                    break cuts
                } catch let error as ApplierError where error == FaultInjectingFileSystem.kill {
                    // Cut inside an operation that is no write: the same as the cut after, already run.
                    if inside && !faults.cutInsideWrite { continue }
                    kills += 1
                    insideWrites += faults.cutInsideWrite ? 1 : 0
                    torn += faults.torn
                    lostRenames += faults.lostRenames
                }
                let n = "\(n)\(inside ? " (inside a write)" : "")"
                // Killed: every cached file is its original or a replacement whole, never a torn file.
                for (name, data) in (try? sim.cachedFiles()) ?? [:] {
                    #expect(known.contains(sha256Hex(data)), "\(scenario), killed after \(n): \(name) is torn")
                }
                // The next run ends exactly where the uninterrupted one did.
                let next = try scenario.run(try Self.applier(sim, now: scenario.now))
                #expect(try Self.tree(sim) == expected, "\(scenario), killed after \(n) operations, then run again")
                #expect(next.campaign == expectedReport.campaign, "\(scenario), killed after \(n)")
                if scenario.restorable {
                    _ = try Self.applier(sim, now: scenario.now).restore()
                    #expect(try sim.cachedFiles() == originals, "\(scenario), killed after \(n): restore gives the originals back")
                }
            }
        }
        #expect(kills >= 3, "\(scenario): the kill must have cut in at several operations (\(kills))")
        #expect(insideWrites >= 1, "\(scenario): a kill must have cut a write in half (\(insideWrites))")
        #expect(lostRenames >= 1, "\(scenario): a kill must have lost a rename no folder sync made durable (\(lostRenames))")
        print("crash matrix, \(scenario): \(kills) kills, \(insideWrites) inside a write, \(torn) unflushed files torn, \(lostRenames) renames lost")
    }

    /// The fetcher's install, killed at every file operation and halfway through every write: the app
    /// always has a whole bundle to give the applier (the one installed before, or the new one, never
    /// a mix or a torn file), and the next fetch installs the new one.
    @Test func aKillAtEveryFetcherOperationLeavesAWholeBundleAndTheNextFetchInstallsTheNewOne() async throws {
        let server = try NginxServer()
        let (prepared, before) = try await Season15.installedThenGreySale(server)
        func copy() throws -> URL {
            let folder = temporaryFolder("downloads-cut").appendingPathComponent("d")
            try FileManager.default.copyItem(at: prepared, to: folder)
            return folder
        }
        let reference = try copy()
        _ = try await Season15.fetcher(server, "season", into: reference).fetch()
        let after = Season15.files(reference.appendingPathComponent("bundle"))
        #expect(after != before)
        var kills = 0, insideWrites = 0, lostRenames = 0
        cuts: for n in 0..<400 {
            for inside in [false, true] {
                let folder = try copy()
                var fetcher = Season15.fetcher(server, "season", into: folder)
                let faults = FaultInjectingFileSystem(failAfter: n, inside: inside, container: folder)
                fetcher.fileSystem = faults
                do {
                    _ = try await fetcher.fetch()
                    #expect(Season15.files(folder.appendingPathComponent("bundle")) == after, "uninterrupted with \(n) operations allowed")
                    break cuts
                } catch {
                    guard faults.left < 0 else { throw error }
                    if inside && !faults.cutInsideWrite { continue }
                    kills += 1
                    insideWrites += faults.cutInsideWrite ? 1 : 0
                    lostRenames += faults.lostRenames
                }
                let cut = "killed after \(n)\(inside ? " (inside a write)" : "")"
                let plain = Season15.fetcher(server, "season", into: folder)
                let current = try #require(plain.current, "\(cut): a bundle to give the applier")
                let shown = Season15.files(current)
                #expect(shown == before || shown == after, "\(cut): the bundle is whole")
                _ = try await plain.fetch()
                #expect(Season15.files(folder.appendingPathComponent("bundle")) == after, "\(cut), then fetched again")
            }
        }
        #expect(kills >= 3, "the kill must have cut in at several operations (\(kills))")
        #expect(insideWrites >= 1, "a kill must have cut a write in half (\(insideWrites))")
        #expect(lostRenames >= 1, "a kill must have lost a rename no folder sync made durable (\(lostRenames))")
    }

    /// A file shows campaign A; B comes into force and the run that swaps B in is killed at every
    /// operation; then A is in force again (B pulled or ended). Whatever the kill left, the next run
    /// puts A's picture in every file: a record never names the picture a file had before its change
    /// (the review's case of a pulled campaign that stays).
    @Test func aKilledSwapNeverLeavesAnotherCampaignShowing() throws {
        let a = Self.during, b = Self.during.addingTimeInterval(3600)
        let bundle = try buildSeason("double11.yaml", "double11.yaml") {
            $0[1].name = "pulled"
            $0[1].grey = true
            $0[1].priority = 20
            $0[1].schedule = Manifest.Schedule(start: b, end: b.addingTimeInterval(600))
        }
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        let installed = SandboxSimulator(root: try Installed.install(ios: "17.0"))
        _ = try Self.applier(installed, now: a, bundle: bundle).apply()
        // The sale's blocks for each cached file, by its variant.
        var saleBlocks: [String: Data] = [:]
        for (name, variant) in try installed.model().variants {
            for snapshot in manifest.campaigns[0].snapshots where snapshot.orientation == variant.orientation && snapshot.appearance == variant.appearance {
                saleBlocks[name] = try SnapshotHeader.astcBlocks(of: Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object))).blocks
            }
        }
        #expect(saleBlocks.count == 4)
        var kills = 0
        for n in 0..<400 {
            let sim = try Self.copy(installed)
            var killed = try Self.applier(sim, now: b, bundle: bundle)
            killed.fileSystem = FaultInjectingFileSystem(failAfter: n, container: sim.container)
            if Self.completes(killed) { break }
            kills += 1
            _ = try Self.applier(sim, now: a, bundle: bundle).apply()
            for (name, data) in try sim.cachedFiles() {
                let blocks = try SnapshotHeader.astcBlocks(of: data).blocks
                #expect(blocks == saleBlocks[name], "killed after \(n): \(name) shows the sale")
            }
        }
        #expect(kills >= 3, "the kill must have cut in at several operations (\(kills))")
    }

    /// Whether `applier`'s apply ran to its end; a failure other than the planted kill is recorded.
    static func completes(_ applier: SnapshotApplier) -> Bool {
        do {
            _ = try applier.apply()
            return true
        } catch {
            #expect(error == FaultInjectingFileSystem.kill, "\(error)")
            return false
        }
    }
}
