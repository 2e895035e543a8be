import UIKit

/// Wires splashgen in where the README says, in every shape of the demo: the background refresh is
/// registered before `application(_:didFinishLaunchingWithOptions:)` returns. The update itself
/// starts later, once a scene is connected (LaunchScreenUpdater reads the screen from it): the
/// SwiftUI shapes start it from their root view (``SplashDemoApp``), the app-delegate shape once
/// its window is key and visible (``WindowAppDelegate``, this class with a window of its own).
class AppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        DemoUpdater.register()
        // DEBUG builds only, and only when asked: the OS keeps showing its cached launch snapshot
        // until the first frame, so sleeping here, before any splashgen code runs, holds it on screen.
        DemoSwitches(defaults: .standard).holdLaunch()
        return true
    }
}
