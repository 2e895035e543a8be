import CAstcenc
import Foundation
import SplashFormat

/// ASTC 4×4 LDR (the Linux backend) through ARM's astcenc. One codec is one astcenc context: use it from one thread.
public final class ASTCCodec {
    private let codec: OpaquePointer

    /// A codec that compresses at `quality` (and decompresses).
    public init(quality: ASTCQuality) throws(ASTCError) {
        var made: OpaquePointer?
        let status = splash_astc_codec_create(quality.effort, 0, &made)
        guard status == 0, let made else { throw ASTCError(astcenc: status) }
        codec = made
    }

    /// A lighter codec that can only decompress.
    public init(decodeOnly: Void) throws(ASTCError) {
        var made: OpaquePointer?
        let status = splash_astc_codec_create(0, 1, &made)
        guard status == 0, let made else { throw ASTCError(astcenc: status) }
        codec = made
    }

    deinit { splash_astc_codec_free(codec) }

    /// ASTC 4×4 blocks for `image`, rows of blocks top first.
    public func compress(_ image: RGBAImage) throws(ASTCError) -> Data {
        var blocks = Data(count: KTXFile.astc4x4ByteCount(width: image.width, height: image.height))
        let count = blocks.count
        let status = blocks.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBufferPointer { pixels in
                splash_astc_compress(
                    codec, pixels.baseAddress, UInt32(image.width), UInt32(image.height),
                    out.bindMemory(to: UInt8.self).baseAddress, count)
            }
        }
        guard status == 0 else { throw ASTCError(astcenc: status) }
        return blocks
    }

    /// The pixels of `width`×`height` ASTC 4×4 `blocks`.
    public func decompress(_ blocks: Data, width: Int, height: Int) throws(ASTCError) -> RGBAImage {
        guard blocks.count == KTXFile.astc4x4ByteCount(width: width, height: height) else { throw .wrongBlockCount }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            blocks.withUnsafeBytes { input in
                splash_astc_decompress(
                    codec, input.bindMemory(to: UInt8.self).baseAddress, blocks.count,
                    UInt32(width), UInt32(height), out.baseAddress)
            }
        }
        guard status == 0 else { throw ASTCError(astcenc: status) }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

extension ASTCQuality {
    /// astcenc's 0…100 effort for the preset (its `ASTCENC_PRE_*` values).
    var effort: Float {
        switch self {
        case .fastest: return 0
        case .fast: return 10
        case .medium: return 60
        case .thorough: return 98
        case .exhaustive: return 100
        }
    }
}

extension ASTCError {
    /// astcenc's error code in its own words.
    init(astcenc code: Int32) { self.init("astcenc: " + String(cString: splash_astc_error_string(code))) }
}
