import Foundation
import SplashFormat
import SplashImaging

/// The sign-off page: an `.html` file and one folder of images beside it, or one file with its
/// images inside (no script, no network either way):
/// the contact sheet and every snapshot alone at one image pixel per point with its overlays, under
/// the manifest's facts (app, versions, schedules, priorities, encoding, marker, sizes).
package enum PreviewPage {
    /// The page's images live in `<page name>-files-<32 hex digits>/` beside it: a new folder per
    /// writing, so nothing a page names ever changes under it.
    static func assetsFolder(of page: URL) -> String { page.deletingPathExtension().lastPathComponent + "-files-" }
    static let sheetFile = "sheet.png"

    /// The largest single-file page written: mail services take attachments of 20–25 MB.
    package static let inlineLimit = 20_000_000

    /// Writes the page for `sheet` (drawn with `pointImages`) at `output` (resolved and checked once by
    /// ``OutputFile/check(_:example:inputs:)``), an `.html` file: a page and
    /// its image folder, or (`inline`) one file with its images inside it, for mailing, when that
    /// stays within ``inlineLimit``. The folder's images go into a new folder first; the page is then
    /// replaced in one rename, so at every instant the page on disk names a complete folder; only
    /// then are the folders of earlier writings of this page removed. Nothing else beside the page
    /// is touched.
    package static func write(_ sheet: ContactSheet.Sheet, to output: URL, inputs: [URL] = [], inline: Bool = false) throws {
        guard sheet.pointImages.count == sheet.tiles.count else { throw PreviewPageError.noPointImages }
        let fileManager = FileManager.default
        let page = try OutputFile.check(output, example: "index.html", inputs: inputs)
        let folder = page.deletingLastPathComponent()
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        let prefix = assetsFolder(of: page)
        let assets = inline ? nil : prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let assetsURL = assets.map { folder.appendingPathComponent($0) }
        let staged = folder.appendingPathComponent(".\(page.lastPathComponent)-\(UUID().uuidString)")
        var done = false
        defer {
            try? fileManager.removeItem(at: staged)
            if !done, let assetsURL { try? fileManager.removeItem(at: assetsURL) }
        }
        var files = [(sheetFile, try PNGCodec.encode(sheet.image))]
        for (number, (tile, png)) in zip(sheet.tiles, sheet.pointImages).enumerated() {
            let s = tile.snapshot
            files.append(("\(number + 1)-\(s.pixels.width)x\(s.pixels.height)-\(s.orientation.rawValue)-\(s.appearance.rawValue).png", png))
        }
        let source: (String) -> String
        if let assets, let assetsURL {
            try fileManager.createDirectory(at: assetsURL, withIntermediateDirectories: false)
            for (name, data) in files { try data.write(to: assetsURL.appendingPathComponent(name)) }
            let link = assets.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? assets
            source = { "\(link)/\($0)" }
        } else {
            let bytes = files.reduce(0) { $0 + ($1.1.count + 2) / 3 * 4 }
            guard bytes <= inlineLimit else { throw PreviewPageError.tooLargeToInline(bytes: bytes, limit: inlineLimit) }
            let encoded = Dictionary(uniqueKeysWithValues: files.map { ($0.0, "data:image/png;base64," + $0.1.base64EncodedString()) })
            source = { encoded[$0] ?? $0 }
        }
        try Data(html(sheet, source: source, images: files.dropFirst().map(\.0)).utf8).write(to: staged)
        try replace(page, with: staged)
        done = true
        // The folders of earlier writings of this page (exactly the name pattern; anything else stays).
        for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where name != assets && name.hasPrefix(prefix) {
            let suffix = name.dropFirst(prefix.count)
            if suffix.count == 32, suffix.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
                try? fileManager.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    /// rename(2): the file at `destination` becomes `source`'s in one step, whether or not it existed.
    static func replace(_ destination: URL, with source: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw FileSystemError(.rename, path: source.path, destination: destination.path, systemCall: "rename", errno: errno)
        }
    }

    /// A schedule in the offset it was written with, then in UTC (UTC alone when the offset is not
    /// recorded, or is UTC).
    static func schedule(_ schedule: Manifest.Schedule) -> String {
        func span(_ zone: TimeZone) -> String {
            ScheduleTime.format(schedule.start, in: zone) + " to " + (schedule.end.map { ScheduleTime.format($0, in: zone) } ?? "no end")
        }
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        guard let written = schedule.writtenTimeZone, written.secondsFromGMT() != 0 else { return span(utc) }
        return span(written) + "; " + span(utc)
    }

    /// An app-version range as the page writes it: "from 5.0", "to 6.1", "from 5.0 to 6.1" or "all".
    package static func versions(_ min: String?, _ max: String?) -> String {
        [min.map { "from \($0)" }, max.map { "to \($0)" }].compactMap { $0 }.joined(separator: " ").nonEmpty ?? "all"
    }

    /// The header's app-version fact: the bundle's own range, saying so when campaigns narrow it, so
    /// that "all" above never reads as a contradiction of a campaign's "from 5.0" below.
    package static func versionFact(_ manifest: Manifest) -> (String, String) {
        let bundle = versions(manifest.app.minVersion, manifest.app.maxVersion)
        let narrowed = manifest.campaigns.filter { $0.minVersion != nil || $0.maxVersion != nil }.map(\.id)
        guard !narrowed.isEmpty else { return ("app versions", bundle) }
        return (
            "app versions", "\(bundle) for the bundle; \(narrowed.joined(separator: ", ")) narrow\(narrowed.count == 1 ? "s" : "") it (see the campaigns below)"
        )
    }

    /// The page's HTML: facts, legend, sheet, then one figure per snapshot.
    static func html(_ sheet: ContactSheet.Sheet, source: (String) -> String, images: [String]) -> String {
        let manifest = sheet.manifest
        var facts: [(String, String)] = [("app", manifest.app.bundleID), versionFact(manifest)]
        if let marker = manifest.app.marker { facts.append(("marker light / dark", "\(marker.light) / \(marker.dark), \(marker.size) px")) }
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
                Self.schedule(campaign.schedule),
                "\(campaign.priority)",
                versions(campaign.minVersion, campaign.maxVersion),
                campaign.grey ? "yes" : "no", campaign.encoding.rawValue,
                "\(campaign.snapshots.count)", "\(objects.count)", "\(bytes)",
            ]
            campaigns += "<tr>" + cells.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
        }
        var figures = ""
        for (tile, image) in zip(sheet.tiles, images) {
            let s = tile.snapshot
            let size = s.orientedPoints
            // Shown at half a CSS pixel per point: the image holds one pixel per point, crisp on a 2x screen.
            figures += """
                <figure><img src="\(escape(source(image)))" width="\(size.width / 2)" height="\(size.height / 2)" alt="\(escape("\(tile.campaign) \(s.pixels.width)x\(s.pixels.height) \(s.orientation.rawValue) \(s.appearance.rawValue)"))">
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
            <table><tr><th>campaign</th><th>schedule (as written; UTC)</th><th>priority</th><th>app versions</th><th>grey</th><th>encoding</th><th>snapshots</th><th>objects</th><th>bytes</th></tr>
            \(campaigns)</table>
            <p>\(escape(SignOffOverlay.legend)).</p>
            <h2>Contact sheet</h2>
            <img class="sheet" src="\(escape(source(sheetFile)))" width="\(sheet.image.width)" height="\(sheet.image.height)" alt="contact sheet">
            <h2>Every snapshot</h2>
            \(figures)</body></html>

            """
    }

    /// Text made safe for HTML content and attribute values.
    package static func escape(_ text: String) -> String {
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

/// Why a page was not written.
package enum PreviewPageError: Error, Equatable, CustomStringConvertible {
    /// The sheet was drawn without the per-snapshot images a page shows.
    case noPointImages
    /// The single-file page would be larger than mail services take.
    case tooLargeToInline(bytes: Int, limit: Int)

    package var description: String {
        switch self {
        case .noPointImages: return "the sheet was drawn without per-snapshot images; draw it with pointImages for a page"
        case .tooLargeToInline(let bytes, let limit):
            return
                "its images would make a single-file page of \(bytes) bytes, more than the \(limit) a mail service takes; write the page and its image folder (without --inline), or one device (--device)"
        }
    }
}
