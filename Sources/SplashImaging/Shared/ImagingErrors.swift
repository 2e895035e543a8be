import Foundation
import SplashFormat

// The contract both imaging backends keep (Linux: libpng, stb, astcenc; Apple platforms: ImageIO,
// vImage, Core Text, AppleTextureEncoder). Each backend defines `PNGCodec`, `ASTCCodec`,
// `Resampler` and `TextRenderer` with the same names and signatures; these are the types they share.

/// Why an image could not be read or written.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    /// The file has no bytes.
    case empty
    /// The bytes do not start with the PNG signature.
    case notPNG
    /// The bytes are another image format, named by its signature ("JPEG", "GIF", …).
    case otherFormat(String)
    /// The decoder stopped: truncated or damaged data. The text names the decoder and what it said.
    case corrupt(String)
    /// More pixels than allowed (a decompression bomb, or art far too large for a launch screen).
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The encoder failed; the text names it and what it said.
    case encodeFailed(String)
    /// The path names something that is not a file (a folder, a FIFO, a device), which is never read.
    case notAFile(String)
    /// The file could not be read.
    case unreadable(FileSystemError)

    /// Why `data` is not a PNG: it is empty, another image format known by its signature, or
    /// nothing this knows. Both backends' decoders and `inspect` ask here.
    public static func notPNG(_ data: Data) -> ImageError {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if bytes.isEmpty { return .empty }
        if starts([0xFF, 0xD8, 0xFF]) { return .otherFormat("JPEG") }
        if starts(Array("GIF8".utf8)) { return .otherFormat("GIF") }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .otherFormat("WebP") }
        if starts(Array("ftyp".utf8), at: 4) { return .otherFormat(starts(Array("avif".utf8), at: 8) ? "AVIF" : "HEIF/HEIC") }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .otherFormat("TIFF") }
        if starts(Array("BM".utf8)) { return .otherFormat("BMP") }
        return .notPNG
    }

    public var description: String {
        switch self {
        case .empty: return "the file is empty"
        case .notPNG: return "not a PNG file (the PNG signature is missing)"
        case .otherFormat(let format):
            return
                "a \(format) file, not a PNG: art must be PNG; export it as PNG (on a Mac `sips -s format png IN --out OUT.png`, or ImageMagick's `convert IN OUT.png`) and name the .png here"
        case .corrupt(let detail): return "truncated or corrupt PNG (\(detail))"
        case .tooLarge(let w, let h, let limit):
            return "image is \(w)x\(h) = \(w * h) pixels, over the limit of \(limit) pixels"
        case .encodeFailed(let detail): return "PNG encoding failed (\(detail))"
        case .notAFile(let kind): return "not a regular file but \(kind); art must be a PNG file"
        case .unreadable(let failure): return "cannot be read: \(failure.reason)"
        }
    }
}

/// The ASTC encoder's search effort, from quickest to most thorough. Each backend maps it to its
/// encoder's own setting (astcenc's effort, AppleTextureEncoder's error threshold).
public enum ASTCQuality: String, CaseIterable, Sendable {
    case fastest, fast, medium, thorough, exhaustive
}

/// An ASTC encoder or decoder failure, in the encoder's words.
public struct ASTCError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, naming the encoder ("astcenc: …", "AppleTextureEncoder: …").
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    /// Block data whose length is not that of the pixel size's 4×4 blocks.
    public static let wrongBlockCount = ASTCError("ASTC data does not match the pixel size")

    public var description: String { reason }
}

/// No usable font.
public enum TextError: Error, Equatable, CustomStringConvertible {
    case noFont(String)

    public var description: String {
        switch self {
        case .noFont(let detail): return detail
        }
    }
}

extension RGBAImage {
    /// Blends a glyph's coverage mask (`width`×`height`, 0…255) in `color` onto this opaque image
    /// with its top-left at (`left`, `top`); what falls outside the image is dropped. Straight-alpha
    /// "source over" on the sRGB-encoded values, as UIKit draws.
    public mutating func blend(coverage: [UInt8], width: Int, height: Int, color: RGBAColor, left: Int, top: Int) {
        for row in 0..<height where (0..<self.height).contains(top + row) {
            for column in 0..<width where (0..<self.width).contains(left + column) {
                let a = UInt32(coverage[row * width + column])
                guard a > 0 else { continue }
                let i = ((top + row) * self.width + left + column) * 4
                for (c, value) in [color.r, color.g, color.b].enumerated() {
                    pixels[i + c] = UInt8((UInt32(value) * a + UInt32(pixels[i + c]) * (255 - a) + 127) / 255)
                }
            }
        }
    }
}
