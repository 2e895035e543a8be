// Expectations: each case of the fourth hostile round (issue 36) as written there: a good render is
// never taken for a black one nor replaced for good, and an own screen's picture is an original
// (records rebuilt without a bundle, N2 again, are round 3's widened test). Originals are the bytes
// the simulated OS wrote; a restore must give every good one back byte for byte.
import Foundation
@_spi(Testing) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

extension HostileInputTests {
    /// A storyboard stand-in like the simulator's own (`LaunchScreen.json`): the logo centred on
    /// `light`'s background, `logo` points wide, and the dark scene as shipped.
    func storyboard(light: String, logo: Int = 160) throws -> URL {
        let folder = temporaryFolder("storyboard")
        let shipped = try Repo.ownStoryboard.deletingLastPathComponent()
        try FileManager.default.copyItem(at: shipped.appendingPathComponent("art"), to: folder.appendingPathComponent("art"))
        let json = """
            { "bundle_id": "com.example.shop", "orientations": ["portrait", "landscape"],
              "marker_view": { "light": "#FFFFFF", "dark": "#000000" },
              "scenes": {
                "light": { "background": "\(light)", "image_views": [{ "image": "art/logo.png", "content_mode": "sized", "anchor": "center", "width": \(logo) }] },
                "dark": { "background": "#000000", "image_views": [{ "image": "art/logo-dark.png", "content_mode": "sized", "anchor": "center", "width": 160 }] } } }
            """
        let url = folder.appendingPathComponent("LaunchScreen.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    /// campaigns/default.yaml (the app's own screen) with its light background and logo width changed.
    func ownScreen(_ campaign: inout Campaign, light: RGBAColor? = nil, logo: Double? = nil) {
        if let light { campaign.appearances[.light]?.background = light }
        if let logo { campaign.appearances[.light]?.layers[0].width = logo }
    }

    /// D1: a season with own5 (up to 5.9, another background) and own6 (from 6.0, the storyboard as
    /// drawn), on app 6.0: the reference is own6, so nothing is told black, and a restore gives
    /// every original back byte for byte (before, the light files were told black against own5 and
    /// replaced by own5's picture at restore).
    @Test func theOwnScreenOfThisAppVersionIsTheReference() throws {
        let bundle = try buildSeason("default.yaml", "default.yaml") {
            $0[0].name = "own5"
            $0[0].app.maxVersion = "5.9"
            $0[0].priority = 1
            ownScreen(&$0[0], light: RGBAColor(r: 0xEE, g: 0xEE, b: 0xEE))
            $0[1].name = "own6"
            $0[1].app.minVersion = "6.0"
        }
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0"))
        _ = try sim.update(version: "6.0", build: "200")
        let originals = try sim.cachedFiles()
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.campaign == "own6")
        #expect(report.problems.filter { $0.code == .originalBlackRender || $0.code == .blackRenderUndecided } == [], "\(report.problems)")
        _ = try applier(sim, bundle: bundle, now: during).restore()
        #expect(try sim.cachedFiles() == originals)
    }

    /// D2: the storyboard and the app's own screen differ (a logo of another size, a background a level
    /// or a shade away): no good render is told black, and every original comes back byte for byte.
    /// Where the backgrounds differ by more than a drift, the report says the reference does not match.
    @Test(arguments: [
        ("#FFFFFF", 100, [255, 255, 255], 160.0, false),
        ("#101010", 160, [0x11, 0x11, 0x11], 160, false),
        ("#EFEFEF", 160, [0xEE, 0xEE, 0xEE], 160, false),
        ("#000000", 160, [0x1C, 0x1C, 0x1E], 160, true),
    ])
    func aGoodRenderOfAnotherDesignIsNeverTakenForABlackOne(_ drawn: String, logo: Int, own: [UInt8], ownLogo: Double, mismatch: Bool) throws {
        let bundle = try buildBundle("default.yaml") { ownScreen(&$0, light: RGBAColor(r: own[0], g: own[1], b: own[2]), logo: ownLogo) }
        let sim = SandboxSimulator(root: try Installed.install(launchScreen: try storyboard(light: drawn, logo: logo), ios: "17.0"))
        let originals = try sim.cachedFiles()
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.problems.filter { $0.code == .originalBlackRender } == [], "\(drawn): \(report.problems)")
        let undecided = report.problems.filter { $0.code == .blackRenderUndecided }
        if mismatch {
            #expect(!undecided.isEmpty && undecided.allSatisfy { $0.message.contains("differs from the app's own screen outside its image views") })
        }
        _ = try applier(sim, bundle: bundle, now: after).restore()
        #expect(try sim.cachedFiles() == originals, "\(drawn)")
    }

