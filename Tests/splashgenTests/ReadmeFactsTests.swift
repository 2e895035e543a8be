import Foundation
import SplashCore
import Testing

/// The documentation's numbers about the catalogue (README.md) and the default marker
/// (docs/campaigns-and-bundles.md) are the data's and the code's, read here from the catalogue file
/// and the campaign loader, not typed twice.
@Suite struct ReadmeFactsTests {
    static let readme = document("README.md")
    /// Where the manifest example now lives, with the rest of what a build writes.
    static let campaignsAndBundles = document("docs/campaigns-and-bundles.md")

    static func document(_ path: String) -> String {
        (try? String(contentsOf: CommandLineTests.repo.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    @Test func theCatalogueCountsAreTheCataloguesOwn() throws {
        struct Catalogue: Decodable {
            struct Device: Decodable {
                struct Points: Decodable, Hashable { var width: Double, height: Double }
                var name: String
                var points: Points
                var scale: Int
                var display_zoom_of: String?
                var window_of: Window?
                var iphone_app_on_ipad: Bool?
                struct Window: Decodable {}
            }
            var devices: [Device]
        }
        let url = CommandLineTests.repo.appendingPathComponent("Sources/SplashCore/Resources/devices.json")
        let devices = try JSONDecoder().decode(Catalogue.self, from: Data(contentsOf: url)).devices
        let zoomed = devices.filter { $0.display_zoom_of != nil }.count
        let windows = devices.filter { $0.window_of != nil || $0.iphone_app_on_ipad == true }
        let sizes = Set(devices.map { "\($0.points.width)x\($0.points.height)@\($0.scale)" }).count
        let models = devices.filter { $0.display_zoom_of == nil && $0.window_of == nil && $0.iphone_app_on_ipad != true }
        let first = try #require(models.first?.name), last = try #require(models.last?.name)
        let sentence =
            "\(devices.count) entries: \(models.count)\n  devices, \(zoomed) Display Zoom screens and \(windows.count) windows an iPad caches, \(sizes) screen sizes from the \(first) to the \(last))"
        #expect(Self.readme.contains(sentence), "the README should say: \(sentence)")
    }

    @Test func theManifestExampleShowsDouble11sMarker() throws {
        // The manifest excerpt in docs/campaigns-and-bundles.md is campaigns/double11.yaml's: its marker as the loader reads it.
        let url = CommandLineTests.repo.appendingPathComponent("campaigns/double11.yaml")
        let loaded = try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: url).marker
        let marker = try #require(loaded)
        let line = "\"marker\" : { \"dark\" : \"\(marker.dark.hex)\", \"light\" : \"\(marker.light.hex)\", \"size\" : \(marker.size) }"
        #expect(Self.campaignsAndBundles.contains(line), "docs/campaigns-and-bundles.md should show: \(line)")
    }

    /// Every link from one of the repository's documents to another resolves: the file exists and,
    /// with a `#fragment`, so does a heading of that name (GitHub's anchors). Issue 28, C6: the
    /// example's README pointed at a section the README no longer had.
    @Test func everyLinkBetweenDocumentsResolves() throws {
        let repo = CommandLineTests.repo
        let documents =
            ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "campaigns/README.md", "Examples/AppIntegration/README.md", "Examples/SplashDemo/README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: repo.path + "/docs")).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        func anchors(_ text: String) -> Set<String> {
            Set(
                text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
                    line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                        .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                        .replacingOccurrences(of: " ", with: "-")
                })
        }
        var broken: [String] = []
        for document in documents {
            let text = Self.document(document)
            #expect(!text.isEmpty, "\(document) is missing")
            let folder = repo.appendingPathComponent(document).deletingLastPathComponent()
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? repo.appendingPathComponent(document) : folder.appendingPathComponent(parts[0])
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(document): \(target) (no such file)")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let headings = anchors((try? String(contentsOf: file, encoding: .utf8)) ?? "")
                    if !headings.contains(parts[1]) { broken.append("\(document): \(target) (no such heading)") }
                }
            }
        }
        #expect(broken == [], "\(broken.joined(separator: "\n"))")
    }
}
