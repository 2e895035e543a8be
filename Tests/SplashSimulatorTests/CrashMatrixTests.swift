import Foundation
import SplashCore
import SplashFormat
import SplashTestSupport
import Testing

@testable import SplashApplier
@testable import SplashSimulator

/// A file system that stops dead after a set number of operations, leaving the disk exactly as a
/// kill would (every operation before it done and durable, none after).
final class FaultInjectingFileSystem: ApplierFileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private let real: POSIXFileSystem

    init(failAfter operations: Int, container: URL) {
        remaining = operations
        real = POSIXFileSystem(root: container)
    }

    /// What the run is stopped with, as a kill would stop it (an error of the library's own kind, so
    /// the library needs no case for tests).
    static let kill = ApplierError.io("fault-injecting file system", "killed here")

    /// Operations left before the kill (negative once it happened).
    var left: Int { lock.withLock { remaining } }

    private func step() throws(ApplierError) {
        let go = lock.withLock { () -> Bool in
            remaining -= 1
            return remaining >= 0
        }
        if !go { throw Self.kill }
    }

    func write(_ data: Data, to url: URL, flush: Bool) throws(ApplierError) { try step(); try real.write(data, to: url, flush: flush) }
    func rename(_ source: URL, to target: URL) throws(ApplierError) { try step(); try real.rename(source, to: target) }
    func syncFolder(_ url: URL) throws(ApplierError) { try step(); try real.syncFolder(url) }
    func remove(_ url: URL) throws(ApplierError) { try step(); try real.remove(url) }
    func makeFolder(_ url: URL) throws(ApplierError) { try step(); try real.makeFolder(url) }
    /// Changes nothing a kill could see (only what survives a power cut): not a step.
    func flush(_ url: URL) throws(ApplierError) { try real.flush(url) }
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
                SandboxSimulator(root: try Installed.install(ios: "17.0", leftovers: Repo.campaign("double11.yaml")))
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
        var kills = 0
        for n in 0..<400 {
            let sim = try Self.copy(installed)
            var killed = try Self.applier(sim, now: scenario.now)
            let faults = FaultInjectingFileSystem(failAfter: n, container: sim.container)
            killed.fileSystem = faults
            do {
                _ = try scenario.run(killed)
                #expect(try Self.tree(sim) == expected, "\(scenario): uninterrupted with \(n) operations allowed")
                break
            } catch let error as ApplierError where error == FaultInjectingFileSystem.kill {
                kills += 1
            }
            // Killed: every cached file is its original or a campaign object, never a torn file.
            let objects = Set(
                try Manifest.decode(from: Data(contentsOf: Bundles.double11.get().appendingPathComponent("manifest.json")))
                    .campaigns.flatMap { $0.snapshots.map(\.object) }
            )
            .union(
                try Manifest.decode(from: Data(contentsOf: Bundles.double11OldPhone.get().appendingPathComponent("manifest.json")))
                    .campaigns.flatMap { $0.snapshots.map(\.object) })
            let known = Set(originals.values.map(sha256Hex)).union(objects)
            for (name, data) in (try? sim.cachedFiles()) ?? [:] {
                #expect(known.contains(sha256Hex(data)) || SnapshotContent(sniffing: data) == .png, "\(scenario), killed after \(n): \(name) is torn")
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
        #expect(kills >= 3, "\(scenario): the kill must have cut in at several operations (\(kills))")
    }
}
