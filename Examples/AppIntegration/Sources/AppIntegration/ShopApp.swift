#if canImport(SwiftUI) && os(iOS)
import SwiftUI

/// The README's integration in a SwiftUI app: the same call, from the delegate the `App` adopts,
/// since the system wants the refresh task registered before launching ends, which an `App`'s
/// initialiser does not promise. (An app marks its own `App` `@main`; this library cannot.)
struct ShopApp: App {
    @UIApplicationDelegateAdaptor(ShopAppDelegate.self) private var delegate

    var body: some Scene {
        WindowGroup { Text("Shop") }
    }
}
#endif
