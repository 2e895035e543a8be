// Expectations: docs/ios-launch-cache.md §1 (the side-layout windows an iPad caches beside its
// full screen: 375x1376 pt portrait and 375x1032 pt landscape on the iPad Pro 13-inch (M5), light
// and dark; an iPhone-only app cached at an iPhone's screen, 375x667 pt at @2x on a 13-inch iPad);
// the originals, byte for byte; the schedule of campaigns/double11.yaml.
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

@Suite struct IPadWindowTests {
    let opening = date("2026-11-10T21:00:00+08:00")
    let after = date("2026-11-12T03:00:00+08:00")

    func install(device: String = "iPad Pro 13-inch (M5)", iphoneOnly: Bool = false) throws -> SandboxSimulator {
        let sim = SandboxSimulator(root: temporaryFolder("ipad"))
        _ = try sim.install(
            launchScreen: try Repo.ownStoryboard, version: "5.2", build: "100", device: device, ios: "26.1", iphoneOnly: iphoneOnly)
        return sim
    }

    @Test func anIPad13SeasonCoversTheSideLayoutInBothOrientations() throws {
        let sim = try install()
        let originals = try sim.cachedFiles()
        let table = try sim.model().variants
        #expect(originals.count == 8 && table.values.filter { $0.window == .side }.count == 4, "4 full-screen and 4 side-layout files")

        let bundle = try buildSeason("double11.yaml", "default.yaml", device: "iPad Pro 13-inch (M5)") {
            $0[1].schedule = Manifest.Schedule(start: date("2025-01-01T00:00:00+08:00"), end: date("2025-01-02T00:00:00+08:00"))
        }
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        let side = manifest.campaigns[0].snapshots.filter { $0.screen != nil }
        #expect(
            Set(side.map { "\($0.orientation) \($0.pixels.width)x\($0.pixels.height) \($0.points.width)x\($0.points.height)" })
                == ["portrait 750x2752 375x1376", "landscape 750x2064 375x1032"])
        #expect(side.count == 4 && side.allSatisfy { $0.screen == Manifest.Size(width: 2064, height: 2752) })
        // The iPad's slice carries its side windows (FetcherTests downloads them), and needs the newer
        // reader; a slice by the iPad's name carries them too.
        let slice = try ScreenSlice.pixels(width: 2064, height: 2752).apply(to: manifest)
        #expect(slice.campaigns[0].snapshots.count == 8 && slice.schema == 5 && manifest.schema == 5)
        #expect(try ScreenSlice.device("iPad Pro 13-inch (M5)").apply(to: manifest).campaigns[0].snapshots.count == 8)

        let first = try sim.launch(bundle: bundle, now: opening)
        let report = try #require(first.appReport)
        #expect(report.files.count == 8 && report.files.allSatisfy { $0.action == .replaced })
        #expect(!report.problems.contains { $0.code == .missingSnapshot })
        for file in report.files {
            #expect(file.orientation == table[file.name]?.orientation, "\(file.name): told its orientation, the side window's landscape included")
        }
        let ended = try sim.launch(bundle: bundle, now: after)
        #expect(ended.appReport?.files.allSatisfy { $0.action == .restored } == true)
        #expect(try sim.cachedFiles() == originals, "the originals, byte for byte")
    }

    /// What the applier did before the catalogue knew the side windows: a bundle without them (an app
    /// built as requiring full screen) leaves each side file alone, and says so.
    @Test func aBundleWithoutTheSideWindowsLeavesThemAndReportsEach() throws {
        let sim = try install()
        let bundle = try buildBundle("double11.yaml", device: "iPad Pro 13-inch (M5)") { campaign in
            campaign.screens.removeAll { $0.windowOf != nil }
        }
        let report = try #require(try sim.launch(bundle: bundle, now: opening).appReport)
        let table = try sim.model().variants
        let missing = Set(report.problems.filter { $0.code == .missingSnapshot }.compactMap(\.file))
        #expect(missing == Set(table.filter { $0.value.window == .side }.keys))
        #expect(report.files.filter { $0.action == .replaced }.count == 4)
    }

    /// A season for an iPhone and an iPad: only the iPad's slice needs the reader that knows windows;
    /// the iPhone's stays readable by every app out there.
    @Test func onlyTheSlicesWithWindowsNeedTheNewerReader() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let bundle = try buildBundle("double11.yaml") { campaign in
            campaign.screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named("iPhone 15"), .named("iPad Pro 13-inch (M5)")])))
        }
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(manifest.schema == 5)
        #expect(try ScreenSlice.pixels(width: 1179, height: 2556).apply(to: manifest).schema == 3)
        #expect(try ScreenSlice.pixels(width: 2064, height: 2752).apply(to: manifest).schema == 5)
    }

    @Test func anIPhoneOnlyAppOnAnIPadGetsItsSnapshots() throws {
        let sim = try install(iphoneOnly: true)
        let originals = try sim.cachedFiles()
        #expect(originals.count == 4)
        #expect(
            try sim.fetcher(from: URL(string: "https://cdn.example.com/season/")!, trust: try sim.appTrust()).screen
                == ScreenSize(width: 750, height: 1334), "the app reads an iPhone's screen, and fetches for it")
        let bundle = try buildBundle("double11.yaml", device: "iPhone app on iPad (12.9-inch and 13-inch)")
        let report = try #require(try sim.launch(bundle: bundle, now: opening).appReport)
        #expect(report.files.map(\.action) == [.replaced, .replaced, .replaced, .replaced])
        #expect(Set(report.files.map { "\($0.width)x\($0.height)" }) == ["750x1334", "1334x750"])
        _ = try sim.launch(bundle: bundle, now: after)
        _ = try sim.launch(bundle: bundle, now: after.addingTimeInterval(60))
        #expect(try sim.cachedFiles() == originals)
    }
}
