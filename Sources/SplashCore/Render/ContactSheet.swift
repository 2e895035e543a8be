import Foundation
import SplashFormat
import SplashImaging

/// One picture of a whole bundle for a designer: every screen × orientation × appearance, decoded
/// from the real objects (ASTC artefacts included), drawn at one common scale so tiles are
/// proportional to the screens, labelled with the devices they serve, and overlaid with what the
/// phone puts over them (rounded corners, notch or Dynamic Island, home indicator, the parts
/// outside the safe area). Each object is checked and decoded once, the objects in parallel.
package enum ContactSheet {
    /// Sheet pixels per snapshot pixel, by default.
    package static let scale = 0.1
    static let margin = 32, gap = 20, maxWidth = 2600
    /// A tile's label column is at least this wide, so device names wrap rather than pile up.
    static let minimumCell = 170
    /// The longest side a sheet is laid out to: ImageMagick's default policy and many viewers refuse
    /// images of 16K pixels or more a side, so a sheet that would pass it is drawn smaller.
    package static let maxSide = 16_000
    /// The largest sheet drawn (a whole-catalogue season is about 12 Mpx).
    static let maxSheetPixels = 200_000_000
    package static let background = RGBAColor(r: 0x8C, g: 0x8C, b: 0x8C)
    static let ink = RGBAColor(r: 0x12, g: 0x12, b: 0x12)
    /// Timeline bars: one colour per campaign of a season, grey for the originals.
    static let palette = ["#C0392B", "#2471A3", "#7D3C98", "#D68910", "#148F77", "#A04000"].compactMap { RGBAColor(hex: $0) }
    static let originalsColor = RGBAColor(r: 0xE0, g: 0xE0, b: 0xE0)
    static let barHeight = 24, timelineRow = 24 + 6 + 3 * 18 + 12

    /// What to draw.
    package struct Options: Sendable {
        /// Sheet pixels per snapshot pixel (1 draws every snapshot at full size).
        package var scale: Double
        /// Whether the sign-off overlays are drawn.
        package var overlays: Bool
        /// Only the snapshots this device shows (a catalogue name), when set.
        package var device: String?
        /// Whether each snapshot is also drawn alone, one image pixel per point, as PNG (for a page).
        package var pointImages: Bool

        /// Makes options.
        package init(scale: Double = ContactSheet.scale, overlays: Bool = true, device: String? = nil, pointImages: Bool = false) {
            self.scale = scale
            self.overlays = overlays
            self.device = device
            self.pointImages = pointImages
        }
    }

    /// Where one snapshot landed on the sheet.
    package struct Tile: Sendable {
        /// The campaign it belongs to.
        package var campaign: String
        /// The snapshot drawn.
        package var snapshot: Manifest.Snapshot
        /// Its rectangle on the sheet.
        package var x: Int, y: Int, width: Int, height: Int
    }

    /// A drawn sheet.
    package struct Sheet: Sendable {
        /// The manifest it shows.
        package var manifest: Manifest
        /// The picture.
        package var image: RGBAImage
        /// Where each snapshot went.
        package var tiles: [Tile]
        /// With `pointImages`: each tile's snapshot alone at one pixel per point, with overlays, as PNG.
        package var pointImages: [Data]
        /// Sheet pixels per snapshot pixel: the one asked for, or less where a side would have passed
        /// ``ContactSheet/maxSide``.
        package var scale: Double
    }

    /// The sheet for a bundle. `catalogue` supplies the devices' shapes for the overlays;
    /// `progress` hears of each object decoded.
    package static func render(
        _ files: BundleFiles, font: TextRenderer, catalogue: DeviceCatalogue, options: Options = Options(),
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws -> Sheet {
        guard options.scale.isFinite, (0.01...1).contains(options.scale) else { throw ContactSheetError.badScale(options.scale) }
        let manifest = try Manifest.decode(from: files.manifest)
        let chosen = try select(manifest, device: options.device, catalogue: catalogue)
        // Lay out first: a section per campaign, a row per orientation, light and dark side by side;
        // at a smaller scale when a side would pass what image tools open (``maxSide``).
        func layout(
            scale: Double
        ) -> (placed: [Tile], texts: [(String, Float, Int, Int)], bars: [(x: Int, y: Int, width: Int, color: RGBAColor)], width: Int, height: Int) {
            var placed: [Tile] = [], texts: [(String, Float, Int, Int)] = []
            var y = margin
            let title =
                manifest.campaigns.map { "\($0.id)\($0.grey ? " (grey)" : ""), \($0.encoding.rawValue)" }.joined(separator: "; ")
                + " — " + manifest.app.bundleID + (options.device.map { " — \($0)" } ?? "")
            texts.append((title, 30, margin, y))
            y += 48
            var width = margin * 2 + font.width(title, pixelHeight: 30)
            if options.overlays {
                texts.append((SignOffOverlay.legend, 15, margin, y))
                width = max(width, margin * 2 + font.width(SignOffOverlay.legend, pixelHeight: 15))
                y += 30
            }
            var bars: [(x: Int, y: Int, width: Int, color: RGBAColor)] = []
            if manifest.campaigns.count > 1 {
                // A season: which campaign shows when (every app version), one bar per span.
                texts.append(("timeline", 26, margin, y))
                y += 40
                var x = margin
                let zone = ScheduleTime.seasonTimeZone(manifest.campaigns)
                for span in manifest.timeline(appVersion: nil) {
                    let lines = [
                        span.campaign.map { "\($0.id) (priority \($0.priority))" } ?? "originals",
                        "from " + ScheduleTime.written(span.start, in: zone), span.end.map { "to " + ScheduleTime.written($0, in: zone) } ?? "on",
                    ]
                    let cell = (lines.map { font.width($0, pixelHeight: 15) }.max() ?? 0) + 12
                    if x > margin && x + cell > maxWidth - margin {
                        x = margin
                        y += timelineRow
                    }
                    let index = span.campaign.flatMap { shown in manifest.campaigns.firstIndex { $0.id == shown.id } }
                    bars.append((x, y, cell, index.map { palette[$0 % palette.count] } ?? originalsColor))
                    for (line, text) in lines.enumerated() { texts.append((text, 15, x, y + barHeight + 6 + line * 18)) }
                    width = max(width, x + cell + margin)
                    x += cell + 4
                }
                y += timelineRow + gap
            }
            // One section per campaign; in it a row per orientation, each screen's light and dark side by
            // side, so a device's sheet at full size is a grid (orientations in rows) rather than a column.
            for campaign in manifest.campaigns {
                let snapshots = chosen[campaign.id, default: []].sorted {
                    ($0.orientation, $0.family, $0.pixels.width * $0.pixels.height, $0.appearance)
                        < ($1.orientation, $1.family, $1.pixels.width * $1.pixels.height, $1.appearance)
                }
                guard !snapshots.isEmpty else { continue }
                if manifest.campaigns.count > 1 {
                    texts.append((campaign.id, 26, margin, y))
                    y += 40
                }
                // A screen's light and dark tiles stay on one row: the row may be as wide as the widest pair.
                let cells = snapshots.map { cellWidth($0, scale: scale, font: font) }
                // Each screen's light and dark cells with the gap between them, by orientation and size.
                func screen(_ snapshot: Manifest.Snapshot) -> String { "\(snapshot.orientation)\(snapshot.pixels.width)x\(snapshot.pixels.height)" }
                let pairWidths = Dictionary(grouping: zip(snapshots, cells), by: { screen($0.0) })
                    .mapValues { $0.map(\.1).reduce(0, +) + gap * ($0.count - 1) }
                let rowLimit = max(maxWidth, (pairWidths.values.max() ?? 0) + margin * 2)
                var x = margin, rowHeight = 0
                var orientation = snapshots[0].orientation
                for (index, snapshot) in snapshots.enumerated() {
                    let w = Int((Double(snapshot.pixels.width) * scale).rounded()), h = Int((Double(snapshot.pixels.height) * scale).rounded())
                    let cell = cells[index]
                    let label = labels(snapshot) + wrap(snapshot.devices, width: cell, font: font)
                    // A new row for the other orientation, or when this screen's pair no longer fits.
                    let pairWidth = snapshot.appearance == .light ? pairWidths[screen(snapshot)] ?? cell : cell
                    if x > margin && (x + pairWidth > rowLimit - margin || snapshot.orientation != orientation) {
                        x = margin
                        y += rowHeight + gap
                        rowHeight = 0
                    }
                    orientation = snapshot.orientation
                    placed.append(Tile(campaign: campaign.id, snapshot: snapshot, x: x, y: y, width: w, height: h))
                    for (line, text) in label.enumerated() { texts.append((text, 15, x, y + h + 6 + line * 18)) }
                    rowHeight = max(rowHeight, h + 6 + label.count * 18)
                    width = max(width, x + cell + margin)
                    x += cell + gap
                }
                y += rowHeight + gap * 2
            }
            return (placed, texts, bars, width, y + margin - gap)
        }
        var scale = options.scale
        var laid = layout(scale: scale)
        while max(laid.width, laid.height) > maxSide, scale > 0.01 {
            scale = max(0.01, scale * Double(maxSide) / Double(max(laid.width, laid.height)) * 0.98)
            laid = layout(scale: scale)
        }
        let (placed, texts, bars, width, height) = laid

        guard width * height <= maxSheetPixels else { throw ContactSheetError.tooLarge(width: width, height: height, limit: maxSheetPixels) }
        let drawn = try draw(placed, files: files, catalogue: catalogue, options: options, progress: progress)
        // Sized only from verified objects: every object checked before a sheet pixel is allocated.
        var sheet = RGBAImage(width: width, height: height, fill: background)
        for bar in bars {
            SnapshotRenderer.blend(RGBAImage(width: bar.width, height: barHeight, fill: bar.color), over: &sheet, atX: bar.x, y: bar.y)
        }
        for (tile, image) in zip(placed, drawn.tiles) { SnapshotRenderer.blend(image, over: &sheet, atX: tile.x, y: tile.y) }
        for (text, size, x, y) in texts { font.draw(text, pixelHeight: size, color: ink, x: x, y: y, on: &sheet) }
        return Sheet(manifest: manifest, image: sheet, tiles: placed, pointImages: drawn.pointImages, scale: scale)
    }

    /// The snapshots to draw, by campaign: all of them, or those `device` shows.
    static func select(_ manifest: Manifest, device: String?, catalogue: DeviceCatalogue) throws -> [String: [Manifest.Snapshot]] {
        var chosen: [String: [Manifest.Snapshot]] = [:]
        for campaign in manifest.campaigns {
            chosen[campaign.id] = campaign.snapshots.filter { snapshot in
                device.map { name in snapshot.devices.contains { $0.caseInsensitiveCompare(name) == .orderedSame } } ?? true
            }
        }
        // Points × scale must be the pixel size: a manifest that says otherwise would have the page draw images of any size.
        for snapshot in chosen.values.joined() where !snapshot.pointsMatchPixels {
            throw ContactSheetError.inconsistent(snapshot.object)
        }
        if let device, chosen.values.allSatisfy(\.isEmpty) {
            let served = Set(manifest.campaigns.flatMap(\.snapshots).flatMap(\.devices))
            if catalogue.device(named: device) == nil && !served.contains(where: { $0.caseInsensitiveCompare(device) == .orderedSame }) {
                throw ContactSheetError.noSnapshots(catalogue.unknownDeviceMessage(device))
            }
            throw ContactSheetError.noSnapshots(
                "the bundle has no snapshot for \"\(device)\"; it serves \(served.count) devices (`splashgen inspect` lists them)")
        }
        return chosen
    }

    /// Checks, decodes and scales every tile's object, each object once, in parallel. The first
    /// failing object (in name order) is the error reported; after a failure no new object starts.
    static func draw(
        _ tiles: [Tile], files: BundleFiles, catalogue: DeviceCatalogue, options: Options,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws -> (tiles: [RGBAImage], pointImages: [Data]) {
        let objects = Array(Set(tiles.map(\.snapshot.object))).sorted()
        let users = Dictionary(grouping: tiles.indices, by: { tiles[$0].snapshot.object })
        let results = Locked((tiles: [Int: RGBAImage](), points: [Int: Data](), problems: [Int: any Error](), done: 0))
        defer { if objects.count > 0 { progress?(objects.count, objects.count) } }
        DispatchQueue.concurrentPerform(iterations: objects.count) { index in
            guard results.withLock({ $0.problems.isEmpty }) else { return }
            do {
                let name = objects[index]
                let uses = users[name, default: []]
                guard let first = uses.first else { return }
                let data = try files.verifiedObject(tiles[first].snapshot)
                for user in uses.dropFirst() {
                    if let problem = SnapshotBundle.check(tiles[user].snapshot, data: data) { throw problem }
                }
                let image = try SnapshotDecoder().decode(data)
                for user in users[name, default: []] {
                    let tile = tiles[user]
                    let overlay = options.overlays ? SignOffOverlay(tile.snapshot, catalogue: catalogue) : nil
                    var small = Resampler.resize(image, width: tile.width, height: tile.height)
                    overlay?.draw(on: &small, x: 0, y: 0, width: tile.width, height: tile.height, appearance: tile.snapshot.appearance, outside: background)
                    var png: Data?
                    if options.pointImages {
                        let size = tile.snapshot.orientedPoints
                        var alone = Resampler.resize(image, width: size.width, height: size.height)
                        overlay?.draw(
                            on: &alone, x: 0, y: 0, width: size.width, height: size.height, appearance: tile.snapshot.appearance,
                            outside: RGBAColor(r: 255, g: 255, b: 255))
                        png = try PNGCodec.encode(alone)
                    }
                    results.withLock { results in
                        results.tiles[user] = small
                        if let png { results.points[user] = png }
                    }
                }
                // Counted and reported under the lock, so the last report is the last drawn.
                results.withLock { results in
                    results.done += 1
                    if results.done < objects.count { progress?(results.done, objects.count) }
                }
            } catch {
                results.withLock { $0.problems[index] = error }
            }
        }
        let finished = results.withLock { $0 }
        if let first = finished.problems.min(by: { $0.key < $1.key }) { throw first.value }
        let images = tiles.indices.compactMap { finished.tiles[$0] }
        let points = options.pointImages ? tiles.indices.compactMap { finished.points[$0] } : []
        guard images.count == tiles.count, !options.pointImages || points.count == tiles.count else { throw ContactSheetError.incomplete }
        return (images, points)
    }

    /// The two label lines under a tile: family and pixel size; orientation and appearance.
    /// A tile's column: as wide as the tile, its label lines and its longest device name, and never
    /// narrower than ``minimumCell``.
    static func cellWidth(_ snapshot: Manifest.Snapshot, scale: Double, font: TextRenderer) -> Int {
        let w = Int((Double(snapshot.pixels.width) * scale).rounded())
        return max(w, minimumCell, (labels(snapshot) + snapshot.devices.map { $0 + "," }).map { font.width($0, pixelHeight: 15) }.max() ?? 0)
    }

    package static func labels(_ snapshot: Manifest.Snapshot) -> [String] {
        let family = snapshot.family == "ipad" ? "iPad" : snapshot.family == "iphone" ? "iPhone" : snapshot.family
        return ["\(family) \(snapshot.pixels.width)x\(snapshot.pixels.height)", "\(snapshot.orientation.rawValue), \(snapshot.appearance.rawValue)"]
    }

    /// Device names joined with commas into lines no wider than `width` (a longer name gets a line of its own).
    package static func wrap(_ names: [String], width: Int, font: TextRenderer) -> [String] {
        var lines: [String] = []
        for (index, name) in names.enumerated() {
            let item = name + (index < names.count - 1 ? "," : "")
            if let last = lines.last, font.width(last + " " + item, pixelHeight: 15) <= width {
                lines[lines.count - 1] = last + " " + item
            } else {
                lines.append(item)
            }
        }
        return lines
    }
}

/// Why a contact sheet was not drawn.
package enum ContactSheetError: Error, Equatable, CustomStringConvertible {
    /// The manifest's snapshots would make a sheet beyond the limit.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// `--device` named a device the bundle has nothing for.
    case noSnapshots(String)
    /// A snapshot whose points × scale is not its pixel size.
    case inconsistent(String)
    /// A worker ended without its image (never expected: every failure is thrown first).
    case incomplete
    /// A scale that is not a number from 0.01 to 1.
    case badScale(Double)

    package var description: String {
        switch self {
        case .tooLarge(let w, let h, let limit): return "the contact sheet would be \(w)x\(h) pixels, more than \(limit); preview one device with --device NAME"
        case .noSnapshots(let why): return why
        case .inconsistent(let object): return "bad bundle: the snapshot of object \(object) declares points × scale that are not its pixel size"
        case .incomplete: return "a snapshot was not drawn"
        case .badScale(let scale): return "the sheet's scale must be a number from 0.01 to 1; found \(scale)"
        }
    }
}
