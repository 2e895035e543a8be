import Foundation
import SplashCore
import Testing

/// The README's numbers about the catalogue and the default marker are the data's and the code's,
/// read here from the catalogue file and a built manifest, not typed twice.
@Suite struct ReadmeFactsTests {
    static let readme = (try? String(contentsOf: CommandLineTests.repo.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

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
        // The README's manifest excerpt is campaigns/double11.yaml's: its marker as the loader reads it.
        let url = CommandLineTests.repo.appendingPathComponent("campaigns/double11.yaml")
        let marker = try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: url).marker
        #expect(Self.readme.contains("\"marker\" : { \"dark\" : \"\(marker.dark.hex)\", \"light\" : \"\(marker.light.hex)\", \"size\" : \(marker.size) }"))
    }
}
