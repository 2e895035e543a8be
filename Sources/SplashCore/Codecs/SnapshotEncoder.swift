import Foundation
import SplashFormat
import SplashImaging

/// Turns rendered pixels into the bytes of a snapshot object: ATX laid out as a launch snapshot
/// (what the OS writes now), KTX 1.1 with Apple's compression or plain (what older releases
/// wrote), all around ASTC 4×4 blocks, or PNG (what run-time libraries write). Holds one astcenc context: use from one thread.
package final class SnapshotEncoder {
    private let encoding: SnapshotEncoding
    private let codec: ASTCCodec?

    /// An encoder for one encoding and astcenc preset.
    package init(encoding: SnapshotEncoding, quality: ASTCQuality) throws(ASTCError) {
        self.encoding = encoding
        codec = encoding.isASTC ? try ASTCCodec(quality: quality) : nil
    }

    /// The object bytes for `image`.
    package func encode(_ image: RGBAImage) throws -> Data {
        // The codec exists exactly when the encoding holds ASTC blocks.
        guard let codec else { return try PNGCodec.encode(image) }
        let blocks = try codec.compress(image)
        switch encoding {
        case .atx: return ATXFile(astc4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        case .ktx: return KTXFile(appleCompressedASTC4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        case .ktxPlain, .png: return KTXFile(astc4x4Width: image.width, height: image.height, blocks: blocks).serialized()
        }
    }
}
