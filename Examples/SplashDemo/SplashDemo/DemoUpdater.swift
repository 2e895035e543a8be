import Foundation
import SplashUpdater
import UIKit

/// The demo's splashgen, on the library's updater (SplashUpdater, linked as an app links it), with
/// what an app fixes in its configuration taken from ``DemoSwitches`` instead: the season's URL or a
/// local bundle folder, the pinned key, and (DEBUG builds) the applier's clock. Each run's outcome
/// goes to ``DemoRun/path`` in the app's data container and to the log.
///
/// A launch's update starts once a scene is connected: the screen is the connected window scene's
/// (``LaunchScreenUpdater/sceneScreen()``, remembered for background refreshes), never
/// `UIScreen.main`; nothing runs before a scene was ever connected. Each run is the library's
/// ``LaunchScreenUpdater/update(fetcher:applier:now:longest:log:)``, the update ``LaunchScreenUpdater/start(_:)``
/// makes, given the switches' source, trust and clock.
enum DemoUpdater {
    /// Whether this launch's update has started (``start(from:)`` runs one per launch).
    @MainActor private static var started = false

    /// Starts this launch's update, once, with this launch's switches: the scene-based shapes call it
    /// from their root view, the app-delegate shape once its window is key and visible (or, failing
    /// a scene there, once the app is active). `caller` and the scene's screen go into the record.
    @MainActor static func start(from caller: String) {
        guard !started else { return }
        started = true
        let switches = DemoSwitches(defaults: .standard)
        let screen = LaunchScreenUpdater.sceneScreen()
        Task { await update(switches, screen: screen, startedBy: caller) }
    }

    /// Runs what the switches ask, records it, shows it in the window, and returns the applier's
    /// report (nil when nothing ran or the applier stopped).
    @discardableResult
    static func update(_ switches: DemoSwitches, screen: (size: ScreenSize, scale: Int)?, startedBy caller: String) async -> ApplyReport? {
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let system = ProcessInfo.processInfo.operatingSystemVersion
        var run = DemoRun(switches: switches, ios: OSVersion(major: system.majorVersion, minor: system.minorVersion))
        run.startedBy = caller
        run.screen = screen?.size
        let report = await update(switches, screen: screen, recording: &run)
        do { try run.write(home: home) } catch {
            DemoLog.error("could not write \(DemoRun.path): \(error)")
        }
        let summary = run.summary
        DemoLog.notice(summary)
        await MainActor.run { DemoStatus.shared.summary = summary }
        return report
    }

    private static func update(_ switches: DemoSwitches, screen: (size: ScreenSize, scale: Int)?, recording run: inout DemoRun) async -> ApplyReport? {
        guard switches.runsSplashgen else {
            run.note = "no -SplashDemoBundleFolder or -SplashDemoSeasonURL: splashgen did not run, the OS's cache is as the OS wrote it"
            return nil
        }
        // A key that does not read stops here, loudly: no bundle is trusted without it.
        let trust: BundleTrust
        do { trust = try switches.trust() } catch {
            run.error = error.description
            return nil
        }
        guard let screen else {
            run.error = "no window scene had been connected when the update started: nothing runs before one is"
            return nil
        }
        // A folder given is applied as it is; else the season is fetched first.
        let fetcher = await MainActor.run { () -> BundleFetcher? in
            guard switches.bundleFolder == nil, let season = switches.seasonURL else { return nil }
            return BundleFetcher.forThisApp(base: season, trust: trust, screen: screen.size)
        }
        let folder = switches.bundleFolder
        let now = switches.now ?? Date()
        let events = EventLog()
        _ = await LaunchScreenUpdater.update(
            fetcher: fetcher,
            applier: { bundle throws(ApplierError) in
                var applier = try await LaunchScreenUpdater.forThisApp(bundle: folder ?? bundle, trust: trust, screenScale: screen.scale)
                applier.clock = { now }
                return applier
            }, now: now,
            log: { event in
                DemoLog.notice("\(event)")
                events.append(event)
            })
        for event in events.all {
            switch event {
            case .applied(let report): run.apply = report
            case .applyFailed(let error): run.error = "the applier stopped: \(error)"
            case .fetchFailed(let error): run.note = "the fetch failed (the bundle installed before, if any, was applied): \(error)"
            default: break
            }
        }
        return run.apply
    }
}

/// The events of one update, appended from whichever thread the updater logs on.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [LaunchScreenUpdater.Event] = []
    func append(_ event: LaunchScreenUpdater.Event) { lock.withLock { events.append(event) } }
    var all: [LaunchScreenUpdater.Event] { lock.withLock { events } }
}
