import Foundation
import SplashFormat

/// Everything that decides a snapshot object's bytes. Two snapshots with equal recipes share one
/// object, and the recipe's hash keys the build cache.
package struct RenderRecipe: Encodable, Hashable, Sendable {
    /// Canvas width in pixels.
    package var width: Int
    /// Canvas height in pixels.
    package var height: Int
    /// Opaque background, `#RRGGBB`.
    package var background: String
    /// Art placed over the background, bottom first.
    package var placements: [Placement]
    /// Whether the result is turned to luma.
    package var grey: Bool
    /// Marker colour, `#RRGGBB`, stamped after grey; nil for an app with no marker view (a
    /// `UILaunchScreen` app), which gets no stamp.
    package var marker: String?
    /// Marker side in pixels (0 with no marker).
    package var markerSize: Int
    /// Output encoding.
    package var encoding: SnapshotEncoding
    /// astcenc effort preset (meaningful for `ktx`).
    package var quality: String
    /// The generator version, so a new splashgen never reuses an old render.
    package var generator: String

    /// One image drawn at a pixel rectangle (which may extend past the canvas and is then cropped).
    package struct Placement: Encodable, Hashable, Sendable {
        /// The image's path as the campaign names it.
        package var image: String
        /// SHA-256 of the image file.
        package var contentHash: String
        /// Left edge in canvas pixels.
        package var x: Int
        /// Top edge in canvas pixels.
        package var y: Int
        /// Drawn width in pixels.
        package var width: Int
        /// Drawn height in pixels.
        package var height: Int

        private enum CodingKeys: String, CodingKey { case contentHash, x, y, width, height }

        /// Makes a placement.
        package init(image: String, contentHash: String, x: Int, y: Int, width: Int, height: Int) {
            self.image = image
            self.contentHash = contentHash
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// SHA-256 of the recipe's canonical JSON (the path of an image does not count, its content does).
    package var key: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return sha256Hex(try! encoder.encode(self))
    }
}

/// One snapshot to produce: which screen, orientation and appearance, and how to draw it.
package struct PlannedSnapshot: Sendable {
    /// The screen (and its devices).
    package var screen: Screen
    /// Portrait or landscape.
    package var orientation: Orientation
    /// Light or dark.
    package var appearance: Appearance
    /// How to draw it.
    package var recipe: RenderRecipe
}
