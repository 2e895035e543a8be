#if canImport(ImageIO) && canImport(CoreGraphics)
import CoreGraphics
import Foundation
import ImageIO
import SplashFormat

/// The applier's decoder in an app: ImageIO and Core Graphics read what the OS caches. KTX and ATX
/// files are unwrapped first (LZFSE inflated by SplashFormat) and handed to ImageIO as a plain
/// Khronos KTX 1.1 file of ASTC 4×4 blocks, which ImageIO reads on devices with ASTC; PNG and JPEG
/// (other libraries' leftovers) go to ImageIO as they are. Written for Apple platforms and compiled
/// by the macOS CI job; this project's Linux machines cannot compile it.
public struct ImageIODecoder: SnapshotPixelDecoder {
    /// The largest image decoded, in pixels: beyond every screen.
    public var maxPixels = 64 << 20

    /// Makes a decoder.
    public init() {}

    /// The pixels of a cached snapshot, 8-bit sRGB with straight alpha.
    public func decode(_ data: Data) throws -> RGBAImage {
        let size = try SnapshotHeader.pixelSize(of: data)
        guard size.width * size.height <= maxPixels else { throw ImageIODecoderError.tooLarge(width: size.width, height: size.height) }
        let source: Data
        switch SnapshotContent(sniffing: data) {
        case .ktx, .atx:
            let (width, height, blocks) = try SnapshotHeader.astcBlocks(of: data)
            source = KTXFile(astc4x4Width: width, height: height, blocks: blocks).serialized()
        case .png, .jpeg:
            source = data
        case nil:
            throw ImageIODecoderError.unrecognised
        }
        guard let imageSource = CGImageSourceCreateWithData(source as CFData, nil),
            let image = CGImageSourceCreateImageAtIndex(imageSource, 0, nil)
        else {
            throw ImageIODecoderError.notDecoded
        }
        guard image.width == size.width, image.height == size.height else {
            throw ImageIODecoderError.sizeMismatch(header: "\(size.width)x\(size.height)", decoded: "\(image.width)x\(image.height)")
        }
        return try Self.pixels(of: image)
    }

    /// Draws `image` into an sRGB RGBA8 context (premultiplied, as Core Graphics draws) and returns
    /// straight-alpha pixels.
    private static func pixels(of image: CGImage) throws -> RGBAImage {
        let width = image.width, height = image.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        guard let space = CGColorSpace(name: CGColorSpace.sRGB) else { throw ImageIODecoderError.notDecoded }
        let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
            guard
                let context = CGContext(
                    data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                    bytesPerRow: width * 4, space: space,
                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
            else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        guard drawn else { throw ImageIODecoderError.notDecoded }
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[i + 3])
            guard alpha != 0, alpha != 255 else { continue }
            for c in 0..<3 { pixels[i + c] = UInt8(min(255, (Int(pixels[i + c]) * 255 + alpha / 2) / alpha)) }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

/// Why ``ImageIODecoder`` could not read a file.
public enum ImageIODecoderError: Error, Equatable, CustomStringConvertible {
    /// The header declares more pixels than the decoder takes.
    case tooLarge(width: Int, height: Int)
    /// Not KTX, ATX, PNG or JPEG.
    case unrecognised
    /// ImageIO could not decode it (on a Mac without ASTC, a KTX of ASTC blocks is one such case).
    case notDecoded
    /// ImageIO's image is not the size the header declares.
    case sizeMismatch(header: String, decoded: String)

    public var description: String {
        switch self {
        case .tooLarge(let w, let h): return "the file declares \(w)x\(h) pixels, more than the decoder takes"
        case .unrecognised: return "not a snapshot file: neither KTX, ATX, PNG nor JPEG"
        case .notDecoded: return "ImageIO could not decode the file"
        case .sizeMismatch(let header, let decoded): return "ImageIO decoded \(decoded) pixels where the header declares \(header)"
        }
    }
}
#endif
