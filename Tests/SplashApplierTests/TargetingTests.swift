// Expectations: issue 37's targeting, as written: a campaign's `match:` is decided on the phone, by
// its preferred language, region, app build, iOS version and device family; a phone takes the
// highest-priority campaign in force that matches it and has its screen, and otherwise the next, or
// its originals; bad input is an error at file:line:col, with "did you mean" for an unknown key.
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

@Suite struct TargetingTests {
    /// The sale twice, from one art: `sale-zh` for Chinese (script Hans) phones at priority 11, and
    /// `double11` for English ones at 10, over the app's own screen.
    static let season = Result {
        try buildSeason("default.yaml", "double11.yaml") { campaigns in
            var chinese = campaigns[1]
            chinese.name = "sale-zh"
            chinese.priority = 11
            chinese.match = Manifest.Match(languages: ["zh-Hans"], regions: ["CN", "SG"])
            campaigns[1].match = Manifest.Match(languages: ["en"])
            campaigns.append(chinese)
        }
    }

    @Test(arguments: [
        ("zh-Hans-CN", "CN", "sale-zh"), ("en-GB", "GB", "double11"), ("zh-Hans-TW", "TW", "default"), ("fr-FR", "FR", "default"),
    ])
    func eachPhoneTakesTheHighestCampaignThatMatchesIt(_ language: String, _ region: String, _ expected: String) throws {
        let bundle = try Self.season.get()
        #expect(try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))).schema == 4)
        let root = temporaryFolder("targeting").appendingPathComponent("s")
        let sim = SandboxSimulator(root: root)
        _ = try sim.install(
            launchScreen: Repo.ownStoryboard, version: "5.2", build: "100", device: "iPhone 15", ios: "17.0", language: language, region: region)
        let launch = try sim.launch(bundle: bundle, now: date("2026-11-11T09:00:00+08:00"))
        let report = try #require(launch.appReport)
        #expect(report.files.allSatisfy { $0.showing == expected }, "\(language) \(region): \(report.files.map(\.showing))")
        if expected == "default" {
            #expect(report.notShown.contains { $0.campaign == "double11" && $0.reason == .doesNotMatch }, "\(report.notShown)")
        }
        if language == "zh-Hans-TW" {
            #expect(report.notShown.contains { $0.campaign == "sale-zh" && $0.message == "it is for CN, SG; this phone's region is TW" })
        }
    }

    @Test func buildsIOSAndDevicesAreCheckedOnThePhone() {
        let match = Manifest.Match(minBuild: "100", maxBuild: "250", minIOS: "16.4", devices: ["ipad"])
        func phone(build: String, os: OSVersion, device: String?) -> Manifest.Match.Phone {
            .init(language: "en", region: "US", build: build, os: os, device: device)
        }
        #expect(match.mismatch(phone(build: "120", os: OSVersion(major: 17), device: "ipad")) == nil)
        #expect(match.mismatch(phone(build: "99", os: OSVersion(major: 17), device: "ipad")) == "it is for builds from 100; this app is build 99")
        #expect(match.mismatch(phone(build: "251", os: OSVersion(major: 17), device: "ipad")) == "it is for builds up to 250; this app is build 251")
        #expect(match.mismatch(phone(build: "120", os: OSVersion(major: 16, minor: 2), device: "ipad")) == "it is for iOS 16.4 and later; this phone runs 16.2")
        #expect(match.mismatch(phone(build: "120", os: OSVersion(major: 17), device: "iphone")) == "it is for ipad; this is iphone")
    }

    @Test(arguments: [
        ("match:\n  languages: [english]", 2, 15, "match.languages[0]: expected a BCP 47 language tag such as en, zh-Hans or pt-BR; found \"english\""),
        ("match:\n  regions: [XX]", 2, 13, "match.regions[0]: expected an ISO 3166 region code such as CN, US or GB; found \"XX\""),
        ("match:\n  builds: {min: 200, max: 100}", 2, 27, "match.builds.max: the range ends (100) before it starts (200)"),
        ("match:\n  langauges: [en]", 2, 3, "match.langauges: unknown key 'langauges'; did you mean 'languages'?"),
    ])
    func aBadMatchIsAnErrorAtItsPlace(_ lines: String, _ lineOffset: Int, _ column: Int, _ message: String) throws {
        let folder = temporaryFolder("match-yaml")
        try FileManager.default.copyItem(at: Repo.root.appendingPathComponent("campaigns/art"), to: folder.appendingPathComponent("art"))
        let text = try String(contentsOf: Repo.campaign("double11.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "\npriority:", with: "\n\(lines)\npriority:")
        let file = folder.appendingPathComponent("sale.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let row = text.components(separatedBy: "\n").firstIndex { $0.hasPrefix("match:") }! + lineOffset
        #expect {
            try CampaignLoader(catalogue: DeviceCatalogue.bundled()).load(contentsOf: file, displayPath: "sale.yaml")
        } throws: { error in
            String(describing: error).contains("sale.yaml:\(row):\(column): error: \(message)")
        }
    }

    /// One campaign with art per language, in one bundle: a Chinese (Hans) phone sees its art (a
    /// plain green screen here, to tell it by), every other phone the campaign's own art.
    @Test(arguments: [("zh-Hans-CN", true), ("zh-Hans", true), ("en-US", false), ("zh-Hant-TW", false)])
    func oneCampaignShowsEachPhoneTheArtOfItsLanguage(_ language: String, _ chinese: Bool) throws {
        let bundle = try Self.perLanguage.get()
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(manifest.schema == 4 && manifest.campaigns.count == 1)
        #expect(Set(manifest.campaigns[0].snapshots.map(\.language)) == [nil, "zh-Hans"], "both arts in one campaign, one bundle")
        let sim = SandboxSimulator(root: temporaryFolder("languages").appendingPathComponent("s"))
        _ = try sim.install(launchScreen: Repo.ownStoryboard, version: "5.2", build: "100", device: "iPhone 15", ios: "17.0", language: language)
        let applied = try sim.launch(bundle: bundle, now: date("2026-11-11T09:00:00+08:00"))
        #expect(try #require(applied.appReport).files.allSatisfy { $0.showing == "double11" })
        let shown = try sim.launch(bundle: bundle, now: date("2026-11-11T10:00:00+08:00")).image
        let corner = shown[4, shown.height / 2]
        let green = corner.g > 200 && corner.r < 60 && corner.b < 60
        #expect(green == chinese, "\(language): the picture's edge is \(corner)")
    }

    /// double11 for the iPhone 15, with a zh-Hans art that is a green screen.
    static let perLanguage = Result { () throws -> URL in
        let folder = temporaryFolder("languages-yaml")
        try FileManager.default.copyItem(at: Repo.root.appendingPathComponent("campaigns/art"), to: folder.appendingPathComponent("art"))
        let text =
            try String(contentsOf: Repo.campaign("double11.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "devices: all", with: "devices: [\"iPhone 15\"]")
            + "languages:\n  zh-Hans:\n    light:\n      background: \"#00FF00\"\n    dark:\n      background: \"#00FF00\"\n"
        let file = folder.appendingPathComponent("double11.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let campaign = try CampaignLoader(catalogue: DeviceCatalogue.bundled()).load(contentsOf: file)
        return try BundleBuilder(outputRoot: temporaryFolder("bundle")).build(campaign).bundle
    }
}
