// Expectations: pictures made here and worked out by hand (a pixel is solid black when every
// channel is at most 16, solid white when at least 239; the reference's content is what differs
// from its top-left colour by more than 24); the rule (half the content turned solid, at least 0.2%
// of the picture) is BlackRender's own, and the cases sit far on either side of it.
import Foundation
import SplashApplier
import SplashFormat
import Testing

@Suite struct BlackRenderTests {
    /// A 160×160 launch screen: `background` with a 48×48 "logo" of `logo` at (`at`, `at`): 2304
    /// of the 25600 pixels (9%).
    static func screen(background: RGBAColor, logo: RGBAColor, at: Int = 56) -> RGBAImage {
        var image = RGBAImage(width: 160, height: 160, fill: background)
        for y in at..<(at + 48) {
            for x in at..<(at + 48) {
                let i = (y * 160 + x) * 4
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (logo.r, logo.g, logo.b)
            }
        }
        return image
    }

    static let white = RGBAColor(r: 255, g: 255, b: 255), black = RGBAColor(r: 0, g: 0, b: 0), red = RGBAColor(r: 200, g: 30, b: 40)

    @Test func theLogoRenderedBlackIsToldOnLightAndOnDark() throws {
        let light = Self.screen(background: Self.white, logo: Self.red)
        let blackOnLight = Self.screen(background: Self.white, logo: Self.black)
        #expect(
            BlackRender.gain(of: blackOnLight, over: light)
                == BlackRender.Gain(black: 0.09, white: 0, contentNotBlack: 0.09, contentNotWhite: 0.09))
        #expect(BlackRender.isBlackRender(blackOnLight, reference: light))
        // Dark: a black background, where a black logo leaves nothing but black.
        let dark = Self.screen(background: Self.black, logo: Self.red)
        #expect(BlackRender.isBlackRender(RGBAImage(width: 160, height: 160, fill: Self.black), reference: dark))
        // The white variant of the bug.
        #expect(BlackRender.isBlackRender(Self.screen(background: Self.black, logo: Self.white), reference: dark))
    }

    @Test func aGoodRenderIsNotToldEvenWithNoiseAndSoftEdges() throws {
        let light = Self.screen(background: Self.white, logo: Self.red)
        #expect(BlackRender.gain(of: light, over: light)?.black == 0)
        // Every channel off by up to 12 (ASTC's error) and the logo's edges one pixel off.
        var noisy = Self.screen(background: Self.white, logo: Self.red)
        for i in stride(from: 0, to: noisy.pixels.count, by: 4) {
            for c in 0..<3 { noisy.pixels[i + c] = noisy.pixels[i + c] > 127 ? noisy.pixels[i + c] - UInt8(i % 13) : noisy.pixels[i + c] + UInt8(i % 13) }
        }
        #expect(!BlackRender.isBlackRender(noisy, reference: light))
        // The same screen laid out otherwise (the OS's landscape layout differs from a build's): the
        // logo elsewhere is no black render, on a light background or a dark one.
        #expect(!BlackRender.isBlackRender(Self.screen(background: Self.white, logo: Self.red, at: 90), reference: light))
        #expect(
            !BlackRender.isBlackRender(
                Self.screen(background: Self.black, logo: Self.red, at: 10), reference: Self.screen(background: Self.black, logo: Self.red)))
        // A design that is black where the reference is black is not a black render.
        let dark = Self.screen(background: Self.black, logo: Self.red)
        #expect(!BlackRender.isBlackRender(dark, reference: dark))
        // Another size tells nothing.
        #expect(BlackRender.gain(of: RGBAImage(width: 80, height: 160, fill: Self.black), over: light) == nil)
    }
}
