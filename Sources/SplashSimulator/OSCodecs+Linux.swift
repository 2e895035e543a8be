#if canImport(CAstcenc)
import CAstcenc
import CPNG
import CStb
import Foundation
import SplashFormat

extension OSCodecs {
    /// The OS's ASTC encoder for one render pass: one astcenc context (about 4 ms and 4 MB of tables
    /// to make) for every image of the pass. Use from one thread.
    package final class ASTCEncoder {
        private let codec: OpaquePointer

        package init() throws(SimulatorError) { codec = try OSCodecs.context(decodeOnly: false) }

        deinit { splash_astc_codec_free(codec) }

        /// ASTC 4×4 blocks of `image`, rows of blocks top first.
        func blocks(_ image: RGBAImage) throws(SimulatorError) -> Data { try OSCodecs.astcBlocks(image, codec: codec) }
    }

    private static func astcBlocks(_ image: RGBAImage, codec: OpaquePointer) throws(SimulatorError) -> Data {
        var blocks = Data(count: splash_astc_block_bytes(UInt32(image.width), UInt32(image.height)))
        let count = blocks.count
        let status = blocks.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBufferPointer { pixels in
                splash_astc_compress(
                    codec, pixels.baseAddress, UInt32(image.width), UInt32(image.height), out.baseAddress?.assumingMemoryBound(to: UInt8.self), count)
            }
        }
        guard status == 0 else { throw .codec("astcenc: " + String(cString: splash_astc_error_string(status))) }
        return blocks
    }

    /// The pixels of `width`×`height` ASTC 4×4 blocks in row order.
    package static func pixels(astc blocks: Data, width: Int, height: Int) throws(SimulatorError) -> RGBAImage {
        guard blocks.count == splash_astc_block_bytes(UInt32(width), UInt32(height)) else { throw .codec("ASTC data of the wrong size") }
        let codec = try context(decodeOnly: true)
        defer { splash_astc_codec_free(codec) }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            blocks.withUnsafeBytes { input in
                splash_astc_decompress(
                    codec, input.baseAddress?.assumingMemoryBound(to: UInt8.self), blocks.count, UInt32(width), UInt32(height), out.baseAddress)
            }
        }
        guard status == 0 else { throw .codec("astcenc: " + String(cString: splash_astc_error_string(status))) }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    fileprivate static func context(decodeOnly: Bool) throws(SimulatorError) -> OpaquePointer {
        var made: OpaquePointer?
        // The fast preset: the OS renders on the phone, in a hurry.
        let status = splash_astc_codec_create(10, decodeOnly ? 1 : 0, &made)
        guard status == 0, let made else { throw .codec("astcenc: " + String(cString: splash_astc_error_string(status))) }
        return made
    }

    /// A PNG's pixels as 8-bit RGBA, or nil when libpng cannot read it or it is over `maxPixels`.
    static func pixels(png data: Data, maxPixels: Int = 8192 * 8192) -> RGBAImage? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let opened = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, data.count) }
        defer { png_image_free(&image) }
        guard opened != 0 else { return nil }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maxPixels else { return nil }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let read = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
        return read != 0 ? RGBAImage(width: width, height: height, pixels: pixels) : nil
    }

    /// `image` as PNG bytes (what run-time libraries leave in the cache).
    static func png(_ rgba: RGBAImage) throws(SimulatorError) -> Data {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(rgba.width)
        image.height = UInt32(rgba.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var size = 0
        _ = rgba.pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(rgba.width * 4), nil) }
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { target in
            rgba.pixels.withUnsafeBytes { png_image_write_to_memory(&image, target.baseAddress, &size, 0, $0.baseAddress, Int32(rgba.width * 4), nil) }
        }
        guard written != 0, size > 0 else { throw .codec("libpng could not write the image") }
        return out.prefix(size)
    }

    /// The part of `image` scaled to `width`×`height` that lands in the `visible` window, filtered
    /// as Core Animation scales an image layer: stb's plain 8-bit triangle filter on the encoded
    /// values, which is what CGContext's interpolation does.
    static func scaled(_ image: RGBAImage, width: Int, height: Int, visible: (x: Int, y: Int, width: Int, height: Int)) -> RGBAImage {
        var scaled = [UInt8](repeating: 0, count: visible.width * visible.height * 4)
        let s0 = Float(visible.x) / Float(width), s1 = Float(visible.x + visible.width) / Float(width)
        let t0 = Float(visible.y) / Float(height), t1 = Float(visible.y + visible.height) / Float(height)
        image.pixels.withUnsafeBufferPointer { input in
            scaled.withUnsafeMutableBufferPointer { output in
                _ = stbir_resize_region(
                    input.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                    output.baseAddress, Int32(visible.width), Int32(visible.height), Int32(visible.width * 4),
                    STBIR_TYPE_UINT8, 4, STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP, STBIR_EDGE_CLAMP,
                    STBIR_FILTER_TRIANGLE, STBIR_FILTER_TRIANGLE, STBIR_COLORSPACE_LINEAR, nil, s0, t0, s1, t1)
            }
        }
        return RGBAImage(width: visible.width, height: visible.height, pixels: scaled)
    }
}
#endif
