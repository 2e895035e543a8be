// With Shell.swift and ApplierRun.swift, an app that links the updater product too: its
// `LaunchScreenUpdater.start`, the README's one-call integration, and, for an app that drives the
// fetcher itself, `BundleFetcher.forThisApp` for the scene's screen, `fetch()` and the bundle it
// installed (`current`) given to the applier. Both are in SplashUpdater; in a checkout from before
// it (the fetcher in SplashApplier, no LaunchScreenUpdater) only the fetcher's calls are made.
// Every call is reachable from `main`, so the linker's dead stripping keeps what such an app pays for.
import SplashApplier
import UIKit

#if canImport(SplashUpdater)
import SplashUpdater
#endif

enum LaunchScreenWork {
    @MainActor static func start(window: UIWindow) {
        let scale = Int(window.screen.scale.rounded()), screen = ScreenSize(screen: window.screen)
        let restore = UserDefaults.standard.bool(forKey: "splashgen.restore")
        guard let base = URL(string: "https://cdn.example.com/launch/season/") else { return }
        #if canImport(SplashUpdater)
        if UserDefaults.standard.bool(forKey: "splashgen.updater") {
            LaunchScreenUpdater.start(.init(season: base, key: ApplierRun.key, refreshTask: "com.example.shop.launch-screen"))
            return
        }
        #endif
        Task {
            do {
                let trust = BundleTrust.pinned(try PinnedKey(ApplierRun.key))
                let fetcher = await MainActor.run { BundleFetcher.forThisApp(base: base, trust: trust, screen: screen) }
                do {
                    let fetched = try await fetcher.fetch()
                    print("splashgen: fetched serial \(fetched.serial ?? 0), \(fetched.objectsDownloaded) objects, new: \(fetched.installedNew)")
                } catch {
                    print("splashgen: \(error)")  // the bundle installed before, if any, stays and applies
                }
                try await ApplierRun.run(bundle: fetcher.current, trust: trust, screenScale: scale, restore: restore)
            } catch {
                print("splashgen: \(error)")
            }
        }
    }
}
