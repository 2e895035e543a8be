import Foundation
import SplashFormat

/// Tells the OS's black render of a launch screen (docs/ios-launch-cache.md §6: every image view of
/// the storyboard rendered solid black, sometimes white) from a good one, by the app's own screen as
/// the bundle draws it (the campaign marked `own_screen` for this app version) and where its image
/// views are (`Manifest.Snapshot.imageViews`). A render is told black only on evidence that leaves
/// no good render standing:
/// - outside the image views (and the marker's corner) it matches the reference, so it is a render
///   of the storyboard the reference draws, not of another design, another colour, or another
///   layout;
/// - every image view where the reference draws content is filled solid black (or white), judged
///   over that view's own area, however small the view;
/// - at least one of those views stands out from what surrounds it, so the fill is not a design
///   without that view on a background of the same colour.
///
/// Anything short of that is undecided, with the reason: the original is kept, and comes back.
package enum BlackRender {
    /// What a render is, told against the app's own screen.
    package enum Verdict: Equatable, Sendable {
        /// A good render: it matches the reference outside the image views, and no view is filled.
        case good
        /// Every image view with content is filled solid black.
        case black
        /// Every image view with content is filled solid white.
        case white
        /// Not enough evidence either way; the reason says what was missing.
        case undecided(String)
    }

    /// Pixels around each frame left out of every comparison: anti-aliasing, the half-pixel rounding
    /// of a frame placed in points, and ASTC's 4×4 blocks, which smear an edge across its block.
    static let margin = 6
    /// The band beyond that margin whose colour the fill must stand out from.
    static let ring = 8
    /// A channel within this many levels matches (a designer's hex against Interface Builder's
    /// colour space drifts by a level; ASTC's error on smooth art is a few).
    static let tolerance = 12
    /// The share of the pixels outside the image views that must match.
    static let outsideShare = 0.995
    /// The least share of the picture that lies outside the image views: with less, nothing shows
    /// that the render is of the reference's storyboard at all.
    static let leastOutside = 0.01
    /// The share of a view's inner area, and of the reference's content there, that must be solid
    /// fill.
    static let filledShare = 0.98
    /// The least share of a view's inner area the reference must draw content in (clearly not the
    /// fill), for the view to count as evidence: a view the reference draws nearly all in the fill's
    /// colour would look filled in a good render too.
    static let leastContentShare = 0.1
    /// The fewest pixels of a view's inner area where the reference draws content, for the view to
    /// count as evidence.
    static let leastContent = 16
    /// The bottom-right corner left out: the marker view, blended and smeared by ASTC (§6).
    static let corner = 12

    /// A solid fill of the bug: black (every channel at most 8) or white (every channel at least 247).
    private enum Fill: CaseIterable {
        case black, white
        func holds(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { self == .black ? max(r, g, b) <= 8 : min(r, g, b) >= 247 }
        /// Clearly not the fill: some channel beyond it by more than ``tolerance``.
        func differs(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool {
            self == .black ? max(r, g, b) > 8 + UInt8(tolerance) : min(r, g, b) < 247 - UInt8(tolerance)
        }
    }

    /// The verdict on `original` against `reference`, the app's own screen of the same size and
    /// appearance, whose image views are at `imageViews` (pixels).
    package static func verdict(of original: RGBAImage, reference: RGBAImage, imageViews: [Manifest.Frame]) -> Verdict {
        guard original.width == reference.width, original.height == reference.height, reference.width > 0, reference.height > 0,
            original.pixels.count == reference.width * reference.height * 4, reference.pixels.count == original.pixels.count
        else {
            return .undecided("the app's own screen is \(reference.width)x\(reference.height) pixels, the render \(original.width)x\(original.height)")
        }
        let (width, height) = (reference.width, reference.height)
        let frames = imageViews.compactMap { clip($0, width: width, height: height) }
        // 0: outside; 1: within `margin` of a frame; 2: the marker's corner.
        var zone = [UInt8](repeating: 0, count: width * height)
        for frame in frames { mark(&zone, grow(frame, by: margin, width: width, height: height), width: width, as: 1) }
        mark(&zone, Box(x0: max(0, width - corner), y0: max(0, height - corner), x1: width, y1: height), width: width, as: 2)

        var outside = 0, matching = 0
        original.pixels.withUnsafeBufferPointer { o in
            reference.pixels.withUnsafeBufferPointer { r in
                for p in 0..<(width * height) where zone[p] == 0 {
                    outside += 1
                    let i = p * 4
                    if near(o[i], r[i]) && near(o[i + 1], r[i + 1]) && near(o[i + 2], r[i + 2]) { matching += 1 }
                }
            }
        }
        guard Double(outside) >= leastOutside * Double(width * height) else {
            return .undecided("the app's own screen's image views cover the whole picture: nothing outside them shows the render is of its storyboard")
        }
        guard Double(matching) >= outsideShare * Double(outside) else {
            let share = Double(outside - matching) / Double(outside) * 100
            return .undecided(
                "the render differs from the app's own screen outside its image views (\(String(format: "%.1f", share))% of those pixels): another design, colour or layout, so no evidence either way"
            )
        }
        for fill in Fill.allCases {
            var withContent = 0, filled = 0, standsOut = 0
            for frame in frames {
                let view = judge(frame, fill: fill, original: original, reference: reference, zone: zone)
                guard view.content >= max(leastContent, Int(leastContentShare * Double(view.area))) else { continue }
                withContent += 1
                if view.filled { filled += 1 }
                if view.filled && view.standsOut { standsOut += 1 }
            }
            let name = fill == .black ? "black" : "white"
            if filled == 0 { continue }
            if filled < withContent {
                return .undecided("\(filled) of the \(withContent) image views with content are solid \(name), not all of them")
            }
            if standsOut == 0 {
                return .undecided(
                    "the image views are solid \(name), and so is what surrounds them: a design without them would look the same")
            }
            return fill == .black ? .black : .white
        }
        return .good
    }

    /// A frame's inner area against the reference: its size, how many of its pixels the reference
    /// draws content in (clearly not the fill), whether the original holds the fill over nearly all
    /// of the area and nearly all of that content, and whether the reference around it (the ring
    /// beyond the margin, outside every other frame's margin) is mostly not the fill.
    private static func judge(
        _ frame: Box, fill: Fill, original: RGBAImage, reference: RGBAImage, zone: [UInt8]
    ) -> (area: Int, content: Int, filled: Bool, standsOut: Bool) {
        let width = reference.width
        let inner = grow(frame, by: -margin, width: width, height: reference.height)
        let outer = grow(frame, by: margin + ring, width: width, height: reference.height)
        let own = grow(frame, by: margin, width: width, height: reference.height)
        var area = 0, content = 0, solid = 0, contentSolid = 0, around = 0, differing = 0
        original.pixels.withUnsafeBufferPointer { o in
            reference.pixels.withUnsafeBufferPointer { r in
                for y in inner.y0..<inner.y1 {
                    for x in inner.x0..<inner.x1 where zone[y * width + x] != 2 {
                        let i = (y * width + x) * 4
                        area += 1
                        let filled = fill.holds(o[i], o[i + 1], o[i + 2])
                        if filled { solid += 1 }
                        if fill.differs(r[i], r[i + 1], r[i + 2]) {
                            content += 1
                            if filled { contentSolid += 1 }
                        }
                    }
                }
                for y in outer.y0..<outer.y1 {
                    for x in outer.x0..<outer.x1 where !own.contains(x, y) && zone[y * width + x] != 2 {
                        let i = (y * width + x) * 4
                        around += 1
                        if !fill.holds(r[i], r[i + 1], r[i + 2]) { differing += 1 }
                    }
                }
            }
        }
        let filled = area > 0 && Double(solid) >= filledShare * Double(area) && Double(contentSolid) >= filledShare * Double(content)
        return (area, content, filled, around > 0 && differing * 2 > around)
    }

    /// A half-open box of pixels.
    private struct Box {
        var x0: Int, y0: Int, x1: Int, y1: Int
        func contains(_ x: Int, _ y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
    }

    /// The frame within the picture; nil when none of it is.
    private static func clip(_ frame: Manifest.Frame, width: Int, height: Int) -> Box? {
        let box = Box(x0: max(0, frame.x), y0: max(0, frame.y), x1: min(width, frame.x + frame.width), y1: min(height, frame.y + frame.height))
        return box.x1 > box.x0 && box.y1 > box.y0 ? box : nil
    }

    /// The box grown by `by` pixels on every side (shrunk when negative), within the picture.
    private static func grow(_ box: Box, by: Int, width: Int, height: Int) -> Box {
        let grown = Box(x0: max(0, box.x0 - by), y0: max(0, box.y0 - by), x1: min(width, box.x1 + by), y1: min(height, box.y1 + by))
        return Box(x0: grown.x0, y0: grown.y0, x1: max(grown.x0, grown.x1), y1: max(grown.y0, grown.y1))
    }

    private static func near(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= tolerance }

    private static func mark(_ zone: inout [UInt8], _ box: Box, width: Int, as value: UInt8) {
        for y in box.y0..<box.y1 { for x in box.x0..<box.x1 { zone[y * width + x] = value } }
    }
}