    /// D4: a small logo (24 pt) rendered black on a light background is told, judged by its own view's
    /// area; the dark files, a black render on a black background (no different from a design
    /// without the logo), are reported undecided and kept.
    @Test func aSmallLogoRenderedBlackIsTold() throws {
        let bundle = try buildBundle("default.yaml") { ownScreen(&$0, logo: 24) }
        let sim = SandboxSimulator(root: try Installed.install(launchScreen: try storyboard(light: "#FFFFFF", logo: 24), ios: "17.0", blackRender: true))
        let model = try sim.model()
        let report = try applier(sim, bundle: bundle, now: during).apply()
        let told = report.problems.filter { $0.code == .originalBlackRender }.compactMap(\.file)
        let lightPortrait = model.variants.filter { $0.value == portraitLight }.map(\.key)
        #expect(Set(lightPortrait).isSubset(of: Set(told)), "\(report.problems)")
        let dark = Set(model.variants.filter { $0.value.appearance == .dark }.map(\.key))
        #expect(Set(told).isDisjoint(with: dark))
        #expect(Set(report.problems.filter { $0.code == .blackRenderUndecided }.compactMap(\.file)) == dark)
    }

    /// D3: a plain launch screen whose render equals the app's own screen's object byte for byte is
    /// an original, never "a campaign's picture": nothing is reported lost, the folder is not
    /// cleared, and a campaign applies and is restored.
    @Test func aFileEqualToTheOwnScreensObjectIsAnOriginal() throws {
        let bundle = try Bundles.double11WithOwnScreen.get()
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        let folder = try sim.snapshotFolder(model)
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        let own = try #require(manifest.ownScreen(forAppVersion: model.version))
        // The OS rendered the portrait light file exactly as the own screen's object.
        let name = try #require(model.variants.first { $0.value == portraitLight }?.key)
        let snapshot = try #require(own.snapshots.first { $0.orientation == .portrait && $0.appearance == .light })
        try Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object)).write(to: folder.appendingPathComponent(name))
        let originals = try sim.cachedFiles()
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(!report.problems.contains { $0.code == .originalLost || $0.code == .leftoversCleared }, "\(report.problems)")
        #expect(report.files.allSatisfy { $0.action == .replaced }, "\(report.files.map(\.action))")
        _ = try applier(sim, bundle: bundle, now: after).restore()
        #expect(try sim.cachedFiles() == originals)
    }

    /// D13: 10,000 files the OS never names as launch snapshots (§2) beside the cache cost nothing:
    /// they are not recorded (the state stays as small as without them), the campaign applies and
    /// is restored, and each file is left as it was.
    @Test func filesNotNamedAsLaunchSnapshotsCostNothing() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let folder = try sim.snapshotFolder(try sim.model())
        for index in 0..<10_000 { try Data([UInt8(index % 251)]).write(to: folder.appendingPathComponent("junk-\(index)@3x.ktx")) }
        let originals = try sim.cachedFiles()
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.problems == [] && report.files.count == originals.count && report.files.allSatisfy { $0.action == .replaced })
        let state = try Data(contentsOf: sim.container.appendingPathComponent(support + "/state.json"))
        #expect(state.count < 16_384, "\(state.count) bytes: the four snapshots' records only")
        #expect(try applier(sim, bundle: bundle, now: during.addingTimeInterval(60)).apply().nothingToDo)
        _ = try applier(sim, bundle: nil, now: after).restore()
        #expect(try sim.cachedFiles() == originals)
        #expect(try Data(contentsOf: folder.appendingPathComponent("junk-9999@3x.ktx")) == Data([UInt8(9999 % 251)]))
    }
}
