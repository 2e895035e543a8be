import CStb
import Foundation
import SplashFormat

/// Draws text (the Linux backend) with a TrueType font through stb_truetype: for the preview's labels.
public final class TextRenderer {
    private let font: UnsafeMutableBufferPointer<UInt8>
    private var info = stbtt_fontinfo()

    /// Where Debian's fonts-dejavu-core (and macOS) keep a plain sans-serif font.
    public static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/System/Library/Fonts/Supplemental/Arial.ttf",
    ]

    /// A renderer over the first font of ``searchPaths`` that exists.
    public static func standard() throws -> TextRenderer {
        guard let path = searchPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw TextError.noFont("no font found (install Debian's fonts-dejavu-core); looked in \(searchPaths.joined(separator: ", "))")
        }
        return try TextRenderer(fontAt: URL(fileURLWithPath: path))
    }

    /// A renderer over a `.ttf` file.
    public init(fontAt url: URL) throws {
        let data = try Data(contentsOf: url)
        font = .allocate(capacity: data.count)
        _ = font.initialize(from: data)
        guard stbtt_InitFont(&info, font.baseAddress, stbtt_GetFontOffsetForIndex(font.baseAddress, 0)) != 0 else {
            font.deallocate()
            throw TextError.noFont("\(url.path) is not a TrueType font stb_truetype reads")
        }
    }

    deinit { font.deallocate() }

    /// The advance width of `text` at a pixel height.
    public func width(_ text: String, pixelHeight: Float) -> Int {
        let scale = stbtt_ScaleForPixelHeight(&info, pixelHeight)
        var pen: Float = 0
        var previous: Int32 = 0
        for scalar in text.unicodeScalars {
            let code = Int32(scalar.value)
            var advance: Int32 = 0, bearing: Int32 = 0
            stbtt_GetCodepointHMetrics(&info, code, &advance, &bearing)
            if previous != 0 { pen += Float(stbtt_GetCodepointKernAdvance(&info, previous, code)) * scale }
            pen += Float(advance) * scale
            previous = code
        }
        return Int(pen.rounded(.up))
    }

    /// Draws `text` with its top-left corner at (x, y), blending each glyph's coverage in `color`.
    public func draw(_ text: String, pixelHeight: Float, color: RGBAColor, x: Int, y: Int, on image: inout RGBAImage) {
        let scale = stbtt_ScaleForPixelHeight(&info, pixelHeight)
        var ascent: Int32 = 0, descent: Int32 = 0, gap: Int32 = 0
        stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap)
        let baseline = y + Int((Float(ascent) * scale).rounded())
        var pen = Float(x)
        var previous: Int32 = 0
        for scalar in text.unicodeScalars {
            let code = Int32(scalar.value)
            if previous != 0 { pen += Float(stbtt_GetCodepointKernAdvance(&info, previous, code)) * scale }
            var x0: Int32 = 0, y0: Int32 = 0, x1: Int32 = 0, y1: Int32 = 0
            stbtt_GetCodepointBitmapBox(&info, code, scale, scale, &x0, &y0, &x1, &y1)
            let w = Int(x1 - x0), h = Int(y1 - y0)
            if w > 0 && h > 0 {
                var coverage = [UInt8](repeating: 0, count: w * h)
                coverage.withUnsafeMutableBufferPointer { buffer in
                    stbtt_MakeCodepointBitmap(&info, buffer.baseAddress, Int32(w), Int32(h), Int32(w), scale, scale, code)
                }
                image.blend(coverage: coverage, width: w, height: h, color: color, left: Int(pen.rounded()) + Int(x0), top: baseline + Int(y0))
            }
            var advance: Int32 = 0, bearing: Int32 = 0
            stbtt_GetCodepointHMetrics(&info, code, &advance, &bearing)
            pen += Float(advance) * scale
            previous = code
        }
    }
}
