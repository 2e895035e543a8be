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

/// Lays out every screen × orientation × appearance of a campaign: pure geometry, no pixels.
public enum SnapshotPlanner {
    /// The snapshots of `campaign`, in stable order (screen, orientation, appearance).
    public static func plan(_ campaign: Campaign, artwork: Artwork, generator: String) throws(CampaignError) -> [PlannedSnapshot] {
        var planned: [PlannedSnapshot] = []
        var problems: [Diagnostic] = []
        for screen in campaign.screens {
            for orientation in campaign.orientations {
                for appearance in campaign.renderedAppearances {
                    let spec = campaign.appearances[appearance]!
                    let pixels = screen.pixels(orientation)
                    var placements: [RenderRecipe.Placement] = []
                    for layer in spec.layers where layer.orientation == nil || layer.orientation == orientation {
                        let item = artwork.items[layer.image]!
                        if let placement = place(layer, item: item, screen: screen, orientation: orientation) {
                            placements.append(placement)
                        } else if !problems.contains(where: { $0.location == layer.source }) {
                            problems.append(
                                Diagnostic(
                                    layer.source, "the margin and safe area leave no room for the art on \(screen.devices[0].name) in \(orientation.rawValue)"))
                        }
                    }
                    let recipe = RenderRecipe(
                        width: pixels.width, height: pixels.height, background: spec.background.hex, placements: placements,
                        grey: campaign.grey, marker: campaign.marker[appearance].hex, markerSize: campaign.marker.size,
                        encoding: campaign.encoding, quality: campaign.astcQuality.rawValue, generator: generator)
                    planned.append(PlannedSnapshot(screen: screen, orientation: orientation, appearance: appearance, recipe: recipe))
                }
            }
        }
        guard problems.isEmpty else { throw CampaignError(problems) }
        return planned
    }

    /// Where a layer lands on one screen, or nil when its region is empty.
    static func place(_ layer: Campaign.Layer, item: Artwork.Item, screen: Screen, orientation: Orientation) -> RenderRecipe.Placement? {
        let scale = Double(screen.scale)
        let canvas = screen.pixels(orientation)
        let insets = layer.safeArea ? screen.safeArea[orientation] : Insets()
        let left = (insets.left + layer.margin) * scale, top = (insets.top + layer.margin) * scale
        let regionWidth = Double(canvas.width) - left - (insets.right + layer.margin) * scale
        let regionHeight = Double(canvas.height) - top - (insets.bottom + layer.margin) * scale
        guard regionWidth >= 1, regionHeight >= 1 else { return nil }
        let artWidth = Double(item.width), artHeight = Double(item.height)
        let factor: Double
        switch layer.fit {
        case .fill: factor = max(regionWidth / artWidth, regionHeight / artHeight)
        case .fit: factor = min(regionWidth / artWidth, regionHeight / artHeight)
        case .none:
            let byWidth = layer.width.map { $0 * scale / artWidth }
            let byHeight = layer.height.map { $0 * scale / artHeight }
            factor = [byWidth, byHeight].compactMap { $0 }.min()!
        }
        let width = max(1, Int((artWidth * factor).rounded())), height = max(1, Int((artHeight * factor).rounded()))
        let (ax, ay) = layer.anchor.unit
        let x = Int((left + (regionWidth - Double(width)) * ax).rounded())
        let y = Int((top + (regionHeight - Double(height)) * ay).rounded())
        return RenderRecipe.Placement(image: layer.image, contentHash: item.contentHash, x: x, y: y, width: width, height: height)
    }
}
