// ApplierApp.swift plus the updater product's entry points: `LaunchScreenUpdater.start`, the
// README's one-call integration, and, for an app that drives the fetcher itself,
// `BundleFetcher.forThisApp` for the scene's screen, `fetch()` and the bundle it installed
// (`current`) given to the applier. Both are in SplashUpdater; in a checkout from before it (the
// fetcher in SplashApplier, no LaunchScreenUpdater) only the fetcher's calls are made. Every call
// is reachable from `main`, so the linker's dead stripping keeps what such an app pays for.
import SplashApplier
import UIKit

#if canImport(SplashUpdater)
import SplashUpdater
#endif

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    static func main() {
        UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self))
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = UIViewController()
        window.makeKeyAndVisible()
        self.window = window
        let scale = Int(window.screen.scale.rounded()), screen = ScreenSize(screen: window.screen)
        let restore = UserDefaults.standard.bool(forKey: "splashgen.restore")
        #if canImport(SplashUpdater)
        if UserDefaults.standard.bool(forKey: "splashgen.updater") {
            LaunchScreenUpdater.start(
                .init(
                    season: URL(string: "https://cdn.example.com/launch/season/")!,
                    key: "ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
                    refreshTask: "com.example.shop.launch-screen"))
            return true
        }
        #endif
        Task { await Self.updateLaunchScreen(screen: screen, screenScale: scale, restore: restore) }
        return true
    }

    static func updateLaunchScreen(screen: ScreenSize, screenScale: Int, restore: Bool) async {
        do {
            let trust = BundleTrust.pinned(try PinnedKey("ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="))
            guard let base = URL(string: "https://cdn.example.com/launch/season/") else { return }
            let fetcher = await MainActor.run { BundleFetcher.forThisApp(base: base, trust: trust, screen: screen) }
            do {
                let fetched = try await fetcher.fetch()
                print("splashgen: fetched serial \(fetched.serial ?? 0), \(fetched.objectsDownloaded) objects, new: \(fetched.installedNew)")
            } catch {
                print("splashgen: \(error)")  // the bundle installed before, if any, stays and applies
            }
            let bundle = fetcher.current
            var applier = try await MainActor.run { try SnapshotApplier.forThisApp(bundle: bundle, trust: trust, screenScale: screenScale) }
            applier.outcome = { result in
                if case .success(let report) = result { print("splashgen: this launch showed \(report.heldAtLaunch ?? "different pictures per file")") }
            }
            let report = restore ? try await applier.restore() : try await applier.apply()
            for problem in report.problems { print("splashgen: \(problem.code.rawValue): \(problem)") }
            print("splashgen: next change \(report.nextChange ?? .distantFuture)")
            let status = try await applier.status()
            print("splashgen: \(status.campaign ?? "no campaign"), complete: \(status.complete)")
        } catch {
            print("splashgen: \(error)")
        }
    }
}
