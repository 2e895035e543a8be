#if canImport(AppleTextureEncoder)
import AppleTextureEncoder
import CoreGraphics
import Foundation
import ImageIO
import SplashFormat

extension OSCodecs {
    /// The OS's ASTC encoder for one render pass: AppleTextureEncoder at its fast setting (the OS
    /// renders on the phone, in a hurry). Thread-safe, as libate's encoders are.
    final class ASTCEncoder {
        private let encoder: at_encoder_t

        init() throws(SimulatorError) { encoder = try OSCodecs.encoder() }

        /// ASTC 4×4 blocks of `image`, rows of blocks top first.
        func blocks(_ image: RGBAImage) throws(SimulatorError) -> Data {
            let count = KTXFile.astc4x4ByteCount(width: image.width, height: image.height)
            let blocks = UnsafeMutableRawPointer.allocate(byteCount: max(count, 16), alignment: 16)
            defer { blocks.deallocate() }
            var pixels = image.pixels
            let error = pixels.withUnsafeMutableBytes { texels -> Float in
                var source = at_texel_region_t(
                    texels: texels.baseAddress!, validSize: at_size_t(x: UInt32(image.width), y: UInt32(image.height), z: 1),
                    rowBytes: image.width * 4, sliceBytes: image.width * image.height * 4)
                var target = at_block_buffer_t(blocks: blocks, rowBytes: (image.width + 3) / 4 * 16, sliceBytes: count)
                return at_encoder_compress_texels(encoder, &source, &target, 0x1p-10, at_flags_default)
            }
            guard error >= 0 else { throw .codec("AppleTextureEncoder: error \(Int(error))") }
            return Data(bytes: blocks, count: count)
        }
    }

    private static func encoder() throws(SimulatorError) -> at_encoder_t {
        guard
            let encoder = at_encoder_create(
                at_texel_format_rgba8_unorm, at_alpha_not_premultiplied, at_block_format_astc_4x4_ldr, at_alpha_not_premultiplied, nil)
        else { throw .codec("AppleTextureEncoder: no ASTC 4x4 encoder") }
        return encoder
    }

    /// The pixels of `width`×`height` ASTC 4×4 blocks in row order, as the GPU would sample them.
    static func pixels(astc blocks: Data, width: Int, height: Int) throws(SimulatorError) -> RGBAImage {
        guard blocks.count == KTXFile.astc4x4ByteCount(width: width, height: height) else { throw .codec("ASTC data of the wrong size") }
        let encoder = try encoder()
        let aligned = UnsafeMutableRawPointer.allocate(byteCount: max(blocks.count, 16), alignment: 16)
        defer { aligned.deallocate() }
        blocks.copyBytes(to: aligned.assumingMemoryBound(to: UInt8.self), count: blocks.count)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBytes { texels -> at_error_t in
            var source = at_block_buffer_t(blocks: aligned, rowBytes: (width + 3) / 4 * 16, sliceBytes: blocks.count)
            var target = at_texel_region_t(
                texels: texels.baseAddress!, validSize: at_size_t(x: UInt32(width), y: UInt32(height), z: 1),
                rowBytes: width * 4, sliceBytes: width * height * 4)
            return at_encoder_decompress_texels(encoder, &source, &target, at_flags_default)
        }
        guard status == at_error_success else { throw .codec("AppleTextureEncoder: error \(status.rawValue)") }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A PNG's pixels as 8-bit RGBA, or nil when ImageIO cannot read it or it is over `maxPixels`.
    static func pixels(png data: Data, maxPixels: Int = 8192 * 8192) -> RGBAImage? {
        guard let source = CGImageSourceCreateWithData(data as CFData, nil),
            CGImageSourceGetStatusAtIndex(source, 0) == .statusComplete,
            let image = CGImageSourceCreateImageAtIndex(source, 0, nil)
        else { return nil }
        let width = image.width, height = image.height
        guard width > 0, height > 0, width * height <= maxPixels else { return nil }
        var canvas = RGBAImage(width: width, height: height)
        guard draw(image, width: width, height: height, into: &canvas, interpolation: .none) else { return nil }
        return canvas
    }

    /// `image` as PNG bytes (what run-time libraries leave in the cache).
    static func png(_ rgba: RGBAImage) throws(SimulatorError) -> Data {
        let out = NSMutableData()
        guard let image = cgImage(rgba),
            let destination = CGImageDestinationCreateWithData(out as CFMutableData, "public.png" as CFString, 1, nil)
        else { throw .codec("ImageIO could not write the image") }
        CGImageDestinationAddImage(destination, image, nil)
        guard CGImageDestinationFinalize(destination) else { throw .codec("ImageIO could not write the image") }
        return out as Data
    }

    /// The part of `image` scaled to `width`×`height` that lands in the `visible` window, drawn
    /// as Core Animation draws an image layer: CGContext at its default interpolation.
    static func scaled(_ image: RGBAImage, width: Int, height: Int, visible: (x: Int, y: Int, width: Int, height: Int)) -> RGBAImage {
        var canvas = RGBAImage(width: visible.width, height: visible.height)
        guard let picture = cgImage(image) else { return canvas }
        // Core Graphics' origin is the bottom-left corner: the window's top row is `visible.y` below
        // the scaled image's top, so the image is drawn that far up from the window's bottom.
        let rect = CGRect(
            x: -visible.x, y: visible.y + visible.height - height, width: width, height: height)
        _ = draw(picture, in: rect, width: visible.width, height: visible.height, into: &canvas, interpolation: .default)
        return canvas
    }

    private static let sRGB = CGColorSpace(name: CGColorSpace.sRGB)!

    /// Straight-alpha RGBA8 as a CGImage.
    private static func cgImage(_ rgba: RGBAImage) -> CGImage? {
        guard let provider = CGDataProvider(data: Data(rgba.pixels) as CFData) else { return nil }
        return CGImage(
            width: rgba.width, height: rgba.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: rgba.width * 4, space: sRGB,
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue), provider: provider, decode: nil,
            shouldInterpolate: true, intent: .defaultIntent)
    }

    private static func draw(
        _ image: CGImage, width: Int, height: Int, into canvas: inout RGBAImage, interpolation: CGInterpolationQuality
    ) -> Bool {
        draw(image, in: CGRect(x: 0, y: 0, width: width, height: height), width: width, height: height, into: &canvas, interpolation: interpolation)
    }

    /// Draws `image` into `rect` of a `width`×`height` sRGB bitmap (premultiplied, as Core Graphics
    /// requires) and leaves its pixels, straight again, in `canvas`.
    private static func draw(
        _ image: CGImage, in rect: CGRect, width: Int, height: Int, into canvas: inout RGBAImage, interpolation: CGInterpolationQuality
    ) -> Bool {
        var premultiplied = [UInt8](repeating: 0, count: width * height * 4)
        let drawn = premultiplied.withUnsafeMutableBytes { buffer -> Bool in
            guard
                let context = CGContext(
                    data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4, space: sRGB,
                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
            else { return false }
            context.interpolationQuality = interpolation
            context.draw(image, in: rect)
            return true
        }
        guard drawn else { return false }
        for i in stride(from: 0, to: premultiplied.count, by: 4) {
            let alpha = UInt32(premultiplied[i + 3])
            for c in 0..<3 {
                canvas.pixels[i + c] = alpha == 0 ? 0 : UInt8(min(255, (UInt32(premultiplied[i + c]) * 255 + alpha / 2) / alpha))
            }
            canvas.pixels[i + 3] = UInt8(alpha)
        }
        return true
    }
}
#endif
