import Foundation
import SplashFormat

/// Lays out every screen × orientation × appearance of a campaign: pure geometry, no pixels.
package enum SnapshotPlanner {
    /// The snapshots of `campaign`, in stable order (screen, orientation, appearance).
    package static func plan(_ campaign: Campaign, artwork: Artwork, generator: String) throws(CampaignError) -> [PlannedSnapshot] {
        var planned: [PlannedSnapshot] = []
        var problems: [Diagnostic] = []
        for screen in campaign.screens {
            for orientation in campaign.orientations {
                for appearance in campaign.renderedAppearances {
                    let spec = campaign.appearances[appearance]!
                    let pixels = screen.pixels(orientation)
                    var placements: [RenderRecipe.Placement] = []
                    for layer in spec.layers where layer.isDrawn(on: screen, orientation) {
                        let item = artwork.items[layer.image]!
                        if let placement = place(layer, item: item, screen: screen, orientation: orientation, asTheOSLaysOut: campaign.ownScreen) {
                            if max(placement.width, placement.height) > maxScaledSide, !problems.contains(where: { $0.location == layer.source }) {
                                problems.append(
                                    Diagnostic(
                                        layer.source,
                                        "\(layer.image) (\(item.width)×\(item.height)) would be scaled to \(placement.width)×\(placement.height) pixels "
                                            + "on \(screen.devices[0].name) in \(orientation.rawValue), beyond the renderer's \(maxScaledSide)-pixel limit: "
                                            + "use art closer to the screen's shape, or a smaller width or height"))
                            }
                            placements.append(placement)
                        } else if !problems.contains(where: { $0.location == layer.source }) {
                            problems.append(
                                Diagnostic(
                                    layer.source, "the margin and safe area leave no room for the art on \(screen.devices[0].name) in \(orientation.rawValue)"))
                        }
                    }
                    // The manifest lists an own screen's image views, at most Manifest.mostImageViews a snapshot.
                    if campaign.ownScreen, placements.count > Manifest.mostImageViews, let layer = spec.layers.last,
                        !problems.contains(where: { $0.location == layer.source })
                    {
                        problems.append(
                            Diagnostic(
                                layer.source,
                                "the app's own screen draws \(placements.count) layers in \(appearance.rawValue) \(orientation.rawValue), more than the \(Manifest.mostImageViews) image views an applier tells a black render by: merge some art into one image"
                            ))
                    }
                    let recipe = RenderRecipe(
                        width: pixels.width, height: pixels.height, background: spec.background.hex, placements: placements,
                        grey: campaign.grey, marker: campaign.marker?[appearance].hex, markerSize: campaign.marker?.size ?? 0,
                        encoding: campaign.encoding, quality: campaign.astcQuality.rawValue, generator: generator)
                    planned.append(PlannedSnapshot(screen: screen, orientation: orientation, appearance: appearance, recipe: recipe))
                }
            }
        }
        guard problems.isEmpty else { throw CampaignError(problems) }
        return planned
    }

    /// The longest side, in pixels, art may be scaled to before it is cropped to the screen. The
    /// resampler (stb_image_resize) places output pixels in single-precision floats, which lose
    /// the pixel grid on copies millions of pixels long (1×1,000,000 art filling a phone screen
    /// would be scaled to over a billion pixels, and stb aborts). 65,536 keeps every position
    /// exact to 1/128 pixel and still lets 24:1 panoramas fill the largest iPad.
    package static let maxScaledSide = 65_536

    /// Where a layer lands on one screen, or nil when its region is empty. `asTheOSLaysOut` (the
    /// app's own screen, which must match the OS's render of its storyboard) lays landscape out with
    /// the portrait top inset, as UIKit does to safe-area constraints (docs/ios-launch-cache.md §6).
    static func place(
        _ layer: Campaign.Layer, item: Artwork.Item, screen: Screen, orientation: Orientation, asTheOSLaysOut: Bool = false
    ) -> RenderRecipe.Placement? {
        let scale = Double(screen.scale)
        let canvas = screen.pixels(orientation)
        var insets = layer.safeArea ? screen.safeArea[orientation] : Insets()
        if asTheOSLaysOut, layer.safeArea, orientation == .landscape { insets.top = screen.safeArea[.portrait].top }
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
