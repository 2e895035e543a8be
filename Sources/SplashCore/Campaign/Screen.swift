import Foundation
import SplashFormat

/// Safe-area insets for both orientations.
public struct SafeAreas: Codable, Equatable, Hashable, Sendable {
    /// Insets in portrait.
    public var portrait: Insets
    /// Insets in landscape.
    public var landscape: Insets

    /// Makes safe areas.
    public init(portrait: Insets = Insets(), landscape: Insets = Insets()) {
        self.portrait = portrait
        self.landscape = landscape
    }

    /// The insets for one orientation.
    public subscript(orientation: Orientation) -> Insets {
        orientation == .portrait ? portrait : landscape
    }
}

/// Edge insets in points.
public struct Insets: Codable, Equatable, Hashable, Sendable {
    /// Top inset.
    public var top: Double = 0
    /// Left inset.
    public var left: Double = 0
    /// Bottom inset.
    public var bottom: Double = 0
    /// Right inset.
    public var right: Double = 0

    /// Makes insets.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The larger of each edge: art kept clear of both is clear on every device of a screen.
    public func union(_ other: Insets) -> Insets {
        Insets(top: max(top, other.top), left: max(left, other.left), bottom: max(bottom, other.bottom), right: max(right, other.right))
    }
}

/// A screen size shared by one or more devices: the unit splashgen renders.
public struct Screen: Equatable, Sendable {
    /// Size in points, portrait.
    public var points: Manifest.Size
    /// `UIScreen.scale`.
    public var scale: Int
    /// The devices with this screen.
    public var devices: [Device]

    /// The family of the first device (a screen size is never shared across families).
    public var family: DeviceFamily { devices[0].family }
    /// Pixels in one snapshot.
    public var pixelCount: Int { points.width * points.height * scale * scale }
    /// Insets that keep art clear on every device of the screen.
    public var safeArea: SafeAreas {
        devices.dropFirst().reduce(devices[0].safeArea) { sum, device in
            SafeAreas(portrait: sum.portrait.union(device.safeArea.portrait), landscape: sum.landscape.union(device.safeArea.landscape))
        }
    }

    /// The snapshot's pixel size for an orientation.
    public func pixels(_ orientation: Orientation) -> Manifest.Size {
        let w = points.width * scale, h = points.height * scale
        return orientation == .portrait ? Manifest.Size(width: w, height: h) : Manifest.Size(width: h, height: w)
    }
}
