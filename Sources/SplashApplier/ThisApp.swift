import Foundation

#if canImport(UIKit) && os(iOS)
import UIKit
#endif

/// What the applier and the fetcher must know of the app they run in: read from the running app by
/// ``SnapshotApplier/forThisApp(bundle:trust:screenScale:)`` and ``BundleFetcher/forThisApp(base:trust:screen:)`` on
/// iOS, and given whole here so that the same rules are tested on any platform.
package struct AppFacts: Sendable {
    /// `CFBundleShortVersionString`, `CFBundleVersion`, `CFBundleIdentifier`, `UIUserInterfaceStyle`.
    package var version: String?, build: String?, bundleID: String?, interfaceStyle: String?
    /// The first preferred language, the region and the device family (`iphone`, `ipad`).
    package var language: String?, region: String?, deviceFamily: String?
    /// For an app whose launch screen is the Info.plist `UILaunchScreen` dictionary: its background
    /// colour in each appearance, resolved as SplashBoard resolves it (docs/ios-launch-cache.md §10).
    package var launchScreenColors: LaunchScreenColors?
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
        applier.screenScale = scale >= 1 ? Int(scale.rounded()) : nil
        applier.launchScreenColors = launchScreenColors
        (applier.language, applier.region, applier.deviceFamily) = (language, region, deviceFamily)
        return applier
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
    /// A screen's size in pixels as the OS sizes its launch snapshots (what
    /// SplashUpdater's fetcher fetches for): pass the scene's screen,
    /// `windowScene.screen`, never `UIScreen.main`, which iOS 16 deprecates and which is not the
    /// scene's screen.
    @MainActor public init(screen: UIScreen) {
        self.init(points: (Double(screen.bounds.width), Double(screen.bounds.height)), scale: Double(screen.scale))
    }
}

extension AppFacts {
    /// The running app's facts: its Info.plist, its container, the OS version, and the screen of the
    /// scene it runs in as `points` and `scale` (a scale of 0: not known).
    @MainActor package static func current(points: (width: Double, height: Double), scale: Double) -> AppFacts {
        let info = Bundle.main.infoDictionary ?? [:]
        let system = ProcessInfo.processInfo.operatingSystemVersion
        var facts = AppFacts(
            version: info["CFBundleShortVersionString"] as? String, build: info["CFBundleVersion"] as? String,
            bundleID: Bundle.main.bundleIdentifier, interfaceStyle: info["UIUserInterfaceStyle"] as? String,
            container: URL(fileURLWithPath: NSHomeDirectory()),
            osVersion: OSVersion(major: system.majorVersion, minor: system.minorVersion),
            points: points, scale: scale)
        facts.language = Locale.preferredLanguages.first
        if #available(iOS 16, *) { facts.region = Locale.current.region?.identifier } else { facts.region = Locale.current.regionCode }
        switch UIDevice.current.userInterfaceIdiom {
        case .phone: facts.deviceFamily = "iphone"
        case .pad: facts.deviceFamily = "ipad"
        default: facts.deviceFamily = nil
        }
        facts.launchScreenColors = launchScreenColors(info)
        return facts
    }

    /// The background colours of the app's `UILaunchScreen` dictionary (or the default one of its
    /// `UILaunchScreens`), resolved as SplashBoard resolves them (docs/ios-launch-cache.md §10): the
    /// asset catalog's `UIColorName`, else `systemBackground`, in a light and a dark trait
    /// collection; nil when the app has neither key (its launch screen is a storyboard).
    @MainActor static func launchScreenColors(_ info: [String: Any]) -> LaunchScreenColors? {
        var dictionary = info["UILaunchScreen"] as? [String: Any]
        if dictionary == nil, let screens = info["UILaunchScreens"] as? [String: Any] {
            let definitions = screens["UILaunchScreenDefinitions"] as? [[String: Any]] ?? []
            let wanted = screens["UIDefaultLaunchScreen"] as? String
            dictionary = definitions.first { $0["UILaunchScreenIdentifier"] as? String == wanted }
        }
        guard let dictionary else { return nil }
        let color = (dictionary["UIColorName"] as? String).flatMap { UIColor(named: $0) } ?? .systemBackground
        // A colour with no RGB form (a pattern) resolves to nothing: the bundle's description is used.
        func resolved(_ style: UIUserInterfaceStyle) -> RGBAColor? {
            var (r, g, b, a): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
            guard color.resolvedColor(with: UITraitCollection(userInterfaceStyle: style)).getRed(&r, green: &g, blue: &b, alpha: &a) else { return nil }
            func byte(_ value: CGFloat) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
            return RGBAColor(r: byte(r), g: byte(g), b: byte(b))
        }
        guard let light = resolved(.light), let dark = resolved(.dark) else { return nil }
        return LaunchScreenColors(light: light, dark: dark)
    }
}

extension SnapshotApplier {
    /// An applier for this app as it runs, in one call: its container (`NSHomeDirectory()`), its
    /// Info.plist's version, build, bundle identifier and `UIUserInterfaceStyle`, its
    /// `UILaunchScreen` colours resolved for both appearances (``launchScreenColors``), the OS
    /// version, `screenScale` (``screenScale``: the scale of the scene's screen,
    /// `windowScene.screen.scale`; nil when no scene is connected, as in a launch the system makes
    /// in the background), and ``ImageIODecoder``. The explicit initializer stays for tests and
    /// for anything these do not fit. Refuses an Info.plist without a version or a build.
    @MainActor public static func forThisApp(bundle: URL?, trust: BundleTrust, screenScale: Int?) throws(ApplierError) -> SnapshotApplier {
        try AppFacts.current(points: (0, 0), scale: Double(screenScale ?? 0)).applier(bundle: bundle, trust: trust, decoder: ImageIODecoder())
    }
}

#endif
