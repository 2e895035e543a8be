import UIKit

/// The demo's app delegate, in every shape. The update starts once a scene is connected (the
/// screen is read from it): the SwiftUI shapes start it from their root view (``SplashDemoApp``),
/// the app-delegate shape once its window is key and visible (``WindowAppDelegate``, this class
/// with a window of its own). The demo registers no background refresh: a refresh the system starts
/// carries no launch switches, so it would have nothing to run (an app calls
/// `LaunchScreenUpdater.start`, which registers it).
class AppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        // DEBUG builds only, and only when asked: the OS keeps showing its cached launch snapshot
        // until the first frame, so sleeping here, before any splashgen code runs, holds it on screen.
        DemoSwitches(defaults: .standard).holdLaunch()
        return true
    }
}
