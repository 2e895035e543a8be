import Foundation
import SplashApplier
import SplashCore

/// What each iOS version writes into a cached launch snapshot (reference §3): the bytes the
/// simulator's OS caches, so the applier meets what a phone really holds.
public enum CacheFormat: String, Sendable {
    /// iOS 17 and later: Apple's ATX container with an `LZFS` chunk (LZFSE-compressed ASTC 4×4).
    case atx
    /// iOS 13 to 16: Khronos KTX 1.1 with `Compression_APPLE`, the level LZFSE-compressed.
    case appleCompressedKTX = "apple-compressed-ktx"
    /// iOS 12 and earlier: plain Khronos KTX 1.1 with ASTC 4×4 (the layout the compressed form
    /// extends; no field sample of an iOS 12 file was available, so this is the modelling choice).
    case ktx

    /// The format an iOS version writes.
    public init(ios: OSVersion) {
        switch ios.major {
        case 17...: self = .atx
        case 13...16: self = .appleCompressedKTX
        default: self = .ktx
        }
    }

    /// The file's bytes for an image: ASTC 4×4 through astcenc (standing for the OS's encoder),
    /// then this container.
    func encode(_ image: RGBAImage, codec: ASTCCodec) throws -> Data {
        let blocks = try codec.compress(image)
        switch self {
        case .atx: return ATXFile(astc4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        case .appleCompressedKTX: return KTXFile(appleCompressedASTC4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        case .ktx: return KTXFile(astc4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        }
    }
}
