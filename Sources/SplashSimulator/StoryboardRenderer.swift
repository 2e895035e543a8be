import Foundation
import SplashFormat

/// The OS's render of `LaunchScreen.storyboard`, modelled the way UIKit draws it and deliberately
/// apart from splashgen's own generator (`SnapshotPlanner` + `SnapshotRenderer`), so that a test
/// never passes because the simulator drew what the generator draws:
/// - frames are laid out in points (fractional values allowed) and rasterised at `scale`;
/// - image views scale their image in sRGB-encoded values (as Core Graphics does), not in linear
///   light, and are composited straight-alpha "source over" on the encoded values;
/// - in landscape, safe-area constraints get the portrait top inset (a known UIKit bug, docs/ios-launch-cache.md §6);
/// - a `UILaunchScreen` dictionary is drawn by the same code, as SplashBoard draws both
///   (docs/ios-launch-cache.md §10): its background, and its image centred at its natural size in
///   the window or its safe area, and no marker;
/// - the marker is a 0.5×0.5 pt view pinned to the superview's bottom-right corner: it covers
///   1.5 px at @3x and 1 px at @2x, and each pixel takes the share of the view that covers it,
///   blended with what lies under it (docs/ios-launch-cache.md §6);
/// - the black-render bug paints every image view's frame solid black.
struct StoryboardRenderer {
    /// The storyboard's scenes and marker colours.
    let storyboard: Storyboard
    /// Decoded art, by the path the storyboard names.
    let art: [String: RGBAImage]
    /// The marker view's side in points.
    static let markerPoints = 0.5

    /// One variant at the screen's size in pixels (points × `scale`, swapped for landscape).
    func render(on screen: PhoneScreen, scale pixelsPerPoint: Int, _ variant: SpringBoardModel.Variant, blackImages: Bool) -> RGBAImage {
        let scale = Double(pixelsPerPoint)
        let (width, height) = screen.size(variant.orientation, window: variant.window)
        let scene = storyboard.scenes[variant.appearance] ?? storyboard.scenes[.light]
        var canvas = RGBAImage(width: width * pixelsPerPoint, height: height * pixelsPerPoint, fill: scene?.background ?? RGBAColor(r: 255, g: 255, b: 255))
        var safe = screen.safeArea(variant.orientation)
        if variant.orientation == .landscape { safe.top = screen.safeArea(.portrait).top }
        for view in scene?.imageViews ?? [] where view.only == nil || view.only == variant.orientation {
            guard let image = art[view.image] else { continue }
            let inset = view.safeArea ? safe : (top: 0, left: 0, bottom: 0, right: 0)
            let region = Rect(
                x: inset.left + view.margin, y: inset.top + view.margin,
                width: Double(width) - inset.left - inset.right - 2 * view.margin,
                height: Double(height) - inset.top - inset.bottom - 2 * view.margin)
            guard region.width > 0, region.height > 0, let frame = imageFrame(view, image: image, in: region) else { continue }
            let pixels = Rect(x: frame.x * scale, y: frame.y * scale, width: frame.width * scale, height: frame.height * scale)
            if blackImages {
                fill(RGBAColor(r: 0, g: 0, b: 0), rect: pixels, on: &canvas)
            } else {
                draw(image, rect: pixels, on: &canvas)
            }
        }
        // A UILaunchScreen app has no marker view.
        if let colour = storyboard.marker[variant.appearance] {
            let side = Self.markerPoints * scale
            fill(colour, rect: Rect(x: Double(canvas.width) - side, y: Double(canvas.height) - side, width: side, height: side), on: &canvas)
        }
        return canvas
    }

