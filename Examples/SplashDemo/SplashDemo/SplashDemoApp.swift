#if !SPLASHDEMO_APPDELEGATE
import SwiftUI

/// The demo app of the scene-based shapes, (a) SplashDemo with `LaunchScreen.storyboard` and (b)
/// SplashDemoLaunchScreen with the Info.plist's `UILaunchScreen`: one window that says what the last
/// splashgen run did. The OS renders the launch screen and caches it; the app's code only changes
/// that cache, so what it does shows from the next launch on. Shape (c) compiles without it
/// (SPLASHDEMO_APPDELEGATE): its entry point is ``WindowAppDelegate``.
@main @MainActor
struct SplashDemoApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @ObservedObject private var status = DemoStatus.shared

    var body: some Scene {
        WindowGroup {
            VStack(alignment: .leading, spacing: 12) {
                Text("SplashDemo").font(.largeTitle)
                Text(status.summary).font(.system(.footnote, design: .monospaced))
            }
            .padding()
            // The window's scene is connected by the time its root view appears: LaunchScreenUpdater
            // finds it there, and the run record gets the same scene's screen.
            .task { await MainActor.run { DemoUpdater.start(from: "the root view's task") } }
        }
    }
}
#endif
