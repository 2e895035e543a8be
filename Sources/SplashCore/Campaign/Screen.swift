import Foundation
import SplashFormat

/// Safe-area insets for both orientations.
package struct SafeAreas: Codable, Equatable, Hashable, Sendable {
    /// Insets in portrait.
    package var portrait: Insets
    /// Insets in landscape.
    package var landscape: Insets

    /// Makes safe areas.
    package init(portrait: Insets = Insets(), landscape: Insets = Insets()) {
        self.portrait = portrait
        self.landscape = landscape
    }

    /// The insets for one orientation.
    package subscript(orientation: Orientation) -> Insets {
        orientation == .portrait ? portrait : landscape
    }
}

/// Edge insets in points.
package struct Insets: Codable, Equatable, Hashable, Sendable {
    /// Top inset.
    package var top: Double = 0
    /// Left inset.
    package var left: Double = 0
    /// Bottom inset.
    package var bottom: Double = 0
    /// Right inset.
    package var right: Double = 0

    /// Makes insets.
    package init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The larger of each edge: art kept clear of both is clear on every device of a screen.
    package func union(_ other: Insets) -> Insets {
        Insets(top: max(top, other.top), left: max(left, other.left), bottom: max(bottom, other.bottom), right: max(right, other.right))
    }
}

/// A screen size shared by one or more devices: the unit splashgen renders.
package struct Screen: Equatable, Sendable {
    /// Size in points, portrait.
    package var points: Manifest.Size
    /// `UIScreen.scale`.
    package var scale: Int
    /// The devices with this screen.
    package var devices: [Device]
    /// A window's landscape size, where it is not the portrait size turned (``Device/landscapePoints``).
    package var landscapePoints: Manifest.Size? = nil
    /// For a window of an iPad's screen (a side-layout window): that screen, in portrait pixels.
    package var windowOf: Manifest.Size? = nil

    /// The family of the first device (a screen size is never shared across families).
    package var family: DeviceFamily { devices[0].family }
    /// Pixels in one snapshot.
    package var pixelCount: Int { points.width * points.height * scale * scale }
    /// Insets that keep art clear on every device of the screen.
    package var safeArea: SafeAreas {
        devices.dropFirst().reduce(devices[0].safeArea) { sum, device in
            SafeAreas(portrait: sum.portrait.union(device.safeArea.portrait), landscape: sum.landscape.union(device.safeArea.landscape))
        }
    }

    /// The screen (or window) in points for an orientation, as the snapshot shows it.
    package func points(_ orientation: Orientation) -> Manifest.Size {
        if orientation == .portrait { return points }
        return landscapePoints ?? Manifest.Size(width: points.height, height: points.width)
    }

    /// The snapshot's pixel size for an orientation.
    package func pixels(_ orientation: Orientation) -> Manifest.Size {
        let size = points(orientation)
        return Manifest.Size(width: size.width * scale, height: size.height * scale)
    }
}
