import Foundation
import SplashFormat

/// The checks of a campaign's art against every screen it is drawn on, on the planner's own
/// geometry (``SnapshotPlanner/place(_:item:screen:orientation:)``) and the renderer's own pixels:
/// art enlarged too far, `fill` art cropped too much, a `keep` rectangle cropped or under the safe
/// area's insets (an error), and a marker the applier could not read over what lies under it.
package enum ArtChecker {
    /// Art enlarged by more than this factor on a screen looks soft (art pixels are spread over
    /// more than 2×2 screen pixels): warned.
    package static let upscaleLimit = 2.0
    /// A `fill` layer that loses more than this share of its art's area off the canvas on a screen
    /// is warned: a quarter is what a 4:3 picture loses on a 16:9 screen, beyond it whole parts of
    /// the picture go.
    package static let cropLimit = 0.25
    /// How many screens a message names before "and N more".
    static let namedScreens = 3
    /// Side of the bottom-right corner rendered for the marker check: more than the classifier reads
    /// at any scale (the 0.5 pt view's pixels and the one beside them).
    static let cornerSide = MarkerReading.cornerSide

    /// Every art problem of `campaign`: warnings, and errors for `keep` rectangles. `snapshots` is
    /// the campaign's plan; `images` holds the decoded art (by path) of at least
    /// ``imagesUnderMarker(_:)``.
    package static func check(
        _ campaign: Campaign, artwork: Artwork, snapshots: [PlannedSnapshot],
        images: [String: RGBAImage]
    ) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for appearance in campaign.renderedAppearances {
            guard let spec = campaign.appearances[appearance] else { continue }
            for layer in spec.layers {
                guard let item = artwork.items[layer.image] else { continue }
                problems += check(layer, item: item, screens: campaign.screens, orientations: campaign.orientations)
            }
        }
        problems += checkMarker(campaign, snapshots: snapshots, images: images)
        return problems.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    }

    /// The images a marker check must see decoded: those drawn over some snapshot's bottom-right corner.
    package static func imagesUnderMarker(_ snapshots: [PlannedSnapshot]) -> Set<String> {
        Set(
            snapshots.flatMap { snapshot in
                cornerRecipe(snapshot.recipe).placements.filter(covers).map(\.image)
            })
    }

    /// One screen × orientation on which a layer is drawn, with where it lands.
    private struct Drawn {
        var screen: Screen
        var orientation: Orientation
        var placement: RenderRecipe.Placement

        var name: String { "\(screen.devices[0].name) \(orientation.rawValue)" }
        var canvas: Manifest.Size { screen.pixels(orientation) }
    }

    /// The upscale, crop and keep checks of one layer.
    private static func check(_ layer: Campaign.Layer, item: Artwork.Item, screens: [Screen], orientations: [Orientation]) -> [Diagnostic] {
        var drawn: [Drawn] = []
        for screen in screens {
            for orientation in orientations where layer.isDrawn(on: screen, orientation) {
                // A layer with no room on a screen is the planner's error, reported there.
                if let placement = SnapshotPlanner.place(layer, item: item, screen: screen, orientation: orientation) {
                    drawn.append(Drawn(screen: screen, orientation: orientation, placement: placement))
                }
            }
        }
        return [upscale(layer, item: item, drawn), crop(layer, drawn), keep(layer, item: item, drawn)].compactMap { $0 }
    }

    /// Art enlarged beyond ``upscaleLimit``: the screens, worst first, and the art size that would do.
    private static func upscale(_ layer: Campaign.Layer, item: Artwork.Item, _ drawn: [Drawn]) -> Diagnostic? {
        let factors = drawn.map { ($0, Double($0.placement.width) / Double(item.width)) }
            .filter { $0.1 > upscaleLimit }.sorted { $0.1 > $1.1 }
        guard let worst = factors.first?.0.placement else { return nil }
        let needed = "\(Int((Double(worst.width) / upscaleLimit).rounded(.up)))×\(Int((Double(worst.height) / upscaleLimit).rounded(.up)))"
        // Art shaped for one orientation, enlarged only in the other: the fix is a layer of its own
        // there (orientation: landscape, as double11's heroes), not bigger art of this shape.
        let enlarged = Set(factors.map(\.0.orientation))
        let fix: String
        if layer.orientation == nil, enlarged.count == 1, let only = enlarged.first, drawn.contains(where: { $0.orientation != only }) {
            fix =
                "every one is \(only.rawValue): give \(only.rawValue) its own layer of \(only.rawValue)-shaped art (orientation: \(only.rawValue)), and this one orientation: \(only == .landscape ? "portrait" : "landscape")"
        } else {
            fix = "it will look soft: art of at least \(needed) pixels stays within \(format(upscaleLimit))×"
        }
        return Diagnostic(
            layer.source,
            "the \(item.width)×\(item.height) art is enlarged more than \(format(upscaleLimit))× on "
                + screens(factors.map { "\($0.0.name) \(format($0.1))×" }) + "; " + fix, severity: .warning)
    }

    /// `fill` art losing more than ``cropLimit`` of its area off the canvas: the screens, worst first.
    /// A layer that names what must stay (`keep`) is held to that instead: the rest may go.
    private static func crop(_ layer: Campaign.Layer, _ drawn: [Drawn]) -> Diagnostic? {
        guard layer.fit == .fill, layer.keep == nil else { return nil }
        let shares = drawn.map { entry -> (Drawn, Double) in
            let p = entry.placement, canvas = entry.canvas
            let visibleWidth = max(0, min(canvas.width, p.x + p.width) - max(0, p.x))
            let visibleHeight = max(0, min(canvas.height, p.y + p.height) - max(0, p.y))
            return (entry, 1 - Double(visibleWidth * visibleHeight) / Double(p.width * p.height))
        }.filter { $0.1 > cropLimit }.sorted { $0.1 > $1.1 }
        guard !shares.isEmpty else { return nil }
        return Diagnostic(
            layer.source,
            "fill cuts off more than \(percent(cropLimit)) of the art on "
                + screens(shares.map { "\($0.0.name) \(percent($0.1))" })
                + "; art shaped like the screens loses less, and keep: [x, y, width, height] names what must stay",
            severity: .warning)
    }

    /// A `keep` rectangle outside the art, or cropped or under the safe area's insets on some screen.
    private static func keep(_ layer: Campaign.Layer, item: Artwork.Item, _ drawn: [Drawn]) -> Diagnostic? {
        guard let keep = layer.keep else { return nil }
        guard keep.x + keep.width <= item.width, keep.y + keep.height <= item.height else {
            return Diagnostic(
                keep.source, "keep \(keep.written) reaches beyond the \(item.width)×\(item.height) art; it is in art pixels, from the art's top-left corner")
        }
        // Floating-point slack: a rectangle that ends exactly on the placement's edge is inside.
        let slack = 0.01
        var failures: [String] = []
        for entry in drawn {
            let p = entry.placement, canvas = entry.canvas
            let scaleX = Double(p.width) / Double(item.width), scaleY = Double(p.height) / Double(item.height)
            let left = Double(p.x) + Double(keep.x) * scaleX, right = Double(p.x) + Double(keep.x + keep.width) * scaleX
            let top = Double(p.y) + Double(keep.y) * scaleY, bottom = Double(p.y) + Double(keep.y + keep.height) * scaleY
            let insets = entry.screen.safeArea[entry.orientation], scale = Double(entry.screen.scale)
            // Each edge: how far the rectangle reaches past the canvas, and past the inset's line.
            let edges: [(String, beyondCanvas: Double, beyondInset: Double)] = [
                ("top", -top, insets.top * scale - top),
                ("left", -left, insets.left * scale - left),
                ("bottom", bottom - Double(canvas.height), bottom - (Double(canvas.height) - insets.bottom * scale)),
                ("right", right - Double(canvas.width), right - (Double(canvas.width) - insets.right * scale)),
            ]
            let cut = edges.filter { $0.beyondCanvas > slack }.map(\.0)
            let under = edges.filter { $0.beyondCanvas <= slack && $0.beyondInset > slack }.map(\.0)
            var what: [String] = []
            if !cut.isEmpty { what.append("cut off at the " + cut.joined(separator: " and ")) }
            if !under.isEmpty { what.append("under the " + under.joined(separator: " and ") + " safe-area inset") }
            if !what.isEmpty { failures.append("\(entry.name) (\(what.joined(separator: ", ")))") }
        }
        guard !failures.isEmpty else { return nil }
        return Diagnostic(
            keep.source,
            "keep \(keep.written) is not fully visible on " + screens(failures)
                + "; choose an anchor or fit that keeps it on screen, or a smaller margin of art around it")
    }

    /// Snapshots whose bottom-right corner, as the renderer draws it, the applier would not read as
    /// their own appearance, reported per appearance at its `background`. No threshold of its own:
    /// the corner goes through the classifier's rule (``MarkerReading``: within an eighth of the
    /// light–dark distance for the right colour, at least half of it for the other).
    private static func checkMarker(_ campaign: Campaign, snapshots: [PlannedSnapshot], images: [String: RGBAImage]) -> [Diagnostic] {
        // A UILaunchScreen app has no marker: its campaign's pictures are known by identity.
        guard let marker = campaign.marker else { return [] }
        var unread: [Appearance: [(name: String, under: RGBAColor, scale: Int)]] = [:]
        for snapshot in snapshots {
            let recipe = cornerRecipe(snapshot.recipe)
            var art: [String: RGBAImage] = [:]
            for placement in recipe.placements { art[placement.contentHash] = images[placement.image] }
            // Only art over the corner is drawn, and ``imagesUnderMarker(_:)`` names all of it.
            guard recipe.placements.allSatisfy({ art[$0.contentHash] != nil || !covers($0) }) else { continue }
            let corner = SnapshotRenderer.render(recipe, art: art)
            let reading = MarkerReading.appearance(
                of: corner, scale: snapshot.screen.scale,
                light: marker.light, dark: marker.dark)
            guard reading != snapshot.appearance else { continue }
            let besideMarker = max(0, MarkerReading.underColumn(width: corner.width, scale: snapshot.screen.scale))
            unread[snapshot.appearance, default: []].append(
                ("\(snapshot.screen.devices[0].name) \(snapshot.orientation.rawValue)", corner[besideMarker, corner.height - 1], snapshot.screen.scale))
        }
        return campaign.renderedAppearances.compactMap { appearance -> Diagnostic? in
            guard let failures = unread[appearance], let spec = campaign.appearances[appearance] else { return nil }
            let colour = marker[appearance]
            let unders = Set(failures.map(\.under.hex)).sorted()
            let largest = failures.map(\.scale).max() ?? 1
            let size = MarkerReading.smallestStamp(scale: largest)
            return Diagnostic(
                spec.backgroundSource,
                "the applier would not read the \(appearance.rawValue) marker \(colour.hex) over \(unders.joined(separator: ", ")) on "
                    + screens(failures.map(\.name))
                    + "; marker.size: \(size) (or a marker colour nearer what lies under it) makes it readable", severity: .warning)
        }
    }

    /// The bottom-right ``cornerSide`` pixels of a recipe's canvas as a recipe of their own.
    private static func cornerRecipe(_ recipe: RenderRecipe) -> RenderRecipe {
        var corner = recipe
        corner.width = min(cornerSide, recipe.width)
        corner.height = min(cornerSide, recipe.height)
        let dx = recipe.width - corner.width, dy = recipe.height - corner.height
        corner.placements = recipe.placements.map { placement in
            var moved = placement
            moved.x -= dx
            moved.y -= dy
            return moved
        }
        return corner
    }

    /// Whether a placement of a corner recipe draws any pixel of the corner.
    private static func covers(_ placement: RenderRecipe.Placement) -> Bool {
        placement.x < cornerSide && placement.y < cornerSide && placement.x + placement.width > 0 && placement.y + placement.height > 0
    }

    /// "N screens: a, b, c and M more" (or "1 screen: a").
    private static func screens(_ names: [String]) -> String {
        let shown = names.prefix(namedScreens).joined(separator: ", ")
        let more = names.count > namedScreens ? " and \(names.count - namedScreens) more" : ""
        return "\(names.count) screen\(names.count == 1 ? "" : "s"): \(shown)\(more)"
    }

    /// `2`, `63.9`.
    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// `25%`.
    private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}
