import Foundation
import SplashFormat

/// One device model: its screen in points × scale, its approximate safe areas, and the shape of
/// its display (rounded corners, notch or Dynamic Island, home indicator) for sign-off previews.
package struct Device: Codable, Equatable, Sendable {
    /// Marketing name, e.g. `iPhone 15`.
    package var name: String
    /// iPhone or iPad.
    package var family: DeviceFamily
    /// Full-screen size in points, portrait.
    package var points: Manifest.Size
    /// `UIScreen.scale`.
    package var scale: Int
    /// Approximate safe-area insets in points, per orientation.
    package var safeArea: SafeAreas
    /// For a Display Zoom entry: the device whose zoomed screen this is (same scale, fewer points).
    package var displayZoomOf: String?
    /// Where the size was published (Display Zoom entries cite theirs).
    package var source: String?
    /// The display's corner radius in points (nil or 0: square corners).
    package var cornerRadius: Double?
    /// The notch or Dynamic Island, in portrait points (nil: none).
    package var cutout: Cutout?
    /// Whether the system draws a home indicator (no Home button).
    package var homeIndicator: Bool?
    /// Where the corner radius and cutout were published.
    package var shapeSource: String?
    /// For a window an iPad caches beside its full screen (a side-layout window,
    /// docs/ios-launch-cache.md §1): the iPad and its screen in portrait pixels. Such an entry comes
    /// with its iPad unless the app requires full screen.
    package var windowOf: WindowOf?
    /// The window in landscape, as it is, where that is not the portrait size turned (a side-layout
    /// window: 375×1032 pt in landscape, 375×1376 in portrait).
    package var landscapePoints: Manifest.Size?
    /// An iPhone app's screen on an iPad (`SBPhoneOnPadFallbackLaunchSize`, §1): built only for an
    /// iPhone-only app (`app.iphone_only`), and then with the iPhones.
    package var iphoneAppOnIpad: Bool?
    /// How sure the sizes are, where a source gives them only in part (`inferred`, `community`);
    /// nil: a source gives them.
    package var confidence: String?

    /// The iPad a window is on, and that iPad's screen in portrait pixels.
    package struct WindowOf: Codable, Equatable, Hashable, Sendable {
        /// The iPad's catalogue name.
        package var device: String
        /// Its screen, portrait pixels.
        package var pixels: Manifest.Size
    }

    /// Makes a device.
    package init(
        name: String, family: DeviceFamily, points: Manifest.Size, scale: Int, safeArea: SafeAreas,
        displayZoomOf: String? = nil, source: String? = nil,
        cornerRadius: Double? = nil, cutout: Cutout? = nil, homeIndicator: Bool? = nil
    ) {
        self.name = name
        self.family = family
        self.points = points
        self.scale = scale
        self.safeArea = safeArea
        self.displayZoomOf = displayZoomOf
        self.source = source
        self.cornerRadius = cornerRadius
        self.cutout = cutout
        self.homeIndicator = homeIndicator
    }

    /// Whether this is a Display Zoom screen of another device.
    package var isZoomed: Bool { displayZoomOf != nil }
    /// Whether this is a window an iPad caches, not a device's screen: a side-layout window, or an
    /// iPhone app's screen on an iPad.
    package var isWindow: Bool { windowOf != nil || iphoneAppOnIpad == true }

    /// The part of the display the hardware takes at the top, in portrait points.
    package struct Cutout: Codable, Equatable, Hashable, Sendable {
        /// A notch (iPhone X to 14, 16e) or a Dynamic Island (iPhone 14 Pro and later).
        package var kind: Kind
        /// Left edge, in points from the screen's left.
        package var x: Double
        /// Top edge, in points from the screen's top.
        package var y: Double
        /// Width in points.
        package var width: Double
        /// Height in points.
        package var height: Double

        /// What the cutout is.
        package enum Kind: String, Codable, Sendable {
            case notch, island
        }

        /// Makes a cutout.
        package init(kind: Kind, x: Double, y: Double, width: Double, height: Double) {
            self.kind = kind
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}

/// Device families a campaign can select at once.
package enum DeviceFamily: String, Codable, CaseIterable, Sendable {
    case iphone, ipad
}
