import Foundation

#if canImport(UIKit) && os(iOS)
import UIKit
#endif

/// What the applier and the fetcher must know of the app they run in: read from the running app by
/// ``SnapshotApplier/forThisApp(bundle:trust:)`` and ``BundleFetcher/forThisApp(base:trust:)`` on
/// iOS, and given whole here so that the same rules are tested on any platform.
package struct AppFacts: Sendable {
    /// `CFBundleShortVersionString`, `CFBundleVersion`, `CFBundleIdentifier`, `UIUserInterfaceStyle`.
    package var version: String?, build: String?, bundleID: String?, interfaceStyle: String?
    /// The first preferred language, the region and the device family (`iphone`, `ipad`).
    package var language: String?, region: String?, deviceFamily: String?
    /// The data container (`NSHomeDirectory()`).
    package var container: URL
    /// The running OS's version.
    package var osVersion: OSVersion
    /// The screen's bounds in points (either way round) and its scale.
    package var points: (width: Double, height: Double)
    package var scale: Double

    /// Makes the facts (on iOS, ``current()`` reads them).
    package init(
        version: String?, build: String?, bundleID: String?, interfaceStyle: String?, container: URL, osVersion: OSVersion,
        points: (width: Double, height: Double), scale: Double
    ) {
        (self.version, self.build, self.bundleID, self.interfaceStyle) = (version, build, bundleID, interfaceStyle)
        (self.container, self.osVersion, self.points, self.scale) = (container, osVersion, points, scale)
    }

    /// The screen's size in pixels as the OS sizes launch snapshots (``ScreenSize/init(points:scale:)``).
    package var screen: ScreenSize { ScreenSize(points: points, scale: scale) }

    /// Where the fetcher keeps what it downloads: `Library/Application Support/splashgen/downloads`,
    /// outside Caches (which the OS may purge) and beside the applier's own records.
    package var downloads: URL { container.appendingPath(ApplierPaths.support + "/downloads") }

    /// An applier for `bundle` that reads cached files with `decoder`; an Info.plist without a
    /// version or a build is refused by name, since the launch cache is kept per version and build.
    package func applier(bundle: URL?, trust: BundleTrust, decoder: any SnapshotPixelDecoder) throws(ApplierError) -> SnapshotApplier {
        guard let version, !version.isEmpty else { throw .badParameter("CFBundleShortVersionString", "the app's Info.plist has none") }
        guard let build, !build.isEmpty else { throw .badParameter("CFBundleVersion", "the app's Info.plist has none") }
        var applier = SnapshotApplier(
            container: container, bundle: bundle, appVersion: version, appBuild: build, osVersion: osVersion,
            decoder: decoder, trust: trust)
        applier.interfaceStyle = InterfaceStyle(infoPlistValue: interfaceStyle)
        applier.appBundleID = bundleID
        applier.screenScale = Int(scale.rounded())
        (applier.language, applier.region, applier.deviceFamily) = (language, region, deviceFamily)
        return applier
    }

    /// A fetcher of the season published at `base`, for this screen and the appearances the app's
    /// cache holds.
    package func fetcher(base: URL, trust: BundleTrust) -> BundleFetcher {
        var fetcher = BundleFetcher(base: base, folder: downloads, screen: screen, trust: trust, bundleID: bundleID)
        fetcher.appearances = InterfaceStyle(infoPlistValue: interfaceStyle).appearances
        return fetcher
    }
}

extension ScreenSize {
    /// A screen's size in pixels as the OS sizes launch snapshots: bounds in points × scale, so with
    /// Display Zoom the zoomed screen, portrait way round. Not `nativeBounds`, the panel's pixels,
    /// which differ on the Plus models (1080×1920 against 1242×2208 rendered) and do not follow
    /// Display Zoom.
    package init(points: (width: Double, height: Double), scale: Double) {
        self = ScreenSize(width: Int((points.width * scale).rounded()), height: Int((points.height * scale).rounded())).portrait
    }
}

#if canImport(UIKit) && os(iOS)
extension ScreenSize {
    /// The main screen's size in pixels as the OS sizes its launch snapshots (what
    /// ``BundleFetcher/forThisApp(base:trust:)`` fetches for).
    @MainActor public static var mainScreen: ScreenSize {
        ScreenSize(points: (Double(UIScreen.main.bounds.width), Double(UIScreen.main.bounds.height)), scale: Double(UIScreen.main.scale))
    }
}

extension AppFacts {
    /// The running app's facts: its Info.plist, its container, the OS version and the main screen.
    @MainActor package static func current() -> AppFacts {
        let info = Bundle.main.infoDictionary ?? [:]
        let system = ProcessInfo.processInfo.operatingSystemVersion
        let screen = UIScreen.main
        var facts = AppFacts(
            version: info["CFBundleShortVersionString"] as? String, build: info["CFBundleVersion"] as? String,
            bundleID: Bundle.main.bundleIdentifier, interfaceStyle: info["UIUserInterfaceStyle"] as? String,
            container: URL(fileURLWithPath: NSHomeDirectory()),
            osVersion: OSVersion(major: system.majorVersion, minor: system.minorVersion),
            points: (Double(screen.bounds.width), Double(screen.bounds.height)), scale: Double(screen.scale))
        facts.language = Locale.preferredLanguages.first
        if #available(iOS 16, *) { facts.region = Locale.current.region?.identifier } else { facts.region = Locale.current.regionCode }
        switch UIDevice.current.userInterfaceIdiom {
        case .phone: facts.deviceFamily = "iphone"
        case .pad: facts.deviceFamily = "ipad"
        default: facts.deviceFamily = nil
        }
        return facts
    }
}

extension SnapshotApplier {
    /// An applier for this app as it runs, in one call: its container (`NSHomeDirectory()`), its
    /// Info.plist's version, build, bundle identifier and `UIUserInterfaceStyle`, the OS version,
    /// the main screen's scale, and ``ImageIODecoder``. The explicit initializer stays for tests and
    /// for anything these do not fit. Refuses an Info.plist without a version or a build.
    @MainActor public static func forThisApp(bundle: URL?, trust: BundleTrust) throws(ApplierError) -> SnapshotApplier {
        try AppFacts.current().applier(bundle: bundle, trust: trust, decoder: ImageIODecoder())
    }
}

extension BundleFetcher {
    /// A fetcher for this app as it runs, in one call: the season at `base`, the main screen's size
    /// in pixels (bounds × scale, as the OS sizes launch snapshots), the appearances its
    /// `UIUserInterfaceStyle` allows, its bundle identifier, and a downloads folder of its own in
    /// `Library/Application Support/splashgen/downloads`.
    @MainActor public static func forThisApp(base: URL, trust: BundleTrust) -> BundleFetcher {
        AppFacts.current().fetcher(base: base, trust: trust)
    }
}
#endif
