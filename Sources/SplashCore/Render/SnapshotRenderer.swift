import Foundation
import SplashFormat
import SplashImaging

/// Draws a ``RenderRecipe``: background, resampled art (cropped to the canvas), grey, marker.
package enum SnapshotRenderer {
    /// The snapshot's pixels. `art` holds the decoded image of every placement, by the SHA-256 of
    /// its file (so campaigns of a season that name different files by one path never mix).
    /// `blackImages` reproduces the OS bug where every image view of the launch screen renders as
    /// solid black (the sandbox simulator's fault; never used for a build).
    package static func render(_ recipe: RenderRecipe, art: [String: RGBAImage], blackImages: Bool = false) -> RGBAImage {
        var canvas = RGBAImage(width: recipe.width, height: recipe.height, fill: RGBAColor(hex: recipe.background)!)
        for placement in recipe.placements {
            let x0 = max(0, placement.x), y0 = max(0, placement.y)
            let x1 = min(recipe.width, placement.x + placement.width), y1 = min(recipe.height, placement.y + placement.height)
            guard x1 > x0, y1 > y0 else { continue }
            if blackImages {
                blend(RGBAImage(width: x1 - x0, height: y1 - y0, fill: RGBAColor(r: 0, g: 0, b: 0)), over: &canvas, atX: x0, y: y0)
                continue
            }
            let piece = Resampler.resize(
                art[placement.contentHash]!, width: placement.width, height: placement.height,
                visible: (x0 - placement.x, y0 - placement.y, x1 - x0, y1 - y0))
            blend(piece, over: &canvas, atX: x0, y: y0)
        }
        if recipe.grey { makeGrey(&canvas) }
        if let marker = recipe.marker.flatMap(RGBAColor.init(hex:)) { stampMarker(marker, size: recipe.markerSize, on: &canvas) }
        return canvas
    }

    /// Straight-alpha "source over" onto an opaque canvas. Like UIKit's default drawing, the mix
    /// happens on the sRGB-encoded values.
    static func blend(_ piece: RGBAImage, over canvas: inout RGBAImage, atX left: Int, y top: Int) {
        let canvasWidth = canvas.width
        piece.pixels.withUnsafeBufferPointer { src in
            canvas.pixels.withUnsafeMutableBufferPointer { dst in
                for row in 0..<piece.height {
                    var s = row * piece.width * 4
                    var d = ((top + row) * canvasWidth + left) * 4
                    for _ in 0..<piece.width {
                        let alpha = UInt32(src[s + 3])
                        if alpha == 255 {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                        } else if alpha != 0 {
                            for c in 0..<3 { dst[d + c] = mix(src[s + c], over: dst[d + c], alpha: alpha) }
                        }
                        s += 4
                        d += 4
                    }
                }
            }
        }
    }

    /// One channel of straight-alpha "source over": `alpha` of `source` on `destination`, rounded.
    @inline(__always) static func mix(_ source: UInt8, over destination: UInt8, alpha: UInt32) -> UInt8 {
        UInt8((UInt32(source) * alpha + UInt32(destination) * (255 - alpha) + 127) / 255)
    }

    /// One pixel of `color` at `alpha` (0…255) over an opaque canvas; outside the canvas, nothing.
    static func blendPixel(_ color: RGBAColor, alpha: UInt32, into canvas: inout RGBAImage, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < canvas.width, y < canvas.height else { return }
        let i = (y * canvas.width + x) * 4
        canvas.pixels[i] = mix(color.r, over: canvas.pixels[i], alpha: alpha)
        canvas.pixels[i + 1] = mix(color.g, over: canvas.pixels[i + 1], alpha: alpha)
        canvas.pixels[i + 2] = mix(color.b, over: canvas.pixels[i + 2], alpha: alpha)
    }

    /// Replaces every colour by its luminance (Rec. 709 weights on linear light), R = G = B.
    package static func makeGrey(_ image: inout RGBAImage) {
        let toLinear = ColorTables.srgbToLinear
        let toSRGB = ColorTables.linear16ToSRGB
        image.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let y = Rec709.luma(toLinear[Int(p[i])], toLinear[Int(p[i + 1])], toLinear[Int(p[i + 2])])
                let grey = toSRGB[Int((min(1, y) * 65535).rounded())]
                p[i] = grey; p[i + 1] = grey; p[i + 2] = grey
                i += 4
            }
        }
    }

    /// Paints the marker square into the bottom-right corner, where the storyboard's marker view sits.
    static func stampMarker(_ color: RGBAColor, size: Int, on image: inout RGBAImage) {
        for y in max(0, image.height - size)..<image.height {
            for x in max(0, image.width - size)..<image.width {
                let i = (y * image.width + x) * 4
                image.pixels[i] = color.r; image.pixels[i + 1] = color.g; image.pixels[i + 2] = color.b; image.pixels[i + 3] = 255
            }
        }
    }
}
