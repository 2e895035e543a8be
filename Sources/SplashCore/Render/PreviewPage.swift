import Foundation
import SplashFormat

/// The sign-off page: one self-contained folder (no script, no network) holding `index.html`, the
/// contact sheet, and every snapshot alone at one image pixel per point with its overlays, under
/// the manifest's facts (app, versions, schedules, priorities, encoding, marker, sizes).
public enum PreviewPage {
    /// Where the snapshot images go inside the page's folder.
    static let screensFolder = "screens"
    static let sheetFile = "sheet.png"

    /// Writes the page for `sheet` (drawn with `pointImages`) as `index`, an `.html` file. The new
    /// images are written beside it first; `index.html` is replaced last, so a failure leaves the
    /// previous page whole.
    public static func write(_ sheet: ContactSheet.Sheet, to index: URL) throws {
        let folder = index.deletingLastPathComponent()
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        let staging = folder.appendingPathComponent(".preview-\(UUID().uuidString)")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        defer { try? fileManager.removeItem(at: staging) }
        let screens = staging.appendingPathComponent(screensFolder)
        try fileManager.createDirectory(at: screens, withIntermediateDirectories: false)
        try PNGCodec.encode(sheet.image).write(to: staging.appendingPathComponent(sheetFile))
        var names: [String] = []
        for (number, (tile, png)) in zip(sheet.tiles, sheet.pointImages).enumerated() {
            let s = tile.snapshot
            let name = "\(number + 1)-\(s.pixels.width)x\(s.pixels.height)-\(s.orientation.rawValue)-\(s.appearance.rawValue).png"
            try png.write(to: screens.appendingPathComponent(name))
            names.append(name)
        }
        try Data(html(sheet, images: names).utf8).write(to: staging.appendingPathComponent("index.html"))
        // Swap the new files in: images first, the page that names them last.
        let oldScreens = folder.appendingPathComponent(screensFolder)
        if fileManager.fileExists(atPath: oldScreens.path) { try fileManager.removeItem(at: oldScreens) }
        try fileManager.moveItem(at: screens, to: oldScreens)
        try replace(folder.appendingPathComponent(sheetFile), with: staging.appendingPathComponent(sheetFile))
        try replace(index, with: staging.appendingPathComponent("index.html"))
    }

    /// rename(2): the file at `destination` becomes `source`'s in one step, whether or not it existed.
    static func replace(_ destination: URL, with source: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    }

    /// The page's HTML: facts, legend, sheet, then one figure per snapshot.
    static func html(_ sheet: ContactSheet.Sheet, images: [String]) -> String {
        let manifest = sheet.manifest
        let versions = [manifest.app.minVersion.map { "from \($0)" }, manifest.app.maxVersion.map { "to \($0)" }].compactMap { $0 }
        var facts: [(String, String)] = [("app", manifest.app.bundleID), ("app versions", versions.isEmpty ? "all" : versions.joined(separator: " "))]
        if let serial = manifest.serial { facts.append(("serial", "\(serial)")) }
        facts.append(("generator", manifest.generator))
        var rows = facts.map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }.joined(separator: "\n")
        rows += "\n"
        var campaigns = ""
        for campaign in manifest.campaigns {
            let objects = Set(campaign.snapshots.map(\.object))
            let bytes = Dictionary(campaign.snapshots.map { ($0.object, $0.bytes) }, uniquingKeysWith: { a, _ in a }).values.reduce(0, +)
            let cells = [
                campaign.id,
                campaign.schedule.start.formatted(.iso8601) + " to " + (campaign.schedule.end.map { $0.formatted(.iso8601) } ?? "no end"),
                "\(campaign.priority)",
                [campaign.minVersion.map { "from \($0)" }, campaign.maxVersion.map { "to \($0)" }].compactMap { $0 }.joined(separator: " ").nonEmpty ?? "all",
                campaign.grey ? "yes" : "no", campaign.encoding.rawValue,
                "\(campaign.marker.light) / \(campaign.marker.dark), \(campaign.marker.size) px",
                "\(campaign.snapshots.count)", "\(objects.count)", "\(bytes)",
            ]
            campaigns += "<tr>" + cells.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
        }
        var figures = ""
        for (tile, image) in zip(sheet.tiles, images) {
            let s = tile.snapshot
            let size = s.orientation == .portrait ? s.points : Manifest.Size(width: s.points.height, height: s.points.width)
            // Shown at half a CSS pixel per point: the image holds one pixel per point, crisp on a 2x screen.
            figures += """
                <figure><img src="\(screensFolder)/\(escape(image))" width="\(size.width / 2)" height="\(size.height / 2)" alt="\(escape("\(tile.campaign) \(s.pixels.width)x\(s.pixels.height) \(s.orientation.rawValue) \(s.appearance.rawValue)"))">
                <figcaption><b>\(escape(s.devices.joined(separator: ", ")))</b><br>\(escape(tile.campaign)): \(s.pixels.width)x\(s.pixels.height) px (\(s.points.width)x\(s.points.height) pt @\(s.scale)x), \(s.orientation.rawValue), \(s.appearance.rawValue)<br><code>\(escape(String(s.object.prefix(12))))</code> \(s.bytes) bytes</figcaption></figure>

                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(escape(manifest.campaigns.map(\.id).joined(separator: ", "))) — splashgen preview</title>
            <style>
            body { font: 14px/1.4 sans-serif; margin: 24px; background: #fff; color: #121212; }
            table { border-collapse: collapse; margin: 8px 0 16px; }
            th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
            img.sheet { max-width: 100%; height: auto; border: 1px solid #ccc; }
            figure { display: inline-block; vertical-align: top; margin: 0 16px 16px 0; max-width: 520px; }
            figcaption { font-size: 12px; margin-top: 4px; }
            </style></head>
            <body>
            <h1>\(escape(manifest.campaigns.map(\.id).joined(separator: ", ")))</h1>
            <table>
            \(rows)</table>
            <table><tr><th>campaign</th><th>schedule (UTC)</th><th>priority</th><th>app versions</th><th>grey</th><th>encoding</th><th>marker light / dark</th><th>snapshots</th><th>objects</th><th>bytes</th></tr>
            \(campaigns)</table>
            <p>\(escape(SignOffOverlay.legend)).</p>
            <h2>Contact sheet</h2>
            <img class="sheet" src="\(sheetFile)" width="\(sheet.image.width)" height="\(sheet.image.height)" alt="contact sheet">
            <h2>Every snapshot</h2>
            \(figures)</body></html>

            """
    }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
