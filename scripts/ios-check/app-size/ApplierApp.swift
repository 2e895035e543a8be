// Baseline.swift plus what an app that links only the applier product (SplashApplier) does with
// it, for a bundle it ships or gets another way: `SnapshotApplier.forThisApp`, an outcome handler,
// `apply()`, and `status()` and `restore()` (an app's kill switch), their reports read. Every call
// is reachable from `main`, so the linker's dead stripping keeps what such an app pays for.
import SplashApplier
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
        let scale = Int(window.screen.scale.rounded()), bundle = Bundle.main.url(forResource: "launch", withExtension: nil)
        let restore = UserDefaults.standard.bool(forKey: "splashgen.restore")
        Task { await Self.updateLaunchScreen(bundle: bundle, screenScale: scale, restore: restore) }
        return true
    }

    static func updateLaunchScreen(bundle: URL?, screenScale: Int, restore: Bool) async {
        do {
            let trust = BundleTrust.pinned(try PinnedKey("ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="))
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
