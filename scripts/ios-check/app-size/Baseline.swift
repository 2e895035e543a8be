// With Shell.swift, the app that links none of splashgen: `ios-check.sh --size` subtracts its
// segments from those of the apps that do.
import UIKit

enum LaunchScreenWork {
    @MainActor static func start(window: UIWindow) {}
}
