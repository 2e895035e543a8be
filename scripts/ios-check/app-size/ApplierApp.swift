// With Shell.swift and ApplierRun.swift, an app that links only the applier product, for a bundle
// it ships or gets another way. Every call is reachable from `main`, so the linker's dead
// stripping keeps what such an app pays for.
import SplashApplier
import UIKit

enum LaunchScreenWork {
    @MainActor static func start(window: UIWindow) {
        let scale = Int(window.screen.scale.rounded()), bundle = Bundle.main.url(forResource: "launch", withExtension: nil)
        let restore = UserDefaults.standard.bool(forKey: "splashgen.restore")
        Task {
            do { try await ApplierRun.run(bundle: bundle, trust: .pinned(try PinnedKey(ApplierRun.key)), screenScale: scale, restore: restore) } catch {
                print("splashgen: \(error)")
            }
        }
    }
}
