import UIKit

/// Shape (c)'s app delegate: the UIKit life cycle without scenes, as apps made before iOS 13 are
/// (no `UIApplicationSceneManifest` in Info/AppDelegateStoryboard.plist). It launches as
/// ``AppDelegate`` does, then makes a window of its own. The target SplashDemoAppDelegate compiles
/// with SPLASHDEMO_APPDELEGATE, which makes this the entry point and leaves ``SplashDemoApp`` out;
/// the other targets compile it too, unused, so one type-check covers it.
final class WindowAppDelegate: AppDelegate {
    /// The app's one window. `@objc` here and below: the protocol's conformance is declared by
    /// ``AppDelegate``, so UIKit finds a subclass's members only when Objective-C sees them.
    @objc var window: UIWindow?

    override func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        _ = super.application(application, didFinishLaunchingWithOptions: launchOptions)
        // No frame from `UIScreen.main`: a window made with `init()` covers the main screen, and
        // once it is in a scene it is given that scene's bounds below.
        let window = UIWindow()
        window.rootViewController = DemoStatusViewController()
        window.makeKeyAndVisible()
        self.window = window
        // iOS gives an app without a scene manifest a window scene of its own. The run record's
        // `startedBy` tells whether the window had it already here or only once the app was active.
        if let scene = window.windowScene {
            window.frame = scene.coordinateSpace.bounds
            DemoUpdater.start(from: "the window made key and visible (its scene's screen)")
        }
        return true
    }

    @objc func applicationDidBecomeActive(_ application: UIApplication) {
        DemoUpdater.start(from: "applicationDidBecomeActive")
    }
}

#if SPLASHDEMO_APPDELEGATE
@main
extension WindowAppDelegate {}
#endif
