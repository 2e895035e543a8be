import Foundation
import SplashFormat

/// What a designer needs to see over a snapshot to sign off its layout: the screen's rounded
/// corners, the notch or Dynamic Island, the home indicator, and the parts outside the safe area
/// (tinted). Built from the catalogue entries of the devices a snapshot serves; drawn in points
/// scaled to wherever the snapshot is shown, so the same overlay serves a tile and a full-size view.
package struct SignOffOverlay: Sendable {
    /// The screen in points, in the snapshot's orientation.
    package var size: (width: Double, height: Double)
    /// The union of the devices' safe-area insets, in points.
    package var safeArea: Insets
    /// The largest corner radius among the devices, in points.
    package var cornerRadius: Double
    /// Each distinct notch or island, in points, in the snapshot's orientation.
    package var cutouts: [Rect]
    /// The home indicator, when any device has one.
    package var homeIndicator: Rect?

    /// Outside the safe area: a translucent magenta no art should need.
    package static let unsafeTint = RGBAColor(r: 0xE0, g: 0x1E, b: 0x8C, a: 70)
    static let cutoutColor = RGBAColor(r: 0, g: 0, b: 0)
    /// The home indicator as iOS draws it: dark on a light screen, light on a dark one.
    package static let indicatorOnLight = RGBAColor(r: 0, g: 0, b: 0, a: 160), indicatorOnDark = RGBAColor(r: 255, g: 255, b: 255, a: 200)
    /// The home indicator's approximate size and distance from the bottom edge, in points.
    static let indicatorSize = (iphone: 134.0, ipad: 315.0, thickness: 5.0, bottom: 8.0)
    /// One line for a legend under a sheet or on a page.
    package static let legend =
        "overlays: magenta = outside the safe area; black = notch or Dynamic Island; bar = home indicator; corners cut as the screen rounds them; landscape shows the phone turned with its top to the left"

    /// A rectangle in points.
    package struct Rect: Equatable, Hashable, Sendable {
        package var x: Double, y: Double, width: Double, height: Double
        /// The corner radius its shape is drawn with.
        package var radius: Double
    }

    /// The overlay for a snapshot, from the catalogue entries of the devices it serves; nil when
    /// none of them is in the catalogue (a campaign's own device, for example).
    package init?(_ snapshot: Manifest.Snapshot, catalogue: DeviceCatalogue) {
        let devices = snapshot.devices.compactMap { catalogue.device(named: $0) }
        guard let first = devices.first else { return nil }
        let portrait = (width: Double(snapshot.points.width), height: Double(snapshot.points.height))
        let landscape = snapshot.orientation == .landscape
        // As the snapshot shows it: a side-layout window is 375x1032 in landscape, not turned.
        size = (Double(snapshot.orientedPoints.width), Double(snapshot.orientedPoints.height))
        safeArea = devices.dropFirst().reduce(first.safeArea[snapshot.orientation]) { $0.union($1.safeArea[snapshot.orientation]) }
        cornerRadius = devices.map { $0.cornerRadius ?? 0 }.max() ?? 0
        // In landscape the top of the phone is on the left (turned counter-clockwise).
        func oriented(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double) -> Rect {
            landscape
                ? Rect(x: y, y: portrait.width - x - width, width: height, height: width, radius: radius)
                : Rect(x: x, y: y, width: width, height: height, radius: radius)
        }
        var cutouts: [Rect] = []
        for cutout in devices.compactMap(\.cutout) {
            // An island is a capsule; a notch, approximately, a rectangle with rounded corners.
            let radius = cutout.kind == .island ? cutout.height / 2 : cutout.height / 3
            let rect = oriented(cutout.x, cutout.y, cutout.width, cutout.height, radius: radius)
            if !cutouts.contains(rect) { cutouts.append(rect) }
        }
        self.cutouts = cutouts
        if devices.contains(where: { $0.homeIndicator == true }) {
            let metrics = Self.indicatorSize
            let length = first.family == .ipad ? metrics.ipad : metrics.iphone
            homeIndicator = Rect(
                x: (size.width - length) / 2, y: size.height - metrics.bottom - metrics.thickness,
                width: length, height: metrics.thickness, radius: metrics.thickness / 2)
        } else {
            homeIndicator = nil
        }
    }

    /// Draws the overlay onto the part of `image` where the snapshot is shown. `outside` fills
    /// the corners the screen rounds off (the colour around the tile).
    package func draw(on image: inout RGBAImage, x left: Int, y top: Int, width: Int, height: Int, appearance: Appearance, outside: RGBAColor) {
        let k = Double(width) / size.width
        let safe = Rect(
            x: safeArea.left, y: safeArea.top, width: size.width - safeArea.left - safeArea.right,
            height: size.height - safeArea.top - safeArea.bottom, radius: 0)
        func paint(_ color: RGBAColor, over area: Rect, where inside: (Double, Double) -> Bool) {
            let x0 = max(0, Int((area.x * k).rounded(.down))), x1 = min(width, Int(((area.x + area.width) * k).rounded(.up)))
            let y0 = max(0, Int((area.y * k).rounded(.down))), y1 = min(height, Int(((area.y + area.height) * k).rounded(.up)))
            guard x1 > x0, y1 > y0 else { return }
            for py in y0..<y1 {
                for px in x0..<x1 {
                    // Coverage from 4 × 4 samples, so edges are smooth at any scale.
                    var hits = 0
                    for sy in 0..<4 {
                        for sx in 0..<4 where inside((Double(px) + (Double(sx) + 0.5) / 4) / k, (Double(py) + (Double(sy) + 0.5) / 4) / k) { hits += 1 }
                    }
                    guard hits > 0 else { continue }
                    SnapshotRenderer.blendPixel(color, alpha: UInt32(color.a) * UInt32(hits) / 16, into: &image, x: left + px, y: top + py)
                }
            }
        }
        // The unsafe bands, each pixel tinted once.
        let bands = [
            Rect(x: 0, y: 0, width: size.width, height: safeArea.top, radius: 0),
            Rect(x: 0, y: size.height - safeArea.bottom, width: size.width, height: safeArea.bottom, radius: 0),
            Rect(x: 0, y: safeArea.top, width: safeArea.left, height: safe.height, radius: 0),
            Rect(x: size.width - safeArea.right, y: safeArea.top, width: safeArea.right, height: safe.height, radius: 0),
        ]
        for band in bands where band.width > 0 && band.height > 0 {
            paint(Self.unsafeTint, over: band) { band.contains($0, $1) && !safe.contains($0, $1) }
        }
        for cutout in cutouts { paint(Self.cutoutColor, over: cutout) { cutout.contains($0, $1) } }
        if let bar = homeIndicator {
            paint(appearance == .dark ? Self.indicatorOnDark : Self.indicatorOnLight, over: bar) { bar.contains($0, $1) }
        }
        if cornerRadius > 0 {
            let screen = Rect(x: 0, y: 0, width: size.width, height: size.height, radius: cornerRadius)
            let r = cornerRadius
            for corner in [(0.0, 0.0), (size.width - r, 0), (0, size.height - r), (size.width - r, size.height - r)] {
                paint(outside, over: Rect(x: corner.0, y: corner.1, width: r, height: r, radius: 0)) { !screen.contains($0, $1) }
            }
        }
    }
}

extension SignOffOverlay.Rect {
    /// Whether a point lies inside the rounded rectangle.
    func contains(_ px: Double, _ py: Double) -> Bool {
        guard px >= x, px < x + width, py >= y, py < y + height else { return false }
        let r = min(radius, width / 2, height / 2)
        guard r > 0 else { return true }
        // Distance from the nearest corner circle's centre, when the point is in a corner box.
        let cx = min(max(px, x + r), x + width - r), cy = min(max(py, y + r), y + height - r)
        return (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r
    }
}
