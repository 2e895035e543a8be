import UIKit

/// The scene whose screen the demo records: found the way LaunchScreenUpdater finds the screen it
/// gives the applier, so the run record names the same one. Never `UIScreen.main`, which names no
/// scene's screen (and is deprecated since iOS 16).
@MainActor
enum DemoScene {
    /// The foreground-active window scene's screen, else any connected window scene's; nil when no
    /// window scene is connected (a launch in the background, before any scene).
    static var screen: UIScreen? {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        return (scenes.first { $0.activationState == .foregroundActive } ?? scenes.first)?.screen
    }
}
