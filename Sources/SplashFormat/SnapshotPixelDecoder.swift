import Foundation

/// Turns a cached snapshot file into pixels, so the applier can read the marker and the light.
/// The applier stays Foundation-only; the platform supplies the codec: splashgen passes astcenc and
/// libpng (`SnapshotDecoder` in SplashCore), an app passes its system image decoder. It is called
/// only when the OS has (re)generated the cache, never on the no-op path.
public protocol SnapshotPixelDecoder: Sendable {
    /// The decoded image, or an error when the file cannot be read.
    func decode(_ data: Data) throws -> RGBAImage
    /// What telling light from dark needs, and no more: the bottom-right corner and the mean light.
    /// The default decodes the whole image; a decoder can read just the blocks it needs.
    func sample(_ data: Data) throws -> SnapshotSample
    /// The samples of `count` files, whose bytes `read` gives one at a time, in order (a file's
    /// bytes are dropped before the next is read). A decoder can share work between them: splashgen's
    /// makes one codec context for all the files, once every file's blocks are picked. The default
    /// samples each in turn.
    func samples(count: Int, read: (Int) throws -> Data) -> [Result<SnapshotSample, any Error>]
}

extension SnapshotPixelDecoder {
    public func sample(_ data: Data) throws -> SnapshotSample { SnapshotSample(image: try decode(data)) }

    public func samples(count: Int, read: (Int) throws -> Data) -> [Result<SnapshotSample, any Error>] {
        (0..<count).map { index in Result { try sample(read(index)) } }
    }
}

/// The part of a snapshot the classifier reads.
public struct SnapshotSample: Sendable {
    /// The image's full size in pixels.
    public var width: Int
    public var height: Int
    /// Its bottom-right corner (at least the last 5×5 pixels, fewer only on a smaller image), rows top first.
    public var corner: RGBAImage
    /// Mean Rec. 709 luma of the sRGB values over a sparse sample, 0…1.
    public var luma: Double

    /// A sample of already decoded pixels.
    public init(width: Int, height: Int, corner: RGBAImage, luma: Double) {
        self.width = width
        self.height = height
        self.corner = corner
        self.luma = luma
    }

    /// The sample of a whole decoded image: its last 8×8 pixels (``MarkerReading/cornerSide``) and
    /// the luma of a 64-step grid.
    public init(image: RGBAImage) {
        let side = MarkerReading.cornerSide
        let w = min(side, image.width), h = min(side, image.height)
        var corner: [UInt8] = []
        corner.reserveCapacity(w * h * 4)
        for y in (image.height - h)..<image.height {
            let start = (y * image.width + image.width - w) * 4
            corner.append(contentsOf: image.pixels[start..<start + w * 4])
        }
        self.init(
            width: image.width, height: image.height, corner: RGBAImage(width: w, height: h, pixels: corner),
            luma: Self.meanLuma(image))
    }

    /// Rec. 709 luma of sRGB-encoded values, 0…1: enough to tell light from dark, not a colour science.
    package static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
        Rec709.luma(Double(r), Double(g), Double(b)) / 255
    }

    /// Mean Rec. 709 luma of the sRGB values, on a sparse grid (enough to tell light from dark).
    package static func meanLuma(_ image: RGBAImage) -> Double {
        var sum = 0.0, count = 0
        let step = max(1, min(image.width, image.height) / 64)
        for y in stride(from: 0, to: image.height, by: step) {
            for x in stride(from: 0, to: image.width, by: step) {
                let c = image[x, y]
                sum += luma(c.r, c.g, c.b)
                count += 1
            }
        }
        return count == 0 ? 0 : sum / Double(count)
    }
}
