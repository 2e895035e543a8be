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
///    (BGTaskScheduler wants every task registered before that method returns). Once a scene is
///    connected (a SwiftUI root view's `.task`, a scene delegate's `sceneDidBecomeActive`, or an
///    app delegate's window made key), `Task { await LaunchScreenUpdater.update() }`: the update
///    takes that scene's screen, and remembers it for the background refreshes.
/// 3. Nothing else: each update, whatever its outcome, asks for the next refresh when the schedule
///    next changes, and at least daily.
public enum LaunchScreenUpdater {
    /// The root's public key from `splashgen keygen -o KEY`: the text of KEY.pub ("ed25519-public …").
    /// The root stays offline and certifies the key CI signs with (`splashgen certify`).
    static let publicKey = "PASTE-THE-TEXT-OF-KEY.pub"
    /// Where the tree written by `splashgen publish` is served.
    static let season = "https://cdn.example.com/launch/season/"
    /// The background refresh's identifier, as listed in `BGTaskSchedulerPermittedIdentifiers`.
    public static let refreshTask = "com.example.shop.launch-screen"

    /// Fetches what is new for this screen, then runs the applier, both off the main thread, and
    /// returns when they are done (the report, or nil when nothing could run).
    @discardableResult
    public static func update() async -> ApplyReport? {
        // A key that does not read, or an address that is not a URL, stops here, loudly in a debug
        // build: no bundle is trusted without the key, and none is fetched from nowhere.
        let trust: BundleTrust
        do { trust = .pinned(try PinnedKey(publicKey)) } catch {
            assertionFailure("splashgen: the pinned key does not read: \(error)")
            return nil
        }
        guard let base = URL(string: season) else {
            assertionFailure("splashgen: the season's address is not a URL: \(season)")
            return nil
        }
        return await update(from: .season(base), trust: trust)
    }

    /// Where the bundle comes from: the published season, fetched first, or a bundle folder already
    /// on the device (the demo app's local switch, Examples/SplashDemo).
    public enum Source: Sendable {
        case season(URL)
        case folder(URL)
    }

    /// ``update()`` with the source, the trust and the applier's clock given.
    @discardableResult
    public static func update(from source: Source, trust: BundleTrust, clock: @escaping @Sendable () -> Date = { Date() }) async -> ApplyReport? {
        #if canImport(UIKit) && os(iOS)
        // `forThisApp` reads the Info.plist, the container and the OS version; the screen is the
        // scene's, remembered for a launch the system makes in the background, which may have none.
        guard let screen = await MainActor.run(body: { sceneScreen() }) else {
            print("splashgen: no window scene has been connected yet: nothing fetched or applied")
            scheduleRefresh(at: .distantFuture)
            return nil
        }
        let bundle: URL?
        switch source {
        case .folder(let folder):
            bundle = folder
        case .season(let base):
            let fetcher = await MainActor.run { BundleFetcher.forThisApp(base: base, trust: trust, screen: screen.size) }
            do {
                _ = try await fetcher.fetch()
            } catch {
                print("splashgen: \(error)")  // the bundle installed before, if any, stays and applies
            }
            bundle = fetcher.current
        }
        do {
            var applier = try await MainActor.run { try SnapshotApplier.forThisApp(bundle: bundle, trust: trust, screenScale: screen.scale) }
            applier.clock = clock
            // Every run's outcome also goes to the unified log (subsystem "splashgen"); an app sends
            // what the cache held at this cold launch to its own analytics here.
            applier.outcome = { result in
                if case .success(let report) = result { print("splashgen: this launch showed \(report.heldAtLaunch ?? "different pictures per file")") }
            }
            let report = try await applier.apply()
            for problem in report.problems { print("splashgen: \(problem.code.rawValue): \(problem)") }
            scheduleRefresh(at: report.nextChange ?? .distantFuture)
            return report
        } catch {
            print("splashgen: \(error)")  // nothing was changed that could not be finished safely
            scheduleRefresh(at: .distantFuture)
            return nil
        }
        #else
        return nil  // an app's launch cache exists on iOS only
        #endif
    }

    #if canImport(UIKit) && os(iOS)
    /// The screen of the scene the app shows, in pixels as the OS sizes launch snapshots, and its
    /// scale: the foreground-active window scene's, else any connected one's, and remembered; the
    /// one remembered when no scene is connected (a launch the system makes in the background);
    /// nil before any scene was ever connected. Never `UIScreen.main`, which iOS 16 deprecates
    /// and which is not a scene's screen.
    @MainActor public static func sceneScreen() -> (size: ScreenSize, scale: Int)? {
        let key = "splashgen.sceneScreen", defaults = UserDefaults.standard
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        if let screen = (scenes.first { $0.activationState == .foregroundActive } ?? scenes.first)?.screen {
            let size = ScreenSize(screen: screen), scale = Int(screen.scale.rounded())
            defaults.set([size.width, size.height, scale], forKey: key)
            return (size, scale)
        }
        guard let saved = defaults.array(forKey: key) as? [Int], saved.count == 3, saved.allSatisfy({ $0 > 0 }) else { return nil }
        return (ScreenSize(width: saved[0], height: saved[1]), saved[2])
    }
    #endif

    #if canImport(BackgroundTasks) && os(iOS)
    /// Registers the background refresh; call it from `application(_:didFinishLaunchingWithOptions:)`.
    /// The system wakes the app at about the time asked for: the update runs (``update()``,
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
    /// when nothing is scheduled, or this update failed): iOS refreshes when it chooses, so a
    /// campaign pulled from the season goes at the next fetch it allows, and at the season's expiry
    /// at the latest.
    static func scheduleRefresh(at date: Date) {
        #if canImport(BackgroundTasks) && os(iOS)
        let request = BGAppRefreshTaskRequest(identifier: refreshTask)
        request.earliestBeginDate = min(date, Date().addingTimeInterval(24 * 3600))
        try? BGTaskScheduler.shared.submit(request)
        #endif
    }
}
