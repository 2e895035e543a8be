import CStb
import SplashFormat

/// Resizes art (the Linux backend) with stb_image_resize: Mitchell when shrinking, Catmull-Rom when enlarging,
/// filtered in linear light (sRGB decoded), weighted by alpha so transparent edges do not darken.
/// Opaque art skips the alpha weighting (every sample would be multiplied and divided by 1).
public enum Resampler {
    /// The part of `image` that lands on a `visible` window of a `width`×`height` scaled copy,
    /// computed without scaling the parts that would be cropped away.
    public static func resize(
        _ image: RGBAImage, width: Int, height: Int,
        visible: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) -> RGBAImage {
        let window = visible ?? (0, 0, width, height)
        if image.width == width && image.height == height && window == (0, 0, width, height) { return image }
        var out = [UInt8](repeating: 0, count: window.width * window.height * 4)
        let opaque = image.isOpaque
        let s0 = Float(window.x) / Float(width), s1 = Float(window.x + window.width) / Float(width)
        let t0 = Float(window.y) / Float(height), t1 = Float(window.y + window.height) / Float(height)
        let status = image.pixels.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stbir_resize_region(
                    input.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                    output.baseAddress, Int32(window.width), Int32(window.height), Int32(window.width * 4),
                    STBIR_TYPE_UINT8, 4, opaque ? STBIR_ALPHA_CHANNEL_NONE : 3, 0, STBIR_EDGE_CLAMP, STBIR_EDGE_CLAMP,
                    STBIR_FILTER_DEFAULT, STBIR_FILTER_DEFAULT, STBIR_COLORSPACE_SRGB, nil, s0, t0, s1, t1)
            }
        }
        // stb fails only when its scratch allocation fails; there is no partial result to use.
        precondition(status == 1, "stb_image_resize could not allocate its scratch memory")
        return RGBAImage(width: window.width, height: window.height, pixels: out)
    }
}
