// Expectations: issue 37's "what was shown", as written: the report of a run says what the cache
// held at the cold launch that ran it, before the run changed anything, read from the files and the
// applier's records of them, not from the schedule; an app's hook hears every run's outcome, a
// failure included. The campaigns' dates are campaigns/double11.yaml's.
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Synchronization
import Testing

@Suite struct LaunchOutcomeTests {
    @Test func theReportNamesWhatTheCacheHeldAtThisLaunchAndTheHookHearsEveryRun() throws {
        let sim = try sandbox(Installed.iPhone15)
        let heard = Mutex<[Result<ApplyReport, ApplierError>]>([])
        func applier(_ bundle: URL?, _ now: String) throws -> SnapshotApplier {
            let model = try sim.model()
            var applier = SnapshotApplier(
                container: sim.container, bundle: bundle, appVersion: model.version, appBuild: model.build,
                osVersion: OSVersion(model.ios)!, decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { date(now) })
            applier.outcome = { result in heard.withLock { $0.append(result) } }
            return applier
        }
        let bundle = try Bundles.double11.get()
        // The first run reads the OS's renders; the sale goes in.
        let first = try applier(bundle, "2026-11-11T09:00:00+08:00").apply()
        #expect(first.heldAtLaunch == "original" && first.campaign == "double11")
        // During the sale, the cache held it (the settled launch path reads no file, and says so too).
        let during = try applier(bundle, "2026-11-11T10:00:00+08:00").apply()
        #expect(during.nothingToDo && during.heldAtLaunch == "double11" && during.files.allSatisfy { $0.held == "double11" })
        // After it, the launch still showed the sale; the run puts the originals back.
        let after = try applier(bundle, "2026-11-12T09:00:00+08:00").apply()
        #expect(after.heldAtLaunch == "double11" && after.files.allSatisfy { $0.showing == "original" })
        #expect(try applier(bundle, "2026-11-12T10:00:00+08:00").apply().heldAtLaunch == "original")
        // A failed run is heard too.
        var broken = try applier(bundle, "2026-11-12T11:00:00+08:00")
        broken.bundle = sim.root.appendingPathComponent("no-such-bundle")
        #expect(throws: ApplierError.self) { try broken.apply() }
        let outcomes = heard.withLock { $0 }
        #expect(outcomes.count == 5)
        #expect(outcomes.compactMap { try? $0.get().heldAtLaunch } == ["original", "double11", "double11", "original"])
        if case .failure = outcomes.last {} else { Issue.record("the failed run was not heard: \(String(describing: outcomes.last))") }
    }
}
