import UIKit

/// Wires splashgen in where the README says: the background refresh is registered before
/// `application(_:didFinishLaunchingWithOptions:)` returns, then one update runs off the main thread.
final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        let switches = DemoSwitches(defaults: .standard)
        DemoUpdater.register()
        // DEBUG builds only, and only when asked: the OS keeps showing its cached launch snapshot
        // until the first frame, so sleeping here, before any splashgen code runs, holds it on screen.
        switches.holdLaunch()
        Task { await DemoUpdater.update(switches) }
        return true
    }
}
