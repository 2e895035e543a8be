import AppIntegration
import Foundation
import SplashApplier
import UIKit

/// The README's `LaunchScreenUpdater` (Examples/AppIntegration, linked as it is), with what that
/// code fixes in constants taken from ``DemoSwitches`` instead: the season's URL or a local bundle
/// folder, the pinned key, and (DEBUG builds) the applier's clock. Each run's outcome goes to
/// ``DemoRun/path`` in the app's data container and to the log.
///
/// A launch's update starts once a scene is connected: `LaunchScreenUpdater` takes the screen from
/// the app's connected window scene (remembered for background refreshes), and runs nothing before
/// one was ever connected. The run record gets the same screen (`LaunchScreenUpdater.sceneScreen()`),
/// never `UIScreen.main`.
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
        let size = LaunchScreenUpdater.sceneScreen()?.size
        Task { await update(switches, screen: size, startedBy: caller) }
    }

    /// Runs what the switches ask, records it, shows it in the window, and returns the applier's
    /// report (nil when nothing ran or the applier stopped).
    @discardableResult
    static func update(_ switches: DemoSwitches, screen: ScreenSize?, startedBy caller: String) async -> ApplyReport? {
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let system = ProcessInfo.processInfo.operatingSystemVersion
        var run = DemoRun(switches: switches, ios: OSVersion(major: system.majorVersion, minor: system.minorVersion))
        run.startedBy = caller
        run.screen = screen
        let report = await update(switches, recording: &run)
        do { try run.write(home: home) } catch {
            DemoLog.error("could not write \(DemoRun.path): \(error)")
        }
        let summary = run.summary
        DemoLog.notice(summary)
        await MainActor.run { DemoStatus.shared.summary = summary }
        return report
    }

    private static func update(_ switches: DemoSwitches, recording run: inout DemoRun) async -> ApplyReport? {
        let source: LaunchScreenUpdater.Source
        if let folder = switches.bundleFolder {
            source = .folder(folder)
        } else if let season = switches.seasonURL {
            source = .season(season)
        } else {
            run.note = "no -SplashDemoBundleFolder or -SplashDemoSeasonURL: splashgen did not run, the OS's cache is as the OS wrote it"
            return nil
        }
        // A key that does not read stops here, loudly: no bundle is trusted without it.
        let trust: BundleTrust
        do { trust = try switches.trust() } catch {
            run.error = error.description
            return nil
        }
        let now = switches.now
        let report = await LaunchScreenUpdater.update(from: source, trust: trust, clock: { now ?? Date() })
        if let report {
            run.apply = report
        } else if run.screen == nil {
            run.error = "no window scene had been connected when the update started: LaunchScreenUpdater runs nothing before one is (the log says)"
        } else {
            run.error = "the applier stopped (its error is in the log)"
        }
        return report
    }

    /// Registers the background refresh (`LaunchScreenUpdater.register`, which each update asks for
    /// again); called from `application(_:didFinishLaunchingWithOptions:)`. A refresh the system
    /// starts carries no launch arguments, so it does what a launch without switches does: nothing
    /// but record that (with the screen the updater would use).
    static func register() {
        LaunchScreenUpdater.register {
            let screen = await MainActor.run { LaunchScreenUpdater.sceneScreen()?.size }
            return await update(DemoSwitches(defaults: .standard), screen: screen, startedBy: "a background refresh")
        }
    }
}
