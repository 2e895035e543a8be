import Foundation
import SplashApplier

#if canImport(BackgroundTasks)
import BackgroundTasks
#endif
#if canImport(UIKit)
import UIKit
#endif

/// Keeps the app's launch screen in step with the season that `splashgen publish` put on a CDN.
///
/// Wire it in three places:
/// 1. `Info.plist`: `BGTaskSchedulerPermittedIdentifiers` lists ``refreshTask``, and
///    `UIBackgroundModes` has `fetch`.
/// 2. `application(_:didFinishLaunchingWithOptions:)` in the app delegate calls ``register()``
///    (BGTaskScheduler wants every task registered before that method returns), then
///    `Task { await LaunchScreenUpdater.update() }`.
/// 3. Nothing else: each update, whatever its outcome, asks for the next refresh when the schedule
///    next changes, and at least daily.
public enum LaunchScreenUpdater {
    /// The public key from `splashgen keygen -o KEY`: the text of KEY.pub ("ed25519-public …").
    static let publicKey = "PASTE-THE-TEXT-OF-KEY.pub"
    /// Where the tree written by `splashgen publish` is served.
    static let season = URL(string: "https://cdn.example.com/launch/season/")!
    /// The background refresh's identifier, as listed in `BGTaskSchedulerPermittedIdentifiers`.
    public static let refreshTask = "com.example.shop.launch-screen"

    /// Fetches what is new for this screen, then runs the applier, both off the main thread, and
    /// returns when they are done (the report, or nil when nothing could run). `screen` is the
    /// screen's size in pixels; by default ``screenPixels()``.
    @discardableResult
    public static func update(screen: ScreenSize? = nil) async -> ApplyReport? {
        // A key that does not read stops here, loudly: no bundle is trusted without it.
        let trust: BundleTrust
        do { trust = .pinned(try PinnedKey(publicKey)) } catch {
            assertionFailure("splashgen: the pinned key does not read: \(error)")
            return nil
        }
        return await update(from: .season(season), trust: trust, screen: screen)
    }

    /// Where the bundle comes from: the published season, fetched first, or a bundle folder already
    /// on the device (the demo app's local switch, Examples/SplashDemo).
    public enum Source: Sendable {
        case season(URL)
        case folder(URL)
    }

    /// ``update(screen:)`` with the source, the trust and the applier's clock given.
    @discardableResult
    public static func update(
        from source: Source, trust: BundleTrust, screen: ScreenSize? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) async -> ApplyReport? {
        let pixels: ScreenSize
        #if canImport(UIKit)
        if let screen { pixels = screen } else { pixels = await screenPixels() }
        #else
        guard let screen else { return nil }
        pixels = screen
        #endif
        let info = Bundle.main.infoDictionary ?? [:]
        let style = InterfaceStyle(infoPlistValue: info["UIUserInterfaceStyle"] as? String)
        let bundle: URL?
        switch source {
        case .folder(let folder):
            bundle = folder
        case .season(let base):
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            var fetcher = BundleFetcher(
                base: base, folder: support.appendingPathComponent("splashgen/downloads"), screen: pixels,
                trust: trust, bundleID: Bundle.main.bundleIdentifier)
            fetcher.appearances = style.appearances
            do {
                _ = try await fetcher.fetch()
            } catch {
                print("splashgen: \(error)")  // the bundle installed before, if any, stays and applies
            }
            bundle = fetcher.current
        }
        let system = ProcessInfo.processInfo.operatingSystemVersion
        var applier = SnapshotApplier(
            container: URL(fileURLWithPath: NSHomeDirectory()), bundle: bundle,
            appVersion: info["CFBundleShortVersionString"] as? String ?? "0",
            appBuild: info["CFBundleVersion"] as? String ?? "0",
            osVersion: OSVersion(major: system.majorVersion, minor: system.minorVersion),
            decoder: ImageIODecoder(), trust: trust, clock: clock)
        applier.interfaceStyle = style
        applier.appBundleID = Bundle.main.bundleIdentifier
        #if canImport(UIKit)
        // With the scale, a screen the bundle lacks is reported in exact points (`missing-snapshot`).
        applier.screenScale = await MainActor.run { Int(UIScreen.main.scale) }
        #endif
        do {
            let report = try await applier.apply()
            for problem in report.problems { print("splashgen: \(problem.code.rawValue): \(problem)") }
            scheduleRefresh(at: report.nextChange ?? .distantFuture)
            return report
        } catch {
            print("splashgen: \(error)")  // nothing was changed that could not be finished safely
            scheduleRefresh(at: .distantFuture)
            return nil
        }
    }

    #if canImport(UIKit)
    /// The screen's size in pixels as the OS sizes launch snapshots: bounds in points × `scale`
    /// (with Display Zoom, the zoomed screen). Not `nativeBounds`, the panel's pixels, which differ
    /// on the Plus models (1080×1920 against 1242×2208 rendered) and do not follow Display Zoom.
    @MainActor public static func screenPixels() -> ScreenSize {
        let screen = UIScreen.main
        let width = Int((screen.bounds.width * screen.scale).rounded()), height = Int((screen.bounds.height * screen.scale).rounded())
        return ScreenSize(width: min(width, height), height: max(width, height))
    }
    #endif

    #if canImport(BackgroundTasks) && os(iOS)
    /// Registers the background refresh; call it from `application(_:didFinishLaunchingWithOptions:)`.
    /// The system wakes the app at about the time asked for: the update runs (``update(screen:)``,
    /// or the one given), then the task is marked completed (or cancelled when the system takes its
    /// time back).
    public static func register(running job: @escaping @Sendable () async -> ApplyReport? = { await update() }) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshTask, using: nil) { task in
            let refresh = RefreshTask(task)
            let work = Task {
                let report = await job()
                refresh.complete(success: report != nil)
            }
            task.expirationHandler = { work.cancel() }
        }
    }

    /// The system's task, completed once from whichever thread the update ends on.
    private final class RefreshTask: @unchecked Sendable {
        private let task: BGTask
        init(_ task: BGTask) { self.task = task }
        func complete(success: Bool) { task.setTaskCompleted(success: success) }
    }
    #endif

    /// Asks the system to wake the app when the schedule next changes, and at least daily (also
    /// when nothing is scheduled, or this update failed): a campaign pulled from the season is taken
    /// down, and a new season is found.
    static func scheduleRefresh(at date: Date) {
        #if canImport(BackgroundTasks) && os(iOS)
        let request = BGAppRefreshTaskRequest(identifier: refreshTask)
        request.earliestBeginDate = min(date, Date().addingTimeInterval(24 * 3600))
        try? BGTaskScheduler.shared.submit(request)
        #endif
    }
}
