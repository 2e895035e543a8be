// Expectations: issue 42's rule (a phone takes the highest-priority campaign in force that has its
// screen; campaigns of one priority compete only on a screen both have) and docs/ios-launch-cache.md
// §1 (the screens an iPhone 15 and an iPad Pro 13-inch (M5) cache); the schedule of
// campaigns/double11.yaml.
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

@Suite struct PerScreenCampaignTests {
    let opening = date("2026-11-10T21:00:00+08:00")

    /// The Spring Festival case: one sale as an iPhone campaign and an iPad campaign of one priority,
    /// in one season. The season is valid with no warning, and each phone shows its own campaign on
    /// every file it caches.
    @Test func anIPhoneCampaignAndAnIPadCampaignOfOnePriorityEachShowOnTheirOwnScreens() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let sale = try CampaignLoader(catalogue: catalogue).load(contentsOf: Repo.campaign("double11.yaml"))
        var phone = sale, pad = sale
        phone.name = "spring-phone"
        phone.screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named("iPhone 15")])))
        pad.name = "spring-pad"
        pad.screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named("iPad Pro 13-inch (M5)")])))
        let season = Season(name: "spring", campaigns: [phone, pad])
        #expect(season.problems.isEmpty && season.warnings.isEmpty, "\(season.problems) \(season.warnings)")
        let bundle = try BundleBuilder(outputRoot: temporaryFolder("bundle")).build(season).bundle

        for (device, shown) in [("iPhone 15", "spring-phone"), ("iPad Pro 13-inch (M5)", "spring-pad")] {
            let sim = SandboxSimulator(root: temporaryFolder("spring"))
            _ = try sim.install(launchScreen: try Repo.ownStoryboard, version: "5.2", build: "100", device: device, ios: "26.1")
            let report = try #require(try sim.launch(bundle: bundle, now: opening).appReport)
            #expect(!report.files.isEmpty && report.files.allSatisfy { $0.action == .replaced }, "\(device): \(report.files.map(\.action))")
            #expect(report.files.allSatisfy { $0.showing == shown }, "\(device): \(report.files.map(\.showing))")
            #expect(!report.problems.contains { $0.code == .missingSnapshot }, "\(device): \(report.problems)")
        }
    }
}
