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
            }
            var devices: [Device]
        }
        let url = CommandLineTests.repo.appendingPathComponent("Sources/SplashCore/Resources/devices.json")
        let devices = try JSONDecoder().decode(Catalogue.self, from: Data(contentsOf: url)).devices
        let zoomed = devices.filter { $0.display_zoom_of != nil }.count
        let sizes = Set(devices.map { "\($0.points.width)x\($0.points.height)@\($0.scale)" }).count
        let first = try #require(devices.first?.name), last = try #require(devices.last?.name)
        let sentence =
            "\(devices.count) entries: \(devices.count - zoomed)\n  devices and \(zoomed) Display Zoom screens, \(sizes) screen sizes from the \(first) to the \(last))"
        #expect(Self.readme.contains(sentence), "the README should say: \(sentence)")
    }

    @Test func theManifestExampleShowsDouble11sMarker() throws {
        // The manifest excerpt in docs/campaigns-and-bundles.md is campaigns/double11.yaml's: its marker as the loader reads it.
        let url = CommandLineTests.repo.appendingPathComponent("campaigns/double11.yaml")
        let marker = try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: url).marker
        let line = "\"marker\" : { \"dark\" : \"\(marker.dark.hex)\", \"light\" : \"\(marker.light.hex)\", \"size\" : \(marker.size) }"
        #expect(Self.campaignsAndBundles.contains(line), "docs/campaigns-and-bundles.md should show: \(line)")
    }
}
