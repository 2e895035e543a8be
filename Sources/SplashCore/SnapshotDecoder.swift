import Foundation
import SplashApplier

/// Reads the pixels of a snapshot file whatever it holds: KTX 1.1 or ATX with ASTC 4×4, plain or
/// LZFSE-compressed (through splashgen's LZFSE and astcenc's decompressor), or PNG (through
/// libpng). It is the applier's decoder on Linux.
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
        case .ktx, .atx:
            let header = try SnapshotHeader.pixelSize(of: data)
            guard header.width * header.height <= maxPixels else { throw ImageError.tooLarge(width: header.width, height: header.height, limit: maxPixels) }
            let (width, height, blocks) = try SnapshotHeader.astcBlocks(of: data)
            return try ASTCCodec(decodeOnly: ()).decompress(blocks, width: width, height: height)
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
