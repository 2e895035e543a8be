#if canImport(UIKit) && os(iOS)
import SplashUpdater
import UIKit

/// The README's integration, in an app delegate: one call before launching ends. The Info.plist
/// lists `com.example.shop.launch-screen` in `BGTaskSchedulerPermittedIdentifiers` and has `fetch`
/// in `UIBackgroundModes`.
class ShopAppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        LaunchScreenUpdater.start(
            .init(
                season: URL(string: "https://cdn.example.com/launch/season/")!,
                key: "ed25519-public PASTE-THE-BASE64-OF-KEY.pub",
                refreshTask: "com.example.shop.launch-screen"))
        return true
    }
}
#endif
