import Foundation
import SplashFormat

/// Turns rendered pixels into the bytes of a snapshot object: KTX 1.1 with ASTC 4×4 (what the OS
/// writes) or PNG (what run-time libraries write). Holds one astcenc context: use from one thread.
public final class SnapshotEncoder {
    private let encoding: SnapshotEncoding
    private let codec: ASTCCodec?

    /// An encoder for one encoding and astcenc preset.
    public init(encoding: SnapshotEncoding, quality: ASTCQuality) throws(ASTCError) {
        self.encoding = encoding
        codec = encoding == .ktx ? try ASTCCodec(quality: quality) : nil
    }

    /// The object bytes for `image`.
    public func encode(_ image: RGBAImage) throws -> Data {
        switch encoding {
        case .ktx:
            let blocks = try codec!.compress(image)
            return KTXFile(astc4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        case .png:
            return try PNGCodec.encode(image)
        }
    }
}
