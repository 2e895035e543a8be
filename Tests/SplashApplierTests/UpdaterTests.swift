// Expectations: the updater's contract (its type's description, docs/ios-integration.md): fetch,
// then apply what is installed, whatever the fetch's outcome; each outcome to the log in that
// order; the next refresh at the schedule's next change, and at least daily. The campaigns'
// schedules come from campaigns/*.yaml (Double 11 in force on 2026-11-11 in Shanghai, ending at
// 02:00 on the 12th).
import Foundation
@_spi(Testing) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
@_spi(Testing) import SplashUpdater
import Testing

/// The library's one update (``LaunchScreenUpdater/update(fetcher:applier:now:longest:log:)``), run as
/// the simulated app would: a season on a real nginx, an iPhone 15's container.
@Suite(.serialized) struct UpdaterTests {
    static let now = date("2026-11-11T12:00:00+08:00")

    /// What an update logged, as the names of its events, and when it asked for the next refresh.
    static func update(
        _ sim: SandboxSimulator, fetcher: BundleFetcher?, now: Date = now, breakApplier: Bool = false
    ) async -> (
        events: [String], reports: [ApplyReport], next: Date
    ) {
        let log = Locked<[LaunchScreenUpdater.Event]>([])
        let container = breakApplier ? sim.root.appendingPathComponent("missing") : sim.container
        let next = await LaunchScreenUpdater.update(
            fetcher: fetcher,
            applier: { bundle throws(ApplierError) in
                SnapshotApplier(
                    container: container, bundle: bundle, appVersion: "5.2", appBuild: "100", osVersion: OSVersion(major: 17),
                    decoder: SnapshotDecoder(), trust: Season15.trust, clock: { now })
            }, now: now,
            log: { event in log.withLock { $0.append(event) } })
        let events = log.withLock { $0 }
        let names = events.map { event in
            switch event {
            case .fetched: "fetched"
            case .fetchFailed: "fetchFailed"
            case .applied: "applied"
            case .applyFailed: "applyFailed"
            case .skipped: "skipped"
            case .nextRefresh: "nextRefresh"
            }
        }
        let reports = events.compactMap { if case .applied(let report) = $0 { report } else { nil } }
        return (names, reports, next)
    }

    @Test func anUpdateFetchesThenAppliesAndAsksForTheNextChange() async throws {
        let server = try Season15.served()
        let sim = try sandbox(Installed.iPhone15)
        var fetcher = try sim.fetcher(from: server.base.appendingPathComponent("season"), trust: Season15.trust)
        fetcher.deadline = 900
        let (events, reports, next) = await Self.update(sim, fetcher: fetcher)
        #expect(events == ["fetched", "applied"])
        #expect(reports.first?.campaign == "double11")
        // Double 11 ends at 02:00 on the 12th in Shanghai (campaigns/double11.yaml), within the day:
        // the refresh is asked for then.
        #expect(next == reports.first?.nextChange && next == date("2026-11-12T02:00:00+08:00"), "\(next)")
        // Later, with nothing scheduled within a day: at most a day later.
        let (_, later, nextLater) = await Self.update(sim, fetcher: fetcher, now: date("2026-11-20T12:00:00+08:00"))
        #expect(later.first?.nothingToDo == false && nextLater <= date("2026-11-21T12:00:00+08:00"))
    }

    @Test func aFailedFetchStillAppliesTheBundleInstalledBefore() async throws {
        let server = try Season15.served()
        let sim = try sandbox(Installed.iPhone15)
        var fetcher = try sim.fetcher(from: server.base.appendingPathComponent("season"), trust: Season15.trust)
        fetcher.deadline = 900
        _ = await Self.update(sim, fetcher: fetcher)
        let shown = try sim.cachedFiles()
        var gone = try sim.fetcher(from: server.base.appendingPathComponent("no-such-season"), trust: Season15.trust)
        (gone.attempts, gone.deadline) = (1, 900)
        let (events, reports, _) = await Self.update(sim, fetcher: gone, now: Self.now.addingTimeInterval(60))
        #expect(events == ["fetchFailed", "applied"])
        #expect(try reports.first?.campaign == "double11" && sim.cachedFiles() == shown)
    }

    @Test func anAppThatDeliversItsOwnBundlesUpdatesWithoutAFetcher() async throws {
        let sim = try sandbox(Installed.iPhone15)
        let (events, reports, _) = await Self.update(sim, fetcher: nil)
        #expect(events == ["applied"] && reports.first?.campaign == nil)
    }

    @Test func anApplyThatFailsAsksForTheNextRefreshWithinADay() async throws {
        let sim = try sandbox(Installed.iPhone15)
        let (events, _, next) = await Self.update(sim, fetcher: nil, breakApplier: true)
        #expect(events == ["applyFailed"])
        #expect(next == Self.now.addingTimeInterval(24 * 3600))
    }

    @Test func aKeyThatDoesNotReadIsRefusedWhenTheUpdaterIsConfigured() throws {
        let bad = LaunchScreenUpdater.Configuration(season: URL(string: "https://cdn.example.com/s/")!, key: "PASTE-THE-TEXT-OF-KEY.pub", refreshTask: "t")
        #expect(throws: SignatureError.self) { _ = try bad.trust() }
        let good = LaunchScreenUpdater.Configuration(season: URL(string: "https://cdn.example.com/s/")!, key: Season15.key.publicKey, refreshTask: "t")
        #expect(try good.trust() == Season15.trust)
    }
}