    /// A rectangle in points or pixels.
    struct Rect {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// The image view's frame in points: aspect fill or fit of the region, or a fixed size, placed by
    /// the anchor (Auto Layout constraints to the region's edges and centre).
    private func imageFrame(_ view: Storyboard.ImageView, image: RGBAImage, in region: Rect) -> Rect? {
        let aspect = Double(image.width) / Double(image.height)
        var width: Double, height: Double
        switch view.contentMode {
        case .aspectFill:
            width = max(region.width, region.height * aspect)
            height = width / aspect
        case .aspectFit:
            width = min(region.width, region.height * aspect)
            height = width / aspect
        case .sized:
            switch (view.width, view.height) {
            case let (w?, h?): width = min(w, h * aspect)
            case let (w?, nil): width = w
            case let (nil, h?): width = h * aspect
            case (nil, nil): return nil
            }
            height = width / aspect
        }
        let anchor = view.anchor
        return Rect(
            x: region.x + (region.width - width) * anchor.x, y: region.y + (region.height - height) * anchor.y,
            width: width, height: height)
    }

    /// Draws `image` scaled to `rect` (snapped to whole pixels, as Core Animation places image
    /// layers), clipped to the canvas.
    private func draw(_ image: RGBAImage, rect: Rect, on canvas: inout RGBAImage) {
        let x0 = Int(rect.x.rounded()), y0 = Int(rect.y.rounded())
        let w = max(1, Int((rect.x + rect.width).rounded()) - x0), h = max(1, Int((rect.y + rect.height).rounded()) - y0)
        let left = max(0, x0), top = max(0, y0), right = min(canvas.width, x0 + w), bottom = min(canvas.height, y0 + h)
        guard right > left, bottom > top else { return }
        let scaled = OSCodecs.scaled(image, width: w, height: h, visible: (left - x0, top - y0, right - left, bottom - top)).pixels
        let rowWidth = right - left, canvasWidth = canvas.width
        canvas.pixels.withUnsafeMutableBufferPointer { dst in
            scaled.withUnsafeBufferPointer { src in
                for y in top..<bottom {
                    var s = (y - top) * rowWidth * 4
                    var d = (y * canvasWidth + left) * 4
                    for _ in 0..<rowWidth {
                        let alpha = UInt32(src[s + 3])
                        for c in 0..<3 {
                            dst[d + c] = UInt8((UInt32(src[s + c]) * alpha + UInt32(dst[d + c]) * (255 - alpha) + 127) / 255)
                        }
                        s += 4
                        d += 4
                    }
                }
            }
        }
    }

    /// Fills `rect` (fractional edges allowed) with `colour`; an edge pixel gets the share of it
    /// the rectangle covers.
    private func fill(_ colour: RGBAColor, rect: Rect, on canvas: inout RGBAImage) {
        let left = max(0, Int(rect.x.rounded(.down))), top = max(0, Int(rect.y.rounded(.down)))
        let right = min(canvas.width, Int((rect.x + rect.width).rounded(.up))), bottom = min(canvas.height, Int((rect.y + rect.height).rounded(.up)))
        guard right > left, bottom > top else { return }
        for y in top..<bottom {
            let cy = min(Double(y + 1), rect.y + rect.height) - max(Double(y), rect.y)
            for x in left..<right {
                let cx = min(Double(x + 1), rect.x + rect.width) - max(Double(x), rect.x)
                blend(colour, coverage: max(0, cx) * max(0, cy), x: x, y: y, on: &canvas)
            }
        }
    }

    /// `colour` over the canvas pixel with the given coverage, on the sRGB-encoded values.
    private func blend(_ colour: RGBAColor, coverage: Double, x: Int, y: Int, on canvas: inout RGBAImage) {
        guard coverage > 0 else { return }
        let i = (y * canvas.width + x) * 4
        let c = min(1, coverage)
        func mix(_ value: UInt8, _ under: UInt8) -> UInt8 { UInt8((Double(value) * c + Double(under) * (1 - c)).rounded()) }
        canvas.pixels[i] = mix(colour.r, canvas.pixels[i])
        canvas.pixels[i + 1] = mix(colour.g, canvas.pixels[i + 1])
        canvas.pixels[i + 2] = mix(colour.b, canvas.pixels[i + 2])
    }
}
