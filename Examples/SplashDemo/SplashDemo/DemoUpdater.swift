import AppIntegration
import Foundation
import SplashApplier

/// The README's `LaunchScreenUpdater` (Examples/AppIntegration, linked as it is), with what that
/// code fixes in constants taken from ``DemoSwitches`` instead: the season's URL or a local bundle
/// folder, the pinned key, and (DEBUG builds) the applier's clock. Each run's outcome goes to
/// ``DemoRun/path`` in the app's data container and to the log.
enum DemoUpdater {
    /// Runs what the switches ask, records it, shows it in the window, and returns the applier's
    /// report (nil when nothing ran or the applier stopped).
    @discardableResult
    static func update(_ switches: DemoSwitches) async -> ApplyReport? {
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let system = ProcessInfo.processInfo.operatingSystemVersion
        var run = DemoRun(switches: switches, ios: OSVersion(major: system.majorVersion, minor: system.minorVersion))
        run.screen = await ScreenSize.mainScreen
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
        if let report { run.apply = report } else { run.error = "the applier stopped (its error is in the log)" }
        return report
    }

    /// Registers the background refresh (`LaunchScreenUpdater.register`, which each update asks for
    /// again); called from `application(_:didFinishLaunchingWithOptions:)`. A refresh the system
    /// starts carries no launch arguments, so it does what a launch without switches does: nothing
    /// but record that.
    static func register() {
        LaunchScreenUpdater.register { await update(DemoSwitches(defaults: .standard)) }
    }
}
