// Expectations: the contract both imaging backends keep (Sources/SplashImaging/Shared), from
// arithmetic on pictures made here, never from either backend's bytes: a window of a resize is
// that part of the whole resize; a flat colour stays itself to the edges (clamped edges, linear
// light); transparent pixels lend no colour (alpha weighting); a PNG round trip is lossless; ASTC
// of a flat colour decodes to it. They run on Linux (libpng, stb, astcenc) in `make test` and on
// macOS (ImageIO, vImage, Core Text, AppleTextureEncoder) in .github/workflows/apple.yml.
import Foundation
import SplashFormat
import SplashImaging
import Testing

@Suite struct ImagingContractTests {
    /// A smooth picture with detail in both directions and varying alpha.
    static let art: RGBAImage = {
        var pixels: [UInt8] = []
        for y in 0..<37 {
            for x in 0..<53 {
                pixels += [UInt8(x * 4 + 20), UInt8(y * 6 + 10), UInt8((x * y) % 200 + 30), UInt8(255 - (x + y) % 60)]
            }
        }
        return RGBAImage(width: 53, height: 37, pixels: pixels)
    }()

    static func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The window of a resize is the same part of the whole resize (what fill's cropping relies on),
    /// shrinking and enlarging, at each corner and inside.
    @Test(arguments: [(width: 29, height: 17), (width: 131, height: 97)])
    func aWindowIsThatPartOfTheWholeResize(size: (width: Int, height: Int)) {
        let whole = Resampler.resize(Self.art, width: size.width, height: size.height)
        #expect(whole.width == size.width && whole.height == size.height)
        let windows = [
            (0, 0, size.width / 2, size.height / 3), (size.width / 3, size.height / 2, size.width - size.width / 3, size.height - size.height / 2),
            (5, 3, 7, 11),
        ]
        for window in windows {
            let part = Resampler.resize(Self.art, width: size.width, height: size.height, visible: window)
            #expect(part.width == window.2 && part.height == window.3)
            var crop = RGBAImage(width: window.2, height: window.3)
            for y in 0..<window.3 {
                for x in 0..<window.2 {
                    let i = ((window.1 + y) * whole.width + window.0 + x) * 4, j = (y * window.2 + x) * 4
                    crop.pixels[j..<j + 4] = whole.pixels[i..<i + 4]
                }
            }
            #expect(Self.largestDifference(part, crop) <= 1, "window \(window) of \(size)")
        }
    }

    /// A flat colour stays exactly itself at every pixel, edges included: edges are clamped, not
    /// faded into a background, and the sRGB round trip through linear light is exact.
    @Test func aFlatColourStaysItselfToTheEdges() {
        let flat = RGBAImage(width: 40, height: 30, fill: RGBAColor(r: 160, g: 6, b: 30))
        for (w, h) in [(17, 11), (97, 73)] {
            let out = Resampler.resize(flat, width: w, height: h)
            #expect(Self.largestDifference(out, RGBAImage(width: w, height: h, fill: RGBAColor(r: 160, g: 6, b: 30))) <= 1, "\(w)x\(h)")
        }
    }

    /// Transparent pixels lend no colour: white beside transparent black scales to white wherever
    /// anything shows (a filter without alpha weighting greys the edge).
    @Test func transparentPixelsLendNoColour() {
        var pixels: [UInt8] = []
        for _ in 0..<16 { for x in 0..<16 { pixels += x < 8 ? [255, 255, 255, 255] : [0, 0, 0, 0] } }
        let out = Resampler.resize(RGBAImage(width: 16, height: 16, pixels: pixels), width: 37, height: 37)
        let shown = stride(from: 0, to: out.pixels.count, by: 4).filter { out.pixels[$0 + 3] >= 16 }
        #expect(!shown.isEmpty)
        #expect(shown.allSatisfy { out.pixels[$0] >= 250 && out.pixels[$0 + 1] >= 250 && out.pixels[$0 + 2] >= 250 })
    }

    /// PNG out and in again gives the same pixels, alpha included, and the header's size.
    @Test func aPNGRoundTripIsLossless() throws {
        let data = try PNGCodec.encode(Self.art)
        #expect(try PNGCodec.size(of: data) == (53, 37))
        #expect(try PNGCodec.decode(data) == Self.art)
        #expect(throws: ImageError.notPNG) { try PNGCodec.decode(Data("not a png".utf8)) }
        #expect(throws: ImageError.tooLarge(width: 53, height: 37, limit: 100)) { try PNGCodec.decode(data, maxPixels: 100) }
    }

    /// ASTC 4×4 of a flat colour decodes to exactly that colour (a void-extent or single-colour
    /// block), and the blocks are one per 4×4 tile, partial tiles included.
    @Test func astcOfAFlatColourDecodesToIt() throws {
        let codec = try ASTCCodec(quality: .medium)
        let flat = RGBAImage(width: 10, height: 6, fill: RGBAColor(r: 12, g: 200, b: 99))
        let blocks = try codec.compress(flat)
        #expect(blocks.count == KTXFile.astc4x4ByteCount(width: 10, height: 6) && blocks.count == 3 * 2 * 16)
        #expect(try ASTCCodec(decodeOnly: ()).decompress(blocks, width: 10, height: 6) == flat)
        #expect(throws: ASTCError.wrongBlockCount) { try codec.decompress(blocks.dropLast(), width: 10, height: 6) }
    }

    /// Text has a width that grows with its length and size, and drawing it changes pixels only
    /// inside the space it claims.
    @Test func textIsMeasuredAndDrawnWhereItSays() throws {
        let text = try TextRenderer.standard()
        let short = text.width("iPad", pixelHeight: 20), long = text.width("iPad Pro 13-inch", pixelHeight: 20)
        #expect(short > 0 && long > short && text.width("iPad", pixelHeight: 40) > short)
        var canvas = RGBAImage(width: 300, height: 80, fill: RGBAColor(r: 255, g: 255, b: 255))
        text.draw("iPad Pro 13-inch", pixelHeight: 20, color: RGBAColor(r: 0, g: 0, b: 0), x: 50, y: 30, on: &canvas)
        var changed: [(x: Int, y: Int)] = []
        for y in 0..<80 { for x in 0..<300 where canvas[x, y] != RGBAColor(r: 255, g: 255, b: 255) { changed.append((x, y)) } }
        #expect(changed.count > 50)
        #expect(changed.allSatisfy { $0.x >= 48 && $0.x <= 52 + long && $0.y >= 28 && $0.y <= 30 + 26 })
    }
}
