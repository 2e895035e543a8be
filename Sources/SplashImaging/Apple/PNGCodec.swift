import Accelerate
import CoreGraphics
import Foundation
import ImageIO
import SplashFormat

/// PNG in and out (the Apple backend) through ImageIO, with vImage converting whatever ImageIO
/// decoded (grey, palette, 16-bit, any colour space) to 8-bit sRGB RGBA with straight alpha.
public enum PNGCodec {
    /// The default ceiling on decoded pixels (8192×8192), checked before any pixel memory is taken.
    public static let defaultMaxPixels = 8192 * 8192

    /// Pixel size from the header alone, after checking the signature.
    public static func size(of data: Data) throws(ImageError) -> (width: Int, height: Int) {
        try pixelSize(of: try source(of: data))
    }

    /// Decodes any PNG (8/16-bit, palette, grey, grey+alpha, interlaced) to straight-alpha RGBA8.
    /// Refuses images over `maxPixels` before allocating them.
    public static func decode(_ data: Data, maxPixels: Int = defaultMaxPixels) throws(ImageError) -> RGBAImage {
        let source = try source(of: data)
        let (width, height) = try pixelSize(of: source)
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        // ImageIO decodes what it can of a truncated file and says so only in the status.
        guard CGImageSourceGetStatusAtIndex(source, 0) == .statusComplete,
            let image = CGImageSourceCreateImageAtIndex(source, 0, [kCGImageSourceShouldCache: false] as CFDictionary)
        else { throw .corrupt("ImageIO: the image data is incomplete or damaged") }
        guard let format = vImage_CGImageFormat(bitsPerComponent: 8, bitsPerPixel: 32, colorSpace: sRGB, bitmapInfo: straightRGBA)
        else { throw .corrupt("vImage: no 8-bit sRGB RGBA format") }
        let buffer: vImage_Buffer
        do { buffer = try vImage_Buffer(cgImage: image, format: format) } catch {
            throw .corrupt("vImage: \(error)")
        }
        defer { free(buffer.data) }
        guard Int(buffer.width) == width, Int(buffer.height) == height, let base = buffer.data else {
            throw .corrupt("vImage: the converted image is not \(width)x\(height)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { out in
            for row in 0..<height {
                (out.baseAddress! + row * width * 4).copyMemory(from: base + row * buffer.rowBytes, byteCount: width * 4)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Encodes straight-alpha RGBA8 as a PNG; the same pixels always give the same bytes.
    public static func encode(_ rgba: RGBAImage) throws(ImageError) -> Data {
        guard let provider = CGDataProvider(data: Data(rgba.pixels) as CFData),
            let image = CGImage(
                width: rgba.width, height: rgba.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: rgba.width * 4,
                space: sRGB, bitmapInfo: straightRGBA, provider: provider, decode: nil, shouldInterpolate: false,
                intent: .defaultIntent)
        else { throw .encodeFailed("Core Graphics: no \(rgba.width)x\(rgba.height) image") }
        let out = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(out as CFMutableData, "public.png" as CFString, 1, nil) else {
            throw .encodeFailed("ImageIO: no PNG destination")
        }
        CGImageDestinationAddImage(destination, image, nil)
        guard CGImageDestinationFinalize(destination) else { throw .encodeFailed("ImageIO: the PNG could not be written") }
        return out as Data
    }

    private static let sRGB = CGColorSpace(name: CGColorSpace.sRGB)!
    private static let straightRGBA = CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue)

    /// An image source over `data`, after checking the PNG signature as the Linux backend does.
    private static func source(of data: Data) throws(ImageError) -> CGImageSource {
        guard SnapshotContent(sniffing: data) == .png else { throw ImageError.notPNG(data) }
        guard let source = CGImageSourceCreateWithData(data as CFData, nil), CGImageSourceGetCount(source) > 0 else {
            throw .corrupt("ImageIO: no image in the data")
        }
        return source
    }

    private static func pixelSize(of source: CGImageSource) throws(ImageError) -> (width: Int, height: Int) {
        guard let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
            let width = properties[kCGImagePropertyPixelWidth] as? Int, let height = properties[kCGImagePropertyPixelHeight] as? Int
        else { throw .corrupt("ImageIO: the header gives no pixel size") }
        return (width, height)
    }
}
