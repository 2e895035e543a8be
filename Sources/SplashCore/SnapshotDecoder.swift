import Foundation
import SplashApplier

/// Reads the pixels of a snapshot file whatever it holds: KTX 1.1 with ASTC 4×4 (through
/// astcenc's decompressor) or PNG (through libpng). It is the applier's decoder on Linux.
public struct SnapshotDecoder: SnapshotPixelDecoder {
    /// The ceiling on decoded pixels.
    public var maxPixels: Int

    /// Makes a decoder.
    public init(maxPixels: Int = PNGCodec.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// The decoded image.
    public func decode(_ data: Data) throws -> RGBAImage {
        switch SnapshotContent(sniffing: data) {
        case .png:
            return try PNGCodec.decode(data, maxPixels: maxPixels)
        case .ktx:
            let file = try KTXFile(parsing: data)
            guard file.glInternalFormat == KTXFile.astc4x4RGBA else {
                throw SnapshotDecodeError.unsupported(String(format: "KTX glInternalFormat 0x%04X (only ASTC 4x4, 0x93B0, is read)", file.glInternalFormat))
            }
            guard !file.isAppleCompressed else {
                throw SnapshotDecodeError.unsupported("LZFSE-compressed KTX level data (Compression_APPLE)")
            }
            let width = Int(file.pixelWidth), height = Int(file.pixelHeight)
            guard width * height <= maxPixels else { throw ImageError.tooLarge(width: width, height: height, limit: maxPixels) }
            return try ASTCCodec(decodeOnly: ()).decompress(file.levelData, width: width, height: height)
        case .atx:
            throw SnapshotDecodeError.unsupported("Apple ATX container")
        case .jpeg:
            throw SnapshotDecodeError.unsupported("JPEG")
        case nil:
            throw SnapshotDecodeError.unrecognised
        }
    }
}

/// Why a snapshot file could not be decoded.
public enum SnapshotDecodeError: Error, Equatable, CustomStringConvertible {
    /// A known format splashgen does not decode.
    case unsupported(String)
    /// Not KTX, ATX, PNG or JPEG.
    case unrecognised

    public var description: String {
        switch self {
        case .unsupported(let what): return "cannot decode \(what)"
        case .unrecognised: return "not a snapshot file: neither KTX, ATX, PNG nor JPEG"
        }
    }
}
