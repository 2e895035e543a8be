import Foundation
import SplashFormat

#if canImport(BackgroundTasks) && canImport(UIKit) && os(iOS)
import BackgroundTasks
import UIKit
#endif

/// Keeps the app's launch screen in step with the season `splashgen publish` put on a CDN, in one
/// call: `start(_:)` (iOS) from `application(_:didFinishLaunchingWithOptions:)` or a SwiftUI `App`'s
/// `init`, with the season's address, the pinned root key and the refresh task's identifier.
///
/// From then on, on iOS:
/// - each time a window scene becomes active, and in each background refresh, it fetches what is
///   new for that scene's screen (remembered for the refreshes, which may have no scene), then
///   applies the installed bundle, both off the main thread, one update at a time;
/// - it registers the background refresh and asks for the next one when the schedule next changes,
///   and at least daily, whatever the outcome;
/// - it hands each outcome to ``Configuration/log`` (by default the console).
///
/// The app's Info.plist lists the identifier in `BGTaskSchedulerPermittedIdentifiers` and has
/// `fetch` in `UIBackgroundModes`. Elsewhere (macOS, Linux: the simulator and tests) nothing is
/// registered: ``update(fetcher:applier:now:longest:log:)`` is the same update, given its parts.
public enum LaunchScreenUpdater {
    /// What the updater needs to know.
    public struct Configuration: Sendable {
        /// Where the tree written by `splashgen publish` is served.
        public var season: URL
        /// The root public key the app pins, as `splashgen keygen`'s KEY.pub spells it
        /// (`ed25519-public …`). The root stays offline and certifies the key CI signs with.
        public var key: String
        /// The background refresh's identifier, as listed in `BGTaskSchedulerPermittedIdentifiers`.
        public var refreshTask: String
        /// Where each outcome goes (by default the console, `splashgen: …`).
        public var log: @Sendable (Event) -> Void = { print("splashgen: \($0)") }
        /// The longest wait between two refreshes asked of the system.
        public var longestRefreshInterval: TimeInterval = 24 * 3600

        /// The season at `season`, trusted under the root key `key`, refreshed by the task `refreshTask`.
        public init(season: URL, key: String, refreshTask: String) {
            (self.season, self.key, self.refreshTask) = (season, key, refreshTask)
        }

        /// The trust the key gives, or why it gives none.
        public func trust() throws(SignatureError) -> BundleTrust { .pinned(try PinnedKey(key)) }
    }

    /// One outcome of an update, as ``Configuration/log`` receives it.
    public enum Event: Sendable, CustomStringConvertible {
        /// A fetch ended: what it installed, or that nothing was new.
        case fetched(FetchReport)
        /// A fetch failed; the bundle installed before, if any, is still applied.
        case fetchFailed(FetchError)
        /// A run of the applier ended.
        case applied(ApplyReport)
        /// A run of the applier failed: nothing was changed that could not be finished safely.
        case applyFailed(ApplierError)
        /// Nothing ran, and why (no scene connected yet, a key that does not read).
        case skipped(String)
        /// The next refresh asked of the system.
        case nextRefresh(Date)

        public var description: String {
            switch self {
            case .fetched(let report):
                return report.notModified ? "fetch: nothing new" : "fetch: installed serial \(report.serial.map(String.init) ?? "?")"
            case .fetchFailed(let error): return "fetch failed: \(error)"
            case .applied(let report):
                let problems = report.problems.map { "\($0.code.rawValue): \($0)" }
                return (["apply: \(report.campaign ?? "the originals") in force"] + problems).joined(separator: "; ")
            case .applyFailed(let error): return "apply failed: \(error)"
            case .skipped(let why): return "nothing ran: \(why)"
            case .nextRefresh(let date): return "next refresh asked for \(date.formatted(.iso8601))"
            }
        }
    }

    /// One update, from its parts: `fetcher` (nil: a bundle delivered another way) brings what is
    /// new, then the applier `applier` makes for the bundle installed (nil: none) runs; each outcome
    /// goes to `log`. Returns when the next refresh should be: the schedule's next change, at most
    /// `longest` after `now`, and `now + longest` when anything failed.
    public static func update(
        fetcher: BundleFetcher?, applier: @Sendable (URL?) async throws(ApplierError) -> SnapshotApplier, now: Date,
        longest: TimeInterval = 24 * 3600, log: @Sendable (Event) -> Void
    ) async -> Date {
        let latest = now.addingTimeInterval(longest)
        var bundle: URL?
        if let fetcher {
            do { log(.fetched(try await fetcher.fetch())) } catch { log(.fetchFailed(error)) }
            bundle = fetcher.current
        }
        do {
            let report = try await applier(bundle).apply()
            log(.applied(report))
            return min(report.nextChange ?? latest, latest)
        } catch {
            log(.applyFailed(error))
            return latest
        }
    }

