import Foundation
import SplashApplier

#if canImport(BackgroundTasks)
import BackgroundTasks
#endif

/// Keeps the app's launch screen in step with the season that `splashgen publish` put on a CDN.
public enum LaunchScreenUpdater {
    /// The public key from `splashgen keygen -o KEY`: the text of KEY.pub ("ed25519-public …").
    static let publicKey = "PASTE-THE-TEXT-OF-KEY.pub"
    /// Where the tree written by `splashgen publish` is served.
    static let season = URL(string: "https://cdn.example.com/launch/season/")!

    /// Fetches what is new for this screen, then runs the applier, both off the main thread; call it
    /// after launch and from the background refresh. `screen` is `UIScreen.main.bounds.size` ×
    /// `UIScreen.main.scale` in pixels (read on the main thread; with Display Zoom, the zoomed size).
    public static func update(screen: Manifest.Size, refreshTask: String) {
        Task.detached(priority: .utility) {
            // A key that does not read stops here, loudly: no bundle is trusted without it.
            let trust: BundleTrust
            do { trust = .pinned(try PinnedKey(publicKey)) } catch {
                assertionFailure("splashgen: the pinned key does not read: \(error)")
                return
            }
            let info = Bundle.main.infoDictionary ?? [:]
            let style = InterfaceStyle(infoPlistValue: info["UIUserInterfaceStyle"] as? String)
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            var fetcher = BundleFetcher(
                base: season, folder: support.appendingPathComponent("splashgen/downloads"), screen: screen,
                trust: trust, bundleID: Bundle.main.bundleIdentifier)
            fetcher.appearances = style.appearances
            do {
                _ = try await fetcher.fetch()
            } catch {
                print("splashgen: \(error)")  // the bundle installed before, if any, stays and applies
            }
            let system = ProcessInfo.processInfo.operatingSystemVersion
            var applier = SnapshotApplier(
                container: URL(fileURLWithPath: NSHomeDirectory()), bundle: fetcher.current,
                appVersion: info["CFBundleShortVersionString"] as? String ?? "0",
                appBuild: info["CFBundleVersion"] as? String ?? "0",
                osVersion: OSVersion(major: system.majorVersion, minor: system.minorVersion),
                decoder: ImageIODecoder(), trust: trust)
            applier.interfaceStyle = style
            applier.appBundleID = Bundle.main.bundleIdentifier
            do {
                let report = try await applier.apply()
                for problem in report.problems { print("splashgen: \(problem.code.rawValue): \(problem)") }
                if let next = report.nextChange { scheduleRefresh(at: next, task: refreshTask) }
            } catch {
                print("splashgen: \(error)")  // nothing was changed that could not be finished safely
            }
        }
    }

    /// Asks the system to wake the app when the schedule next changes.
    static func scheduleRefresh(at date: Date, task: String) {
        #if canImport(BackgroundTasks) && os(iOS)
        let request = BGAppRefreshTaskRequest(identifier: task)
        request.earliestBeginDate = date
        try? BGTaskScheduler.shared.submit(request)
        #endif
    }
}
