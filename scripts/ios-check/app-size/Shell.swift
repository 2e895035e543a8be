// The app every size measurement links: a UIKit app delegate with a window, which hands the window
// to `LaunchScreenWork.start`. `ios-check.sh --size` compiles it with one of Baseline.swift (no
// splashgen), ApplierApp.swift or UpdaterApp.swift (the calls an app makes), so the three apps
// differ in those calls only.
import UIKit

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
        LaunchScreenWork.start(window: window)
        return true
    }
}
