import CPNG
import Foundation
import SplashFormat

/// PNG in and out (the Linux backend) through libpng's simplified `png_image_*` API (the low-level API longjmps on
/// error, which Swift cannot survive). Every PNG kind decodes to 8-bit sRGB RGBA.
public enum PNGCodec {
    /// The default ceiling on decoded pixels (8192×8192), checked before any pixel memory is taken.
    public static let defaultMaxPixels = 8192 * 8192

    /// Pixel size from the header alone, after checking the signature.
    public static func size(of data: Data) throws(ImageError) -> (width: Int, height: Int) {
        try withImage(data) { image throws(ImageError) in (Int(image.width), Int(image.height)) }
    }

    /// Decodes any PNG (8/16-bit, palette, grey, grey+alpha, interlaced) to straight-alpha RGBA8.
    /// Refuses images over `maxPixels` before allocating them.
    public static func decode(_ data: Data, maxPixels: Int = defaultMaxPixels) throws(ImageError) -> RGBAImage {
        try withImage(data) { image throws(ImageError) in
            let width = Int(image.width), height = Int(image.height)
            guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
            // A 16-bit file without gAMA/sRGB is, in practice, sRGB-encoded like every 8-bit one;
            // libpng's simplified API would otherwise take it as linear and brighten it.
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            let sixteenBit = image.format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            if sixteenBit {
                // libpng 1.6.39 scrambles the rows of interlaced 16-bit RGBA when it reduces them to
                // 8-bit itself; its 16-bit linear output is right, so 16-bit files take that path.
                image.format = UInt32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
                var linear = [UInt16](repeating: 0, count: width * height * 4)
                let ok = linear.withUnsafeMutableBytes { buffer in
                    png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
                }
                guard ok != 0 else { throw .corrupt("libpng: " + message(of: image)) }
                straightSRGB(fromPremultipliedLinear: linear, into: &pixels)
            } else {
                image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
                let ok = pixels.withUnsafeMutableBytes { buffer in
                    png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
                }
                guard ok != 0 else { throw .corrupt("libpng: " + message(of: image)) }
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }

    /// libpng's 16-bit output (linear light, alpha-premultiplied) as 8-bit sRGB with straight alpha.
    /// libpng linearises 16-bit data with its power-law gamma (`PNG_GAMMA_sRGB`, 2.2), so the way
    /// back uses the same law: an sRGB-coded 16-bit file then gives exactly its 8-bit twin's values.
    private static func straightSRGB(fromPremultipliedLinear linear: [UInt16], into pixels: inout [UInt8]) {
        let toSRGB = linear16ToGamma22
        for i in stride(from: 0, to: linear.count, by: 4) {
            let alpha = UInt32(linear[i + 3])
            for c in 0..<3 {
                let straight = alpha == 0 ? 0 : min(65535, (UInt32(linear[i + c]) * 65535 + alpha / 2) / alpha)
                pixels[i + c] = toSRGB[Int(straight)]
            }
            pixels[i + 3] = UInt8((alpha + 128) / 257)
        }
    }

    /// Encodes straight-alpha RGBA8 as a PNG; the same pixels always give the same bytes.
    public static func encode(_ rgba: RGBAImage) throws(ImageError) -> Data {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(rgba.width)
        image.height = UInt32(rgba.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var size = 0
        let measured = rgba.pixels.withUnsafeBytes { buffer in
            png_image_write_to_memory(&image, nil, &size, 0, buffer.baseAddress, Int32(rgba.width * 4), nil)
        }
        guard measured != 0 else { throw .encodeFailed("libpng: " + message(of: image)) }
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { target in
            rgba.pixels.withUnsafeBytes { buffer in
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, buffer.baseAddress, Int32(rgba.width * 4), nil)
            }
        }
        guard written != 0 else { throw .encodeFailed("libpng: " + message(of: image)) }
        return out.prefix(size)
    }

    /// Opens the header of `data` with libpng and hands the `png_image` to `body`; always frees it.
    private static func withImage<T>(_ data: Data, _ body: (inout png_image) throws(ImageError) -> T) throws(ImageError) -> T {
        guard SnapshotContent(sniffing: data) == .png else {
            throw ImageError.notPNG(data)
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let result: Result<T, ImageError> = data.withUnsafeBytes { buffer in
            guard png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count) != 0 else {
                return .failure(.corrupt("libpng: " + message(of: image)))
            }
            do throws(ImageError) { return .success(try body(&image)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Linear light in 1/65535 steps → 8-bit with libpng's gamma 1/2.2 (`PNG_GAMMA_sRGB_INVERSE`).
    private static let linear16ToGamma22: [UInt8] = (0..<65536).map { value in
        UInt8((powf(Float(value) / 65535, 0.45455) * 255).rounded())
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
