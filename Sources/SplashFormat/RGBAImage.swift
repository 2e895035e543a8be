import Foundation

/// An 8-bit RGBA image, sRGB-encoded, straight (not premultiplied) alpha, rows top first.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// Makes an image filled with one colour (a negative size is taken as zero).
    public init(width: Int, height: Int, fill: RGBAColor = RGBAColor(r: 0, g: 0, b: 0, a: 0)) {
        let width = max(0, width), height = max(0, height)
        self.width = width
        self.height = height
        var row: [UInt8] = []
        row.reserveCapacity(width * 4)
        for _ in 0..<width { row.append(contentsOf: [fill.r, fill.g, fill.b, fill.a]) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<height { pixels.append(contentsOf: row) }
        self.pixels = pixels
    }

    /// Wraps existing pixel bytes, `width * height * 4` of them. A buffer of another length (a
    /// decoder's mistake) is cut or padded with transparent black rather than trusted or trapped on.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        let width = max(0, width), height = max(0, height)
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let (count, overflow4) = area.multipliedReportingOverflow(by: 4)
        self.width = overflow || overflow4 ? 0 : width
        self.height = overflow || overflow4 ? 0 : height
        let expected = overflow || overflow4 ? 0 : count
        if pixels.count == expected {
            self.pixels = pixels
        } else {
            self.pixels = Array(pixels.prefix(expected)) + [UInt8](repeating: 0, count: max(0, expected - pixels.count))
        }
    }

    /// Whether every pixel's alpha is 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// The colour at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBAColor {
        let i = (y * width + x) * 4
        return RGBAColor(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }
}

/// An 8-bit sRGB colour with alpha.
public struct RGBAColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Red.
    public var r: UInt8
    /// Green.
    public var g: UInt8
    /// Blue.
    public var b: UInt8
    /// Alpha (255 = opaque).
    public var a: UInt8

    /// Makes a colour.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Parses `#RRGGBB` (opaque), or nil.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    /// `#RRGGBB`, upper case.
    public var hex: String {
        "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    public var description: String { a == 255 ? hex : hex + String(format: "%02X", a) }
}
