import Foundation

/// Which of the demo's three shapes made a run (README, "Three shapes"): read from what the build
/// holds, its entry point and its Info.plist, so a run record says which app wrote it.
struct DemoShape: Encodable, Sendable {
    /// The entry point compiled in: `SwiftUI App`, or `UIKit app delegate` (SPLASHDEMO_APPDELEGATE).
    var entryPoint: String
    /// Whether the Info.plist has a `UIApplicationSceneManifest` (the scene life cycle).
    var sceneManifest: Bool
    /// The launch screen the Info.plist names: `storyboard NAME` (`UILaunchStoryboardName`),
    /// `UILaunchScreen`, or `none`.
    var launchScreen: String

    /// The shape of this build.
    static var current: DemoShape {
        let info = Bundle.main.infoDictionary ?? [:]
        #if SPLASHDEMO_APPDELEGATE
        let entryPoint = "UIKit app delegate"
        #else
        let entryPoint = "SwiftUI App"
        #endif
        var launchScreen = "none"
        if let name = info["UILaunchStoryboardName"] as? String {
            launchScreen = "storyboard \(name)"
        } else if info["UILaunchScreen"] != nil {
            launchScreen = "UILaunchScreen"
        }
        return DemoShape(entryPoint: entryPoint, sceneManifest: info["UIApplicationSceneManifest"] != nil, launchScreen: launchScreen)
    }

    /// One line for the window.
    var summary: String {
        "\(entryPoint), \(sceneManifest ? "scene manifest" : "no scene manifest"), launch screen: \(launchScreen)"
    }
}
