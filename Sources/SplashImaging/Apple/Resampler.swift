import Accelerate
import Foundation
import SplashFormat

/// Resizes art (the Apple backend) with vImage's separable shears: Mitchell when shrinking,
/// Catmull-Rom when enlarging (the kernels the Linux backend's stb_image_resize uses), filtered in
/// linear light and weighted by alpha (premultiplied floats), edges extended.
public enum Resampler {
    /// The part of `image` that lands on a `visible` window of a `width`×`height` scaled copy,
    /// computed without scaling the parts that would be cropped away.
    public static func resize(
        _ image: RGBAImage, width: Int, height: Int,
        visible: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) -> RGBAImage {
        let window = visible ?? (0, 0, width, height)
        if image.width == width && image.height == height && window == (0, 0, width, height) { return image }
        var source = linearPremultiplied(image)
        // Pass 1, across: every source row, only the window's columns. vImage's shears map a source
        // x to x * scale + translate, so the window's left edge lands at 0.
        var across = [Float](repeating: 0, count: window.width * image.height * 4)
        shear(
            from: &source, width: image.width, height: image.height, into: &across, width: window.width, height: image.height,
            scale: Float(width) / Float(image.width), translate: -Float(window.x), horizontal: true)
        // Pass 2, down: only the window's rows. vImage's coordinates start at the bottom-left corner
        // (Geometry.h, vImageAffineWarp), so the window's bottom edge, height - y - window height
        // from the bottom of the scaled image, lands at 0.
        var down = [Float](repeating: 0, count: window.width * window.height * 4)
        shear(
            from: &across, width: window.width, height: image.height, into: &down, width: window.width, height: window.height,
            scale: Float(height) / Float(image.height), translate: -Float(height - window.y - window.height), horizontal: false)
        return straightSRGB(down, width: window.width, height: window.height)
    }

    /// One separable pass of `scale` with vImage's ARGBFFFF shear (a channel order it ignores).
    private static func shear(
        from source: inout [Float], width sourceWidth: Int, height sourceHeight: Int,
        into target: inout [Float], width targetWidth: Int, height targetHeight: Int,
        scale: Float, translate: Float, horizontal: Bool
    ) {
        let kernel: KernelFunction = scale < 1 ? mitchell : catmullRom
        let flags = vImage_Flags(kvImageEdgeExtend)
        let filterSize = vImageGetResamplingFilterSize(scale, kernel, 2, vImage_Flags(kvImageNoFlags))
        let filter = UnsafeMutableRawPointer.allocate(byteCount: max(filterSize, 16), alignment: 16)
        defer { filter.deallocate() }
        var status = vImageNewResamplingFilterForFunctionUsingBuffer(filter, scale, kernel, 2, nil, vImage_Flags(kvImageNoFlags))
        var background: [Float] = [0, 0, 0, 0]
        source.withUnsafeMutableBytes { input in
            target.withUnsafeMutableBytes { output in
                var src = vImage_Buffer(
                    data: input.baseAddress, height: vImagePixelCount(sourceHeight), width: vImagePixelCount(sourceWidth),
                    rowBytes: sourceWidth * 16)
                var dst = vImage_Buffer(
                    data: output.baseAddress, height: vImagePixelCount(targetHeight), width: vImagePixelCount(targetWidth),
                    rowBytes: targetWidth * 16)
                guard status == kvImageNoError else { return }
                status =
                    horizontal
                    ? vImageHorizontalShear_ARGBFFFF(&src, &dst, 0, 0, translate, 0, filter, &background, flags)
                    : vImageVerticalShear_ARGBFFFF(&src, &dst, 0, 0, translate, 0, filter, &background, flags)
            }
        }
        // vImage fails only on bad arguments or memory; there is no partial result to use.
        precondition(status == kvImageNoError, "vImage could not resample: error \(status)")
    }

    private typealias KernelFunction =
        @convention(c) (
            UnsafePointer<Float>?, UnsafeMutablePointer<Float>?, UInt, UnsafeMutableRawPointer?
        ) -> Void

    /// Mitchell-Netravali (B = C = 1/3) and Catmull-Rom (B = 0, C = 1/2) on [-2, 2], each sampled
    /// window normalised to sum to 1, as vImage's header asks.
    private static let mitchell: KernelFunction = { x, y, count, _ in
        cubic(x, y, count, b: 1 / 3, c: 1 / 3)
    }
    private static let catmullRom: KernelFunction = { x, y, count, _ in
        cubic(x, y, count, b: 0, c: 0.5)
    }

    private static func cubic(_ x: UnsafePointer<Float>?, _ y: UnsafeMutablePointer<Float>?, _ count: UInt, b: Float, c: Float) {
        guard let x, let y, count > 0 else { return }
        var sum: Float = 0
        for i in 0..<Int(count) {
            let t = abs(x[i])
            let value: Float
            if t < 1 {
                value = ((12 - 9 * b - 6 * c) * t * t * t + (-18 + 12 * b + 6 * c) * t * t + (6 - 2 * b)) / 6
            } else if t < 2 {
                value = ((-b - 6 * c) * t * t * t + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t + (8 * b + 24 * c)) / 6
            } else {
                value = 0
            }
            y[i] = value
            sum += value
        }
        guard sum != 0 else { return }
        for i in 0..<Int(count) { y[i] /= sum }
    }

    /// sRGB bytes with straight alpha → linear light, premultiplied, four floats a pixel.
    private static func linearPremultiplied(_ image: RGBAImage) -> [Float] {
        let toLinear = ColorTables.srgbToLinear
        var out = [Float](repeating: 0, count: image.pixels.count)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let alpha = Float(image.pixels[i + 3]) / 255
            out[i] = toLinear[Int(image.pixels[i])] * alpha
            out[i + 1] = toLinear[Int(image.pixels[i + 1])] * alpha
            out[i + 2] = toLinear[Int(image.pixels[i + 2])] * alpha
            out[i + 3] = alpha
        }
        return out
    }

    /// The way back: unpremultiplied, clamped, sRGB-encoded and rounded to bytes.
    private static func straightSRGB(_ floats: [Float], width: Int, height: Int) -> RGBAImage {
        let toSRGB = ColorTables.linear16ToSRGB
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = min(1, max(0, floats[i + 3]))
            for c in 0..<3 {
                let straight = alpha > 0 ? min(1, max(0, floats[i + c] / alpha)) : 0
                pixels[i + c] = toSRGB[Int((straight * 65535).rounded())]
            }
            pixels[i + 3] = UInt8((alpha * 255).rounded())
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