    #if canImport(BackgroundTasks) && canImport(UIKit) && os(iOS)
    /// Starts the updater (see the type's description). Call it once, before the app finishes
    /// launching: the system wants the refresh task registered by then.
    @MainActor public static func start(_ configuration: Configuration) {
        let trust: BundleTrust
        do { trust = try configuration.trust() } catch {
            assertionFailure("splashgen: the pinned key does not read: \(error)")
            configuration.log(.skipped("the pinned key does not read: \(error)"))
            return
        }
        let updater = Updater(configuration, trust: trust)
        BGTaskScheduler.shared.register(forTaskWithIdentifier: configuration.refreshTask, using: nil) { task in
            let refresh = RefreshTask(task)
            let work = Task { refresh.complete(success: await updater.run()) }
            task.expirationHandler = { work.cancel() }
        }
        NotificationCenter.default.addObserver(forName: UIScene.didActivateNotification, object: nil, queue: .main) { _ in
            Task { _ = await updater.run() }
        }
        running = updater
    }

    /// The updater ``start(_:)`` made (kept for the app's life).
    @MainActor private static var running: Updater?

    /// Runs one update at a time for the app: a run asked for while one is under way waits for it.
    private actor Updater {
        let configuration: Configuration
        let trust: BundleTrust
        private var current: Task<Bool, Never>?

        init(_ configuration: Configuration, trust: BundleTrust) {
            (self.configuration, self.trust) = (configuration, trust)
        }

        /// One update for the scene's screen; whether it applied. The next refresh is asked for on
        /// every path.
        func run() async -> Bool {
            let previous = current
            let task = Task { [configuration, trust] () -> Bool in
                _ = await previous?.value
                let log = configuration.log
                guard let screen = await MainActor.run(body: { sceneScreen() }) else {
                    log(.skipped("no window scene has been connected yet"))
                    Self.scheduleRefresh(configuration, at: Date().addingTimeInterval(configuration.longestRefreshInterval))
                    return false
                }
                let fetcher = await MainActor.run { BundleFetcher.forThisApp(base: configuration.season, trust: trust, screen: screen.size) }
                let applied = Locked(false)
                let next = await LaunchScreenUpdater.update(
                    fetcher: fetcher,
                    applier: { bundle throws(ApplierError) in
                        try await forThisApp(bundle: bundle, trust: trust, screenScale: screen.scale)
                    }, now: Date(), longest: configuration.longestRefreshInterval,
                    log: { event in
                        if case .applied = event { applied.withLock { $0 = true } }
                        log(event)
                    })
                Self.scheduleRefresh(configuration, at: next)
                return applied.withLock { $0 }
            }
            current = task
            return await task.value
        }

        /// Asks the system to wake the app at `date` for the next refresh (iOS chooses when).
        static func scheduleRefresh(_ configuration: Configuration, at date: Date) {
            let request = BGAppRefreshTaskRequest(identifier: configuration.refreshTask)
            request.earliestBeginDate = date
            do { try BGTaskScheduler.shared.submit(request) } catch {
                configuration.log(.skipped("the next refresh could not be asked for: \(error)"))
                return
            }
            configuration.log(.nextRefresh(date))
        }
    }

    /// ``SnapshotApplier/forThisApp(bundle:trust:screenScale:)``, made on the main actor.
    public static func forThisApp(bundle: URL?, trust: BundleTrust, screenScale: Int?) async throws(ApplierError) -> SnapshotApplier {
        let made: Result<SnapshotApplier, ApplierError> = await MainActor.run {
            do throws(ApplierError) { return .success(try SnapshotApplier.forThisApp(bundle: bundle, trust: trust, screenScale: screenScale)) } catch {
                return .failure(error)
            }
        }
        return try made.get()
    }

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

    /// The system's task, completed once from whichever thread the update ends on.
    private final class RefreshTask: @unchecked Sendable {
        private let task: BGTask
        init(_ task: BGTask) { self.task = task }
        func complete(success: Bool) { task.setTaskCompleted(success: success) }
    }
    #endif
}
