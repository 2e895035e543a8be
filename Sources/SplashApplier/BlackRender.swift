import Foundation
import SplashFormat

/// Tells the OS's black render of a launch screen (docs/ios-launch-cache.md §6: every image view of
/// the storyboard rendered solid black, sometimes white) from a good one, by the app's own screen as
/// the bundle draws it (the campaign marked `own_screen`). In a black render the image views' pixels
/// turn solid black: the original holds more solid black than the reference by about as much as
/// the reference holds content (what is not its background colour and not itself black). A good
/// render holds the same content, wherever its layout puts it (the OS lays the landscape screen out
/// otherwise than a build does, §6), so the comparison counts pixels, never places. The same goes
/// for solid white. With no reference nothing is told: a guess from the original alone could not
/// tell a black render from a black design.
package enum BlackRender {
    /// How much of the reference's content must have turned solid black (or white).
    static let share = 0.5
    /// The least gain, of the whole picture, that counts: above anti-aliasing's and ASTC's noise.
    static let least = 0.002

    /// What `original` holds beyond `reference`, as shares of the picture: solid black, solid white;
    /// and the reference's content that could turn black (or white).
    package struct Gain: Equatable {
        package var black: Double
        var white: Double
        var contentNotBlack: Double
        var contentNotWhite: Double

        /// Makes one from every stored property (the memberwise initializer, which is never `package`).
        package init(black: Double, white: Double, contentNotBlack: Double, contentNotWhite: Double) {
            self.black = black
            self.white = white
            self.contentNotBlack = contentNotBlack
            self.contentNotWhite = contentNotWhite
        }
    }

    /// The gain of `original` over `reference`; nil when their sizes differ.
    package static func gain(of original: RGBAImage, over reference: RGBAImage) -> Gain? {
        guard original.width == reference.width, original.height == reference.height, !reference.pixels.isEmpty else { return nil }
        let count = Double(reference.width * reference.height)
        // The background is the top-left pixel's colour: a launch screen's corner is its background
        // (the marker sits at the bottom-right).
        let background = (reference.pixels[0], reference.pixels[1], reference.pixels[2])
        var black = 0, white = 0, notBlack = 0, notWhite = 0
        for i in stride(from: 0, to: reference.pixels.count, by: 4) {
            let (r, g, b) = (reference.pixels[i], reference.pixels[i + 1], reference.pixels[i + 2])
            let (o, p, q) = (original.pixels[i], original.pixels[i + 1], original.pixels[i + 2])
            black += (max(o, p, q) <= 16 ? 1 : 0) - (max(r, g, b) <= 16 ? 1 : 0)
            white += (min(o, p, q) >= 239 ? 1 : 0) - (min(r, g, b) >= 239 ? 1 : 0)
            let content = max(distance(r, background.0), distance(g, background.1), distance(b, background.2)) > 24
            if content && max(r, g, b) > 16 { notBlack += 1 }
            if content && min(r, g, b) < 239 { notWhite += 1 }
        }
        return Gain(
            black: Double(black) / count, white: Double(white) / count, contentNotBlack: Double(notBlack) / count, contentNotWhite: Double(notWhite) / count)
    }

    /// Whether `original` is a black (or white) render of the storyboard `reference` draws.
    package static func isBlackRender(_ original: RGBAImage, reference: RGBAImage) -> Bool {
        guard let gain = gain(of: original, over: reference) else { return false }
        return (gain.black >= least && gain.black >= share * gain.contentNotBlack)
            || (gain.white >= least && gain.white >= share * gain.contentNotWhite)
    }

    private static func distance(_ a: UInt8, _ b: UInt8) -> Int { abs(Int(a) - Int(b)) }
}
