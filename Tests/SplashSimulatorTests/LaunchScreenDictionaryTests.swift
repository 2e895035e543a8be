// Expectations: docs/ios-launch-cache.md §10 (SplashBoard 26.1, decompiled: a UILaunchScreen app is
// drawn by the storyboard's renderer, its UIColorName colour over the window and its image centred
// at its natural size, no marker view; systemBackground when the colour is missing), §5 and §6 as
// ScenarioTests use them; the originals, byte for byte; each file's appearance against the
// simulated OS's own table of which file is which.
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// An app with no storyboard: its launch screen is the Info.plist `UILaunchScreen` dictionary (what
/// Xcode's templates generate, and the shape Xcode 27 pushes every app towards).
@Suite struct LaunchScreenDictionaryTests {
    let opening = date("2026-11-10T21:00:00+08:00")
    let during = date("2026-11-11T09:00:00+08:00")
    let after = date("2026-11-12T03:00:00+08:00")

    /// The bottom-right `side`×`side` pixels of a picture, as distinct colours.
    static func corner(_ image: RGBAImage, side: Int = 8) -> Set<RGBAColor> {
        var colours: Set<RGBAColor> = []
        for y in (image.height - side)..<image.height { for x in (image.width - side)..<image.width { colours.insert(image[x, y]) } }
        return colours
    }

    /// Whether every colour is within `tolerance` of `colour` on each channel (ASTC's rounding).
    static func near(_ colours: Set<RGBAColor>, _ colour: RGBAColor, tolerance: Int = 3) -> Bool {
        colours.allSatisfy {
            abs(Int($0.r) - Int(colour.r)) <= tolerance && abs(Int($0.g) - Int(colour.g)) <= tolerance && abs(Int($0.b) - Int(colour.b)) <= tolerance
        }
    }

