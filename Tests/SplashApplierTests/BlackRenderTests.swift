// Expectations: pictures made here and worked out by hand from docs/ios-launch-cache.md §6 (the OS's
// black render fills every image view's frame solid black, sometimes white) and from what a good
// render of another design looks like. A good render is never told black or white; a black render is
// told when its fill stands out from what surrounds the views, and undecided otherwise.
import Foundation
import SplashApplier
import SplashFormat
import Testing

@Suite struct BlackRenderTests {
    /// The screens of the generated set: 200×300 pt at @2x.
    static let (width, height) = (400, 600)

    /// A launch screen as a storyboard draws it: `background`, and a logo (a disc of `logo`,
    /// anti-aliased, in a square image view `side` pixels wide, centred and moved by `dx`, `dy`),
    /// or that view filled solid with `fill` (the black render). Every channel of the background is
    /// moved by up to `noise` levels (ASTC's error), and a 2×2 marker of `marker` goes in the
    /// bottom-right corner.
    static func screen(
        background: RGBAColor, logo: RGBAColor?, side: Int, dx: Int = 0, dy: Int = 0, fill: RGBAColor? = nil, noise: Int = 0,
        marker: RGBAColor? = nil
    ) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, fill: background)
        if noise > 0 {
            // Each column's background moved by its own amount, one row copied down the picture.
            var row: [UInt8] = []
            for x in 0..<width {
                for (c, value) in [background.r, background.g, background.b].enumerated() {
                    row.append(UInt8(min(255, max(0, Int(value) + (x * 7 + c * 3) % (2 * noise + 1) - noise))))
                }
                row.append(255)
            }
            image.pixels.removeAll(keepingCapacity: true)
            for _ in 0..<height { image.pixels.append(contentsOf: row) }
        }
        let x0 = (width - side) / 2 + dx, y0 = (height - side) / 2 + dy
        let radius = Double(side) / 2
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in max(0, y0)..<min(height, y0 + side) {
                for x in max(0, x0)..<min(width, x0 + side) {
                    let i = (y * width + x) * 4
                    if let fill {
                        (pixels[i], pixels[i + 1], pixels[i + 2]) = (fill.r, fill.g, fill.b)
                        continue
                    }
                    guard let logo else { continue }
                    let (u, v) = (Double(x - x0) + 0.5 - radius, Double(y - y0) + 0.5 - radius)
                    let cover = min(1, max(0, radius - (u * u + v * v).squareRoot() + 0.5))
                    func blend(_ value: UInt8, _ under: UInt8) -> UInt8 { UInt8((Double(value) * cover + Double(under) * (1 - cover)).rounded()) }
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (blend(logo.r, pixels[i]), blend(logo.g, pixels[i + 1]), blend(logo.b, pixels[i + 2]))
                }
            }
        }
        if let marker {
            for y in (height - 2)..<height { for x in (width - 2)..<width { image.pixels[(y * width + x) * 4] = marker.r } }
        }
        return image
    }

    /// The frame of the view `screen(side:)` draws, as the build records it.
    static func frame(side: Int) -> Manifest.Frame { Manifest.Frame(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side) }

    static let white = RGBAColor(r: 255, g: 255, b: 255), black = RGBAColor(r: 0, g: 0, b: 0)
    static let gold = RGBAColor(r: 251, g: 191, b: 36), navy = RGBAColor(r: 30, g: 58, b: 138)

    @Test func aLogoFilledBlackOrWhiteIsToldAndAGoodRenderIsNot() {
        let reference = Self.screen(background: Self.white, logo: Self.navy, side: 320)
        let views = [Self.frame(side: 320)]
        #expect(BlackRender.verdict(of: reference, reference: reference, imageViews: views) == .good)
        let blackened = Self.screen(background: Self.white, logo: nil, side: 320, fill: Self.black)
        #expect(BlackRender.verdict(of: blackened, reference: reference, imageViews: views) == .black)
        let dark = Self.screen(background: Self.navy, logo: Self.gold, side: 320)
        let whitened = Self.screen(background: Self.navy, logo: nil, side: 320, fill: Self.white)
        #expect(BlackRender.verdict(of: whitened, reference: dark, imageViews: views) == .white)
        // The marker's corner differs between a render and the reference, and is left out.
        let marked = Self.screen(background: Self.white, logo: nil, side: 320, fill: Self.black, marker: Self.navy)
        #expect(BlackRender.verdict(of: marked, reference: reference, imageViews: views) == .black)
    }

    @Test func aRenderOfAnotherDesignOrLayoutIsUndecidedWithTheReason() {
        let reference = Self.screen(background: Self.white, logo: Self.navy, side: 200)
        let views = [Self.frame(side: 200)]
        // Another background (a stale own screen after a redesign): no evidence either way.
        let other = Self.screen(background: RGBAColor(r: 28, g: 28, b: 30), logo: nil, side: 200, fill: Self.black)
        guard case .undecided(let why) = BlackRender.verdict(of: other, reference: reference, imageViews: views) else {
            Issue.record("told on another design")
            return
        }
        #expect(why.contains("differs from the app's own screen outside its image views (100.0% of those pixels)"), "\(why)")
        // The view filled black, moved 40 px down (the OS's landscape layout, §6): undecided.
        let moved = Self.screen(background: Self.white, logo: nil, side: 200, dy: 40, fill: Self.black)
        #expect(BlackRender.verdict(of: moved, reference: reference, imageViews: views) != .black)
        // Of another size: the frames say nothing of it.
        #expect(BlackRender.verdict(of: RGBAImage(width: 10, height: 10, fill: Self.black), reference: reference, imageViews: views) != .black)
        // Views that cover the whole picture leave nothing to tell the storyboard by.
        let full = Manifest.Frame(x: 0, y: 0, width: Self.width, height: Self.height)
        let blank = RGBAImage(width: Self.width, height: Self.height, fill: Self.black)
        guard case .undecided(let whole) = BlackRender.verdict(of: blank, reference: reference, imageViews: [full]) else {
            Issue.record("told with nothing outside the views")
            return
        }
        #expect(whole.contains("cover the whole picture"))
    }

    /// A view whose art is nearly all black (a black badge with a small white mark): the app's own
    /// screen rendered well is its own reference and is good; the view filled black differs only in
    /// the mark, too little of the view to be evidence (review of issue 36).
    @Test func aViewDrawnNearlyAllInTheFillIsNoEvidence() {
        var badge = Self.screen(background: Self.white, logo: nil, side: 200, fill: Self.black)
        let x0 = (Self.width - 200) / 2, y0 = (Self.height - 200) / 2
        for y in (y0 + 95)..<(y0 + 105) {
            for x in (x0 + 95)..<(x0 + 105) {
                badge.pixels.replaceSubrange(((y * Self.width + x) * 4)..<((y * Self.width + x) * 4 + 3), with: [255, 255, 255])
            }
        }
        let views = [Self.frame(side: 200)]
        #expect(BlackRender.verdict(of: badge, reference: badge, imageViews: views) == .good)
        let filled = Self.screen(background: Self.white, logo: nil, side: 200, fill: Self.black)
        #expect(BlackRender.verdict(of: filled, reference: badge, imageViews: views) != .black)
    }

    @Test func aFillNoDifferentFromWhatSurroundsTheViewIsUndecided() {
        // A gold logo on black: its view filled black is a black screen, which a design without the
        // logo draws too.
        let reference = Self.screen(background: Self.black, logo: Self.gold, side: 200)
        let blank = Self.screen(background: Self.black, logo: nil, side: 200, fill: Self.black)
        guard case .undecided(let why) = BlackRender.verdict(of: blank, reference: reference, imageViews: [Self.frame(side: 200)]) else {
            Issue.record("told where a design without the view looks the same")
            return
        }
        #expect(why.contains("so is what surrounds them"))
    }

    /// The generated set: every background from black to white in 16 steps and four colours,
    /// logos of 16 to 160 pt (at @2x), lighter and darker than the background. Good renders, each
    /// with a pixel of misplacement and ASTC-like noise: the storyboard as the reference draws it,
    /// its background drifted by one level, its logo 0.625× and 1.6× the size, moved 40 px, removed,
    /// and a background 40 levels away (a stale own screen). Not one may be told black or white.
    /// Black and white renders of the same screens are told exactly where the fill stands out from
    /// the background (hand rule: black fill where any background channel is above 8, white where
    /// any is below 247), and undecided elsewhere.
    static let backgrounds: [RGBAColor] =
        stride(from: 0, through: 255, by: 17).map { RGBAColor(r: UInt8($0), g: UInt8($0), b: UInt8($0)) } + [
            RGBAColor(r: 160, g: 6, b: 30), RGBAColor(r: 16, g: 24, b: 40), RGBAColor(r: 28, g: 28, b: 30), RGBAColor(r: 242, g: 242, b: 247),
        ]
    @Test(arguments: 0..<20, [16, 20, 24, 32, 40, 64, 100, 160])
    func theGeneratedSetNeverTellsAGoodRenderAndTellsEveryBlackOneThatStandsOut(_ index: Int, points: Int) {
        let background = Self.backgrounds[index]
        func shifted(_ value: UInt8, by: Int) -> UInt8 { UInt8(min(255, max(0, Int(value) + (value < 128 ? by : -by)))) }
        let drifted = RGBAColor(r: shifted(background.r, by: 1), g: shifted(background.g, by: 1), b: shifted(background.b, by: 1))
        let stale = RGBAColor(r: shifted(background.r, by: 40), g: shifted(background.g, by: 40), b: shifted(background.b, by: 40))
        for logo in [Self.gold, Self.navy] {
            let side = points * 2
            let reference = Self.screen(background: background, logo: logo, side: side)
            let views = [Self.frame(side: side)]
            #expect(BlackRender.verdict(of: reference, reference: reference, imageViews: views) == .good, "\(background), \(points) pt, \(logo): itself")
            let good: [(String, RGBAImage)] = [
                ("as drawn", Self.screen(background: background, logo: logo, side: side, dx: 1, noise: 2)),
                ("drifted a level", Self.screen(background: drifted, logo: logo, side: side, dx: 1, noise: 2)),
                ("logo 0.625x", Self.screen(background: background, logo: logo, side: side * 5 / 8, noise: 2)),
                ("logo 1.6x", Self.screen(background: background, logo: logo, side: min(380, side * 8 / 5), noise: 2)),
                ("logo moved", Self.screen(background: background, logo: logo, side: side, dy: 40, noise: 2)),
                ("logo removed", Self.screen(background: background, logo: nil, side: side, noise: 2)),
                ("stale background", Self.screen(background: stale, logo: logo, side: side, noise: 2)),
            ]
            for (what, render) in good {
                let verdict = BlackRender.verdict(of: render, reference: reference, imageViews: views)
                #expect(verdict != .black && verdict != .white, "\(background), \(points) pt, \(logo): a good render (\(what)) told \(verdict)")
            }
            let standsOutFromBlack = max(background.r, background.g, background.b) > 8
            let standsOutFromWhite = min(background.r, background.g, background.b) < 247
            for (fill, told, standsOut) in [(Self.black, BlackRender.Verdict.black, standsOutFromBlack), (Self.white, .white, standsOutFromWhite)] {
                let render = Self.screen(background: background, logo: nil, side: side, dx: 1, fill: fill, noise: 2)
                let verdict = BlackRender.verdict(of: render, reference: reference, imageViews: views)
                if standsOut {
                    #expect(verdict == told, "\(background), \(points) pt, \(logo), \(fill): \(verdict)")
                } else {
                    #expect(verdict != .black && verdict != .white, "\(background), \(points) pt, \(logo), \(fill): \(verdict)")
                }
            }
        }
    }
}
