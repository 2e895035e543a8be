import AppleTextureEncoder
import Foundation
import SplashFormat

/// ASTC 4×4 LDR (the Apple backend) through AppleTextureEncoder (libate), public since iOS 10 and
/// macOS 10.12, and most likely the encoder family the OS itself writes its launch snapshots with.
/// One codec may be used from several threads (the encoder is thread-safe), as the Linux one may not.
public final class ASTCCodec {
    private let encoder: at_encoder_t
    private let errorThreshold: Float

    /// A codec that compresses at `quality` (and decompresses).
    public init(quality: ASTCQuality) throws(ASTCError) {
        encoder = try Self.makeEncoder()
        errorThreshold = quality.errorThreshold
    }

    /// A codec that only decompresses (the same encoder object: libate has no lighter kind).
    public init(decodeOnly: Void) throws(ASTCError) {
        encoder = try Self.makeEncoder()
        errorThreshold = 0
    }

    private static func makeEncoder() throws(ASTCError) -> at_encoder_t {
        guard
            let made = at_encoder_create(
                at_texel_format_rgba8_unorm, at_alpha_not_premultiplied,
                at_block_format_astc_4x4_ldr, at_alpha_not_premultiplied, nil)
        else { throw ASTCError("AppleTextureEncoder: no ASTC 4x4 LDR encoder for RGBA8") }
        return made
    }

    /// ASTC 4×4 blocks for `image`, rows of blocks top first.
    public func compress(_ image: RGBAImage) throws(ASTCError) -> Data {
        let count = KTXFile.astc4x4ByteCount(width: image.width, height: image.height)
        // libate wants the block buffer 16-byte aligned, which Data does not promise.
        let blocks = UnsafeMutableRawPointer.allocate(byteCount: max(count, 16), alignment: 16)
        defer { blocks.deallocate() }
        var pixels = image.pixels
        let result = pixels.withUnsafeMutableBytes { texels -> Float in
            var source = at_texel_region_t(
                texels: texels.baseAddress!, validSize: at_size_t(x: UInt32(image.width), y: UInt32(image.height), z: 1),
                rowBytes: image.width * 4, sliceBytes: image.width * image.height * 4)
            var destination = at_block_buffer_t(
                blocks: blocks, rowBytes: (image.width + 3) / 4 * 16, sliceBytes: count)
            return at_encoder_compress_texels(encoder, &source, &destination, errorThreshold, at_flags_default)
        }
        guard result >= 0 else { throw ASTCError(ate: Int(result)) }
        return Data(bytes: blocks, count: count)
    }

    /// The pixels of `width`×`height` ASTC 4×4 `blocks`.
    public func decompress(_ blocks: Data, width: Int, height: Int) throws(ASTCError) -> RGBAImage {
        guard blocks.count == KTXFile.astc4x4ByteCount(width: width, height: height) else { throw .wrongBlockCount }
        let aligned = UnsafeMutableRawPointer.allocate(byteCount: max(blocks.count, 16), alignment: 16)
        defer { aligned.deallocate() }
        blocks.copyBytes(to: aligned.assumingMemoryBound(to: UInt8.self), count: blocks.count)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBytes { texels -> at_error_t in
            var source = at_block_buffer_t(blocks: aligned, rowBytes: (width + 3) / 4 * 16, sliceBytes: blocks.count)
            var destination = at_texel_region_t(
                texels: texels.baseAddress!, validSize: at_size_t(x: UInt32(width), y: UInt32(height), z: 1),
                rowBytes: width * 4, sliceBytes: width * height * 4)
            return at_encoder_decompress_texels(encoder, &source, &destination, at_flags_default)
        }
        guard status == at_error_success else { throw ASTCError(ate: Int(status.rawValue)) }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

extension ASTCQuality {
    /// AppleTextureEncoder's error threshold for the preset: the mean square error per texel below
    /// which it stops trying encodings. Its header calls 2^-10 fast and 2^-15 best quality; 0 tries all.
    var errorThreshold: Float {
        switch self {
        case .fastest: return 0x1p-8
        case .fast: return 0x1p-10
        case .medium: return 0x1p-12
        case .thorough: return 0x1p-15
        case .exhaustive: return 0
        }
    }
}

extension ASTCError {
    /// An `at_error_t` (negative) in words.
    init(ate code: Int) {
        let names = [-1: "invalid parameter", -2: "operation unsupported", -3: "invalid source data", -4: "invalid flag"]
        self.init("AppleTextureEncoder: \(names[code] ?? "error \(code)")")
    }
}
