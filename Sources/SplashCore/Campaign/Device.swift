import Foundation
import SplashFormat

/// One device model: its screen in points × scale, its approximate safe areas, and the shape of
/// its display (rounded corners, notch or Dynamic Island, home indicator) for sign-off previews.
public struct Device: Codable, Equatable, Sendable {
    /// Marketing name, e.g. `iPhone 15`.
    public var name: String
    /// iPhone or iPad.
    public var family: DeviceFamily
    /// Full-screen size in points, portrait.
    public var points: Manifest.Size
    /// `UIScreen.scale`.
    public var scale: Int
    /// Approximate safe-area insets in points, per orientation.
    public var safeArea: SafeAreas
    /// For a Display Zoom entry: the device whose zoomed screen this is (same scale, fewer points).
    public var displayZoomOf: String?
    /// Where the size was published (Display Zoom entries cite theirs).
    public var source: String?
    /// The display's corner radius in points (nil or 0: square corners).
    public var cornerRadius: Double?
    /// The notch or Dynamic Island, in portrait points (nil: none).
    public var cutout: Cutout?
    /// Whether the system draws a home indicator (no Home button).
    public var homeIndicator: Bool?
    /// Where the corner radius and cutout were published.
    public var shapeSource: String?

    /// Makes a device.
    public init(
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
    public var isZoomed: Bool { displayZoomOf != nil }

    /// The part of the display the hardware takes at the top, in portrait points.
    public struct Cutout: Codable, Equatable, Hashable, Sendable {
        /// A notch (iPhone X to 14, 16e) or a Dynamic Island (iPhone 14 Pro and later).
        public var kind: Kind
        /// Left edge, in points from the screen's left.
        public var x: Double
        /// Top edge, in points from the screen's top.
        public var y: Double
        /// Width in points.
        public var width: Double
        /// Height in points.
        public var height: Double

        /// What the cutout is.
        public enum Kind: String, Codable, Sendable {
            case notch, island
        }

        /// Makes a cutout.
        public init(kind: Kind, x: Double, y: Double, width: Double, height: Double) {
            self.kind = kind
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}

/// Device families a campaign can select at once.
public enum DeviceFamily: String, Codable, CaseIterable, Sendable {
    case iphone, ipad
}
