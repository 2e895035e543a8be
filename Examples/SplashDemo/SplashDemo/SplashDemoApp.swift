import SwiftUI

/// The demo app: one window that says what the last splashgen run did. The launch screen is
/// `LaunchScreen.storyboard`, which the OS renders and caches; the app's code only changes that cache,
/// so what it does shows from the next launch on.
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
        }
    }
}
