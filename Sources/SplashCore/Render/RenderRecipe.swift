import Foundation
import SplashFormat

/// Everything that decides a snapshot object's bytes. Two snapshots with equal recipes share one
/// object, and the recipe's hash keys the build cache.
public struct RenderRecipe: Encodable, Hashable, Sendable {
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// Opaque background, `#RRGGBB`.
    public var background: String
    /// Art placed over the background, bottom first.
    public var placements: [Placement]
    /// Whether the result is turned to luma.
    public var grey: Bool
    /// Marker colour, `#RRGGBB`, stamped after grey.
    public var marker: String
    /// Marker side in pixels.
    public var markerSize: Int
    /// Output encoding.
    public var encoding: SnapshotEncoding
    /// astcenc effort preset (meaningful for `ktx`).
    public var quality: String
    /// The generator version, so a new splashgen never reuses an old render.
    public var generator: String

    /// One image drawn at a pixel rectangle (which may extend past the canvas and is then cropped).
    public struct Placement: Encodable, Hashable, Sendable {
        /// The image's path as the campaign names it.
        public var image: String
        /// SHA-256 of the image file.
        public var contentHash: String
        /// Left edge in canvas pixels.
        public var x: Int
        /// Top edge in canvas pixels.
        public var y: Int
        /// Drawn width in pixels.
        public var width: Int
        /// Drawn height in pixels.
        public var height: Int

        private enum CodingKeys: String, CodingKey { case contentHash, x, y, width, height }

        /// Makes a placement.
        public init(image: String, contentHash: String, x: Int, y: Int, width: Int, height: Int) {
            self.image = image
            self.contentHash = contentHash
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// SHA-256 of the recipe's canonical JSON (the path of an image does not count, its content does).
    public var key: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return sha256Hex(try! encoder.encode(self))
    }
}

/// One snapshot to produce: which screen, orientation and appearance, and how to draw it.
public struct PlannedSnapshot: Sendable {
    /// The screen (and its devices).
    public var screen: Screen
    /// Portrait or landscape.
    public var orientation: Orientation
    /// Light or dark.
    public var appearance: Appearance
    /// How to draw it.
    public var recipe: RenderRecipe
}
