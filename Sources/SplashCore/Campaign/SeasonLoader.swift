import Foundation
import SplashFormat
import Yams

/// Reads what `splashgen build` is given into the ``Season`` one bundle holds: a campaign file, a
/// season file (`schema`, `name`, `campaigns:` a list of campaign files relative to it), or several
/// campaign files named together. Every problem of every file is reported in one ``CampaignError``.
package struct SeasonLoader: Sendable {
    /// The newest season-file schema this version reads.
    package static let currentSchema = 1

    /// Reads each campaign file.
    package var campaigns: CampaignLoader

    /// Makes a loader over a device catalogue.
    package init(catalogue: DeviceCatalogue) {
        campaigns = CampaignLoader(catalogue: catalogue)
    }

    /// Whether the file at `url` is a season file (a mapping with a `campaigns` key).
    package static func isSeasonFile(_ url: URL) -> Bool {
        guard let text = try? String(contentsOf: url, encoding: .utf8), case .mapping(let top)? = try? Yams.compose(yaml: text) else {
            return false
        }
        return top.keys.contains { $0.string == "campaigns" }
    }

    /// A season file, or a campaign file as a season of one; messages name the file as `displayPath`.
    package func load(contentsOf url: URL, displayPath: String? = nil) throws(CampaignError) -> Season {
        let file = displayPath ?? url.path
        guard Self.isSeasonFile(url) else { return Season(try campaigns.load(contentsOf: url, displayPath: file)) }
        // isSeasonFile read and composed it; a file that changed since is read again here.
        guard let text = try? String(contentsOf: url, encoding: .utf8), let root = try? Yams.compose(yaml: text) else {
            throw CampaignError([Diagnostic(SourceLocation(file: file, line: 1, column: 1, keyPath: ""), "the file could not be read")])
        }
        let reader = YAMLReader(file: file)
        guard let top = reader.mapping(root, "", keys: ["schema", "name", "campaigns"], required: ["schema", "name", "campaigns"]) else {
            throw CampaignError(reader.diagnostics)
        }
        if let node = top["schema"], let schema = reader.int(node, "schema", in: 1...Int.max), schema > Self.currentSchema {
            reader.error(node, "schema", "season schema \(schema) is newer than this splashgen understands (schema \(Self.currentSchema)); update splashgen")
        }
        let name = top["name"].flatMap { reader.bundleName($0, "name") }
        var files: [(url: URL, display: String)] = []
        if let list = top["campaigns"], let items = reader.sequence(list, "campaigns") {
            if items.isEmpty { reader.error(list, "campaigns", "expected at least one campaign file") }
            let folder = url.deletingLastPathComponent()
            let displayFolder = (file as NSString).deletingLastPathComponent
            for (index, item) in items.enumerated() {
                guard let path = reader.string(item, "campaigns[\(index)]") else { continue }
                let campaignURL = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
                guard FileManager.default.fileExists(atPath: campaignURL.path) else {
                    reader.error(item, "campaigns[\(index)]", "no such campaign file \"\(path)\" (paths are relative to the season file's folder)")
                    continue
                }
                guard !Self.isSeasonFile(campaignURL) else {
                    reader.error(item, "campaigns[\(index)]", "\"\(path)\" is a season file; a season lists campaign files")
                    continue
                }
                files.append((campaignURL, path.hasPrefix("/") || displayFolder.isEmpty ? path : (displayFolder as NSString).appendingPathComponent(path)))
            }
        }
        guard reader.diagnostics.isEmpty, let name else { throw CampaignError(reader.diagnostics) }
        return try load(files, name: name)
    }

    /// Campaign files named together, as one bundle called `name`.
    package func load(_ files: [(url: URL, display: String)], name: String) throws(CampaignError) -> Season {
        var loaded: [Campaign] = []
        var diagnostics: [Diagnostic] = []
        for file in files {
            do { loaded.append(try campaigns.load(contentsOf: file.url, displayPath: file.display)) } catch {
                diagnostics += error.diagnostics
            }
        }
        guard loaded.count == files.count else { throw CampaignError(diagnostics) }
        let season = Season(name: name, campaigns: loaded)
        guard season.problems.isEmpty else { throw CampaignError(season.problems) }
        return season
    }
}