    @Test func aLaunchScreenAppGetsTheCampaignWithNoMarkerAndItsOriginalsBack() throws {
        let root = temporaryFolder("installed")
        let sim = SandboxSimulator(root: root)
        _ = try sim.install(launchScreen: try SandboxSimulator.launchScreenDictionary, version: "5.2", build: "100", device: "iPhone 15", ios: "17.0")
        let originals = try sim.cachedFiles()
        let table = try sim.model().variants
        #expect(originals.count == 4 && Set(table.values).count == 4, "portrait and landscape, light and dark")
        // The OS drew no marker: the corner of each original is its appearance's background.
        let decoder = SnapshotDecoder()
        let background: [Appearance: RGBAColor] = [.light: RGBAColor(r: 0xF2, g: 0xF2, b: 0xF7), .dark: RGBAColor(r: 0, g: 0, b: 0)]
        for (name, data) in originals {
            let variant = try #require(table[name])
            #expect(Self.near(Self.corner(try decoder.decode(data)), background[variant.appearance]!), "\(name): no marker in the OS's render")
        }

        // The own screen only as the black-render reference: its window is long past.
        let bundle = try buildSeason(at: [Repo.fixtureCampaign("launch-screen-sale.yaml"), Repo.fixtureCampaign("launch-screen-own.yaml")]) {
            $0[1].schedule = Manifest.Schedule(start: date("2025-01-01T00:00:00+08:00"), end: date("2025-01-02T00:00:00+08:00"))
        }
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(manifest.app.marker == nil && manifest.app.launchScreen == Manifest.LaunchScreenColors(light: "#F2F2F7", dark: "#000000"))
        // The campaign's pictures carry no marker either: their corner is the campaign's background.
        let sale: [Appearance: RGBAColor] = [.light: RGBAColor(r: 0xA0, g: 0x06, b: 0x1E), .dark: RGBAColor(r: 0x14, g: 0x02, b: 0x06)]
        for campaign in manifest.campaigns {
            for snapshot in campaign.snapshots {
                let image = try decoder.decode(Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object)))
                let expected = campaign.ownScreen == true ? background[snapshot.appearance]! : sale[snapshot.appearance]!
                #expect(Self.near(Self.corner(image), expected), "\(campaign.id) \(snapshot.orientation) \(snapshot.appearance): no marker stamped")
            }
        }

        let first = try sim.launch(bundle: bundle, now: opening)
        let report = try #require(first.appReport)
        #expect(report.files.map(\.action) == [.replaced, .replaced, .replaced, .replaced])
        // Each file's appearance, told by its background, is the one the OS's table gives it.
        for file in report.files {
            #expect(file.decidedBy == .launchScreenBackground, "\(file.name): told by the launch screen's background")
            #expect(file.appearance == table[file.name]?.appearance, "\(file.name)")
        }
        let shown = try sim.launch(bundle: bundle, now: during)
        #expect(shown.showing == "double11's snapshot")
        #expect(shown.contentHash == (try object(in: bundle, shown.variant, pixels: iPhone15)))

        let ended = try sim.launch(bundle: bundle, now: after)
        #expect(ended.appReport?.files.map(\.action) == [.restored, .restored, .restored, .restored])
        #expect(try sim.cachedFiles() == originals, "the originals, byte for byte")
    }

    /// A `UILaunchScreen` background of one colour in both appearances (no dark variant): the light
    /// and dark renders are the same picture, so nothing tells them apart. A campaign with one
    /// picture for both is shown in every file; one whose light and dark pictures differ is shown
    /// in none, each file left as it is and reported.
    @Test func oneColourInBothAppearancesIsTheSamePictureAndTakesOnlyOnePictureForBoth() throws {
        let standIn = temporaryFolder("one-colour").appendingPathComponent("UILaunchScreen.json")
        let shipped = try SandboxSimulator.launchScreenDictionary
        var json = try String(contentsOf: shipped, encoding: .utf8)
        json = json.replacingOccurrences(of: ##""dark": "#000000""##, with: "")
            .replacingOccurrences(of: ##""light": "#F2F2F7", "##, with: ##""light": "#F2F2F7""##)
            .replacingOccurrences(of: ##""light": "art/logo.png", "dark": "art/logo-dark.png""##, with: ##""light": "art/logo.png""##)
        try FileManager.default.copyItem(
            at: shipped.deletingLastPathComponent().appendingPathComponent("art"), to: standIn.deletingLastPathComponent().appendingPathComponent("art"))
        try json.write(to: standIn, atomically: true, encoding: .utf8)
        let sim = SandboxSimulator(root: temporaryFolder("installed"))
        _ = try sim.install(launchScreen: standIn, version: "5.2", build: "100", device: "iPhone 15", ios: "17.0")
        let originals = try sim.cachedFiles()
        let table = try sim.model().variants
        let portraits = originals.keys.filter { table[$0]?.orientation == .portrait }
        #expect(portraits.count == 2 && Set(portraits.map { originals[$0]! }).count == 1, "the same picture in light and dark")

        func sale(_ edit: @escaping (inout Campaign) -> Void) throws -> URL {
            try buildSeason(at: [Repo.fixtureCampaign("launch-screen-sale.yaml")]) { campaigns in
                let light = campaigns[0].launchScreen?.background[.light]
                campaigns[0].launchScreen?.background[.dark] = light
                let colors = campaigns[0].launchScreen?.colors
                campaigns[0].app.launchScreen = colors
                edit(&campaigns[0])
            }
        }
        // Light and dark pictures that differ: no file can be given the right one.
        let differing = try sim.launch(bundle: try sale { _ in }, now: opening)
        #expect(differing.appReport?.files.allSatisfy { $0.decidedBy == .samePicture && $0.appearance == nil && $0.action != .replaced } == true)
        #expect(differing.appReport?.problems.filter { $0.code == .appearanceUnknown }.count == 4)
        #expect(try sim.cachedFiles() == originals)
        // One picture for both: every file shows it.
        let one = try sim.launch(bundle: try sale { $0.appearances[.dark] = nil }, now: opening)
        #expect(one.appReport?.files.map(\.action) == [.replaced, .replaced, .replaced, .replaced])
    }
}
