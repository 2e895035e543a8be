import CoreGraphics
import CoreText
import Foundation
import SplashFormat

/// Draws text (the Apple backend) through Core Text: for the preview's labels.
public final class TextRenderer {
    private let font: CTFont

    /// A renderer over the system's user-interface font.
    public static func standard() throws -> TextRenderer {
        guard let font = CTFontCreateUIFontForLanguage(.system, 12, nil) else {
            throw TextError.noFont("Core Text gave no system font")
        }
        return TextRenderer(font: font)
    }

    /// A renderer over a font file (TrueType, OpenType).
    public init(fontAt url: URL) throws {
        guard let descriptors = CTFontManagerCreateFontDescriptorsFromURL(url as CFURL) as? [CTFontDescriptor],
            let first = descriptors.first
        else { throw TextError.noFont("\(url.path) is not a font Core Text reads") }
        font = CTFontCreateWithFontDescriptor(first, 12, nil)
    }

    private init(font: CTFont) { self.font = font }

    /// The advance width of `text` at a pixel height.
    public func width(_ text: String, pixelHeight: Float) -> Int {
        Int(CTLineGetTypographicBounds(line(text, pixelHeight: pixelHeight).line, nil, nil, nil).rounded(.up))
    }

    /// Draws `text` with its top-left corner at (x, y), blending each glyph's coverage in `color`.
    public func draw(_ text: String, pixelHeight: Float, color: RGBAColor, x: Int, y: Int, on image: inout RGBAImage) {
        let (line, ascent, descent) = line(text, pixelHeight: pixelHeight)
        let width = Int(CTLineGetTypographicBounds(line, nil, nil, nil).rounded(.up)) + 2
        let above = Int(ascent.rounded(.up)) + 1, below = Int(descent.rounded(.up)) + 1
        let height = above + below
        guard width > 2, height > 2 else { return }
        // The coverage: white text on black in an 8-bit grey bitmap, whose first row is its top.
        var coverage = [UInt8](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBytes { buffer in
            guard
                let context = CGContext(
                    data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width,
                    space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)
            else { return }
            context.setShouldSmoothFonts(false)
            context.setFillColor(gray: 1, alpha: 1)
            context.textPosition = CGPoint(x: 1, y: CGFloat(below))
            CTLineDraw(line, context)
        }
        // The baseline sits `above` rows below the bitmap's top, and round(ascent) below y.
        let baseline = y + Int(ascent.rounded())
        image.blend(coverage: coverage, width: width, height: height, color: color, left: x - 1, top: baseline - above)
    }

    /// A line of `text` in this font sized so that ascent + descent is `pixelHeight` (stb_truetype's
    /// "pixel height", which the Linux backend uses), with that ascent and descent.
    private func line(_ text: String, pixelHeight: Float) -> (line: CTLine, ascent: CGFloat, descent: CGFloat) {
        let span = CTFontGetAscent(font) + CTFontGetDescent(font)
        let size = span > 0 ? CTFontGetSize(font) * CGFloat(pixelHeight) / span : CGFloat(pixelHeight)
        let sized = CTFontCreateCopyWithAttributes(font, size, nil, nil)
        let attributes = [kCTFontAttributeName: sized, kCTForegroundColorFromContextAttributeName: true] as CFDictionary
        let string = CFAttributedStringCreate(nil, text as CFString, attributes)!
        return (CTLineCreateWithAttributedString(string), CTFontGetAscent(sized), CTFontGetDescent(sized))
    }
}
