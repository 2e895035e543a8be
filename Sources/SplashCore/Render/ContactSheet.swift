import Foundation
import SplashFormat

/// One picture of a whole bundle for a designer: every screen × orientation × appearance, decoded
/// from the real objects (ASTC artefacts included), drawn at one common scale so tiles are
/// proportional to the screens, labelled with family, pixel size and variant, light and dark apart.
public enum ContactSheet {
    /// Sheet pixels per snapshot pixel.
    public static let scale = 0.1
    static let margin = 32, gap = 20, maxWidth = 2600
    /// The largest sheet drawn (a whole-catalogue season is about 12 Mpx).
    static let maxSheetPixels = 200_000_000
    static let background = RGBAColor(r: 0x8C, g: 0x8C, b: 0x8C)
    static let ink = RGBAColor(r: 0x12, g: 0x12, b: 0x12)
    /// Timeline bars: one colour per campaign of a season, grey for the originals.
    static let palette = ["#C0392B", "#2471A3", "#7D3C98", "#D68910", "#148F77", "#A04000"].compactMap { RGBAColor(hex: $0) }
    static let originalsColor = RGBAColor(r: 0xE0, g: 0xE0, b: 0xE0)
    static let barHeight = 24, timelineRow = 24 + 6 + 3 * 18 + 12

    /// Where one snapshot landed on the sheet.
    public struct Tile: Sendable {
        /// The snapshot drawn.
        public var snapshot: Manifest.Snapshot
        /// Its rectangle on the sheet.
        public var x: Int, y: Int, width: Int, height: Int
    }

    /// The sheet for a bundle, and where each tile went. Objects are read and decoded one at a time.
    public static func render(_ files: BundleFiles, font: TextRenderer) throws -> (image: RGBAImage, tiles: [Tile]) {
        let manifest = try Manifest.decode(from: files.manifest)
        // Lay out first: sections per appearance, tiles flowing left to right, portrait before landscape.
        var placed: [Tile] = [], texts: [(String, Float, Int, Int)] = []
        var y = margin
        let title = manifest.campaigns.map { "\($0.id)\($0.grey ? " (grey)" : ""), \($0.encoding.rawValue)" }.joined(separator: "; ")
        texts.append((title + " — " + manifest.app.bundleID, 30, margin, y))
        y += 48
        var width = margin * 2 + font.width(title, pixelHeight: 30)
        var bars: [(x: Int, y: Int, width: Int, color: RGBAColor)] = []
        if manifest.campaigns.count > 1 {
            // A season: which campaign shows when (every app version), one bar per span.
            texts.append(("timeline", 26, margin, y))
            y += 40
            var x = margin
            for span in manifest.timeline(appVersion: nil) {
                let lines = [span.campaign.map { "\($0.id) (priority \($0.priority))" } ?? "originals",
                             "from " + span.start.formatted(.iso8601), span.end.map { "to " + $0.formatted(.iso8601) } ?? "on"]
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
        // Sections per campaign (in a season) and appearance; tiles flow left to right, portrait first.
        for campaign in manifest.campaigns {
            for appearance in Appearance.allCases {
                let snapshots = campaign.snapshots.filter { $0.appearance == appearance }
                    .sorted { ($0.orientation, $0.family, $0.pixels.width * $0.pixels.height) < ($1.orientation, $1.family, $1.pixels.width * $1.pixels.height) }
                guard !snapshots.isEmpty else { continue }
                texts.append((manifest.campaigns.count > 1 ? "\(campaign.id): \(appearance.rawValue)" : appearance.rawValue, 26, margin, y))
                y += 40
                var x = margin, rowHeight = 0
                var orientation = snapshots[0].orientation
                for snapshot in snapshots {
                    let w = Int((Double(snapshot.pixels.width) * scale).rounded()), h = Int((Double(snapshot.pixels.height) * scale).rounded())
                    let label = labels(snapshot)
                    let cell = max(w, label.map { font.width($0, pixelHeight: 15) }.max() ?? 0)
                    if x > margin && (x + cell > maxWidth - margin || snapshot.orientation != orientation) {
                        x = margin
                        y += rowHeight + gap
                        rowHeight = 0
                    }
                    orientation = snapshot.orientation
                    placed.append(Tile(snapshot: snapshot, x: x, y: y, width: w, height: h))
                    for (line, text) in label.enumerated() { texts.append((text, 15, x, y + h + 6 + line * 18)) }
                    rowHeight = max(rowHeight, h + 6 + label.count * 18)
                    width = max(width, x + cell + margin)
                    x += cell + gap
                }
                y += rowHeight + gap * 2
            }
        }
        // Sized only from verified objects: every tile's object checked before a sheet pixel is allocated.
        for tile in placed {
            if let problem = SnapshotBundle.check(tile.snapshot, data: files.object(tile.snapshot.object)) { throw problem }
        }
        let height = y + margin - gap
        guard width * height <= maxSheetPixels else { throw ContactSheetError.tooLarge(width: width, height: height, limit: maxSheetPixels) }
        var sheet = RGBAImage(width: width, height: height, fill: background)
        for bar in bars {
            SnapshotRenderer.blend(RGBAImage(width: bar.width, height: barHeight, fill: bar.color), over: &sheet, atX: bar.x, y: bar.y)
        }
        for tile in placed {
            guard let data = files.object(tile.snapshot.object) else { throw BundleProblem.missingObject(tile.snapshot.object) }
            let image = try SnapshotDecoder().decode(data)
            SnapshotRenderer.blend(Resampler.resize(image, width: tile.width, height: tile.height), over: &sheet, atX: tile.x, y: tile.y)
        }
        for (text, size, x, y) in texts { font.draw(text, pixelHeight: size, color: ink, x: x, y: y, on: &sheet) }
        return (sheet, placed)
    }

    /// The two label lines under a tile: family and pixel size; orientation and appearance.
    static func labels(_ snapshot: Manifest.Snapshot) -> [String] {
        let family = snapshot.family == "ipad" ? "iPad" : snapshot.family == "iphone" ? "iPhone" : snapshot.family
        return ["\(family) \(snapshot.pixels.width)x\(snapshot.pixels.height)", "\(snapshot.orientation.rawValue), \(snapshot.appearance.rawValue)"]
    }
}

/// Why a contact sheet was not drawn.
public enum ContactSheetError: Error, Equatable, CustomStringConvertible {
    /// The manifest's snapshots would make a sheet beyond the limit.
    case tooLarge(width: Int, height: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooLarge(let w, let h, let limit): return "the contact sheet would be \(w)x\(h) pixels, more than \(limit); preview a slice of the bundle instead"
        }
    }
}
