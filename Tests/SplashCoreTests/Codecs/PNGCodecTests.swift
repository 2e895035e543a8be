// Expectations: the 5×3 pattern Fixtures/png/make-fixtures.py writes with Python's zlib and struct
// (red 40x+10, green 60y+20, blue 30xy, alpha 255-50x); libpng's own 8-bit reading of the gAMA 1.0
// file; the encoder is checked by round trip only (decode(encode(image)) == image).
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import Testing

@Suite struct PNGCodecTests {
    /// The pattern `make-fixtures.py` draws: red 40x+10, green 60y+20, blue 30xy, alpha 255-50x.
    static func expected(_ x: Int, _ y: Int, grey: Bool, alpha: Bool) -> RGBAColor {
        let r = UInt8(40 * x + 10)
        let a = alpha ? UInt8(255 - 50 * x) : 255
        return grey ? RGBAColor(r: r, g: r, b: r, a: a) : RGBAColor(r: r, g: UInt8(60 * y + 20), b: UInt8(30 * x * y), a: a)
    }

    static let kinds: [(file: String, grey: Bool, alpha: Bool)] = [
        ("rgb8.png", false, false), ("rgba8.png", false, true), ("rgba8-srgb.png", false, true),
        ("rgb16.png", false, false), ("rgba16.png", false, true), ("rgb16-gama-srgb.png", false, false),
        ("palette.png", false, true), ("grey8.png", true, false), ("grey16.png", true, false),
        ("grey-alpha8.png", true, true), ("rgb8-interlaced.png", false, false),
        ("rgba16-interlaced.png", false, true), ("palette-interlaced.png", false, true),
    ]

    @Test(arguments: kinds)
    func everyKindDecodesToTheSameSRGBPixels(_ kind: (file: String, grey: Bool, alpha: Bool)) throws {
        let image = try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/" + kind.file)))
        #expect(image.width == 5 && image.height == 3)
        for y in 0..<3 {
            for x in 0..<5 {
                let want = Self.expected(x, y, grey: kind.grey, alpha: kind.alpha), got = image[x, y]
                // 16-bit and alpha data pass through libpng's linear arithmetic: allow one step.
                let close = [(got.r, want.r), (got.g, want.g), (got.b, want.b), (got.a, want.a)].allSatisfy { abs(Int($0) - Int($1)) <= 1 }
                #expect(close, "\(kind.file) (\(x),\(y)): got \(got), want \(want)")
            }
        }
    }

    @Test func sixteenBitWithoutGammaIsReadAsSRGBNotLinear() throws {
        // libpng's simplified API would take it as linear and brighten 10 to about 56.
        let image = try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/rgb16.png")))
        #expect(image[0, 0].r == 10)
    }

    /// libpng's own arithmetic, so the Linux backend's alone (ImageIO colour-manages by its own rules).
    @Test(.enabled(if: ImagingBackend.name == "linux", "the values are libpng's 8-bit reading of this file"))
    func sixteenBitMarkedLinearIsGammaEncoded() throws {
        // gAMA 1.0: the samples are linear light and come out gamma-encoded (libpng's 2.2 law),
        // the same values libpng's own 8-bit reader gives for this file.
        let image = try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/rgb16-gama-linear.png")))
        let libpng8Bit = [58, 121, 159, 188, 212]
        #expect((0..<5).allSatisfy { abs(Int(image[$0, 0].r) - libpng8Bit[$0]) <= 1 })
    }

    @Test func roundTripIsLosslessAndDeterministic() throws {
        let image = try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/rgba8.png")))
        let once = try PNGCodec.encode(image), twice = try PNGCodec.encode(image)
        #expect(once == twice)
        #expect(try PNGCodec.decode(once) == image)
    }

    @Test func badFilesAreRefusedWithANamedReason() throws {
        // make-fixtures.py writes it starting "GIF89a": named as a GIF.
        #expect(throws: ImageError.otherFormat("GIF")) { try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/not-a-png.png"))) }
        #expect(throws: ImageError.notPNG) { try PNGCodec.decode(Data("not an image at all".utf8)) }
        #expect(throws: ImageError.empty) { try PNGCodec.decode(Data()) }
        // Another format is named by its signature (JPEG's SOI marker FF D8 then a marker FF; GIF89a;
        // RIFF....WEBP), with the fix.
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0])
        #expect(throws: ImageError.otherFormat("JPEG")) { try PNGCodec.decode(jpeg) }
        #expect(throws: ImageError.otherFormat("GIF")) { try PNGCodec.decode(Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)) }
        #expect(throws: ImageError.otherFormat("WebP")) { try PNGCodec.decode(Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) }
        #expect(
            ImageError.otherFormat("JPEG").description
                == "a JPEG file, not a PNG: art must be PNG; export it as PNG (on a Mac `sips -s format png IN --out OUT.png`, or ImageMagick's `convert IN OUT.png`) and name the .png here"
        )
        #expect(throws: ImageError.tooLarge(width: 30000, height: 30000, limit: PNGCodec.defaultMaxPixels)) {
            try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/bomb.png")))
        }
        do {
            _ = try PNGCodec.decode(Data(contentsOf: Fixtures.url("png/truncated.png")))
            Issue.record("a truncated PNG decoded")
        } catch let error as ImageError {
            guard case .corrupt = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.hasPrefix("truncated or corrupt PNG (\(ImagingBackend.name == "linux" ? "libpng" : "ImageIO"): "))
        }
    }
}
