import Foundation
import SplashApplier
import SplashFormat

extension AppFacts {
    /// Where the fetcher keeps what it downloads: `Library/Application Support/splashgen/downloads`,
    /// outside Caches (which the OS may purge) and beside the applier's own records.
    package var downloads: URL { container.appendingPath(ApplierPaths.support + "/downloads") }

    /// A fetcher of the season published at `base`, for this screen and the appearances the app's
    /// cache holds.
    package func fetcher(base: URL, trust: BundleTrust) -> BundleFetcher {
        var fetcher = BundleFetcher(base: base, folder: downloads, screen: screen, trust: trust, bundleID: bundleID)
        fetcher.appearances = InterfaceStyle(infoPlistValue: interfaceStyle).appearances
        return fetcher
    }
}

#if canImport(UIKit) && os(iOS)
extension BundleFetcher {
    /// A fetcher for this app as it runs, in one call: the season at `base`, `screen` (the scene's
    /// screen in pixels as the OS sizes launch snapshots, ``ScreenSize/init(screen:)`` of
    /// `windowScene.screen`; an app remembers it for a launch the system makes in the background,
    /// which may have no scene), the appearances its `UIUserInterfaceStyle` allows, its bundle
    /// identifier, and a downloads folder of its own in `Library/Application Support/splashgen/downloads`.
    @MainActor public static func forThisApp(base: URL, trust: BundleTrust, screen: ScreenSize) -> BundleFetcher {
        AppFacts.current(points: (Double(screen.width), Double(screen.height)), scale: 1).fetcher(base: base, trust: trust)
    }
}
#endif
