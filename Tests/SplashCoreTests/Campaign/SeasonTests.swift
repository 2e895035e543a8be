// Expectations: the season fixtures under Fixtures/seasons, read by hand: campaign names,
// priorities 0/5/100, schedules, one iPhone 15 portrait light snapshot each, and the lines where
// each problem sits; the message wording is the project's own.
import Foundation
import SplashCore
import SplashFormat
import SplashTestSupport
import Testing

/// Seasons: several campaigns in one bundle, from a season file or campaign files named together.
@Suite struct SeasonTests {
    let loader = SeasonLoader(catalogue: try! DeviceCatalogue.bundled())
    func seasonFile(_ name: String) -> URL { Fixtures.url("seasons/" + name) }
    func files(_ names: String...) -> [(url: URL, display: String)] { names.map { (seasonFile($0), $0) } }

    @Test func aSeasonFileBuildsOneBundleWithEveryCampaignsScheduleAndPriority() throws {
        let season = try loader.load(contentsOf: seasonFile("ok.yaml"), displayPath: "ok.yaml")
        #expect(season.name == "ok" && season.campaigns.map(\.name) == ["own", "sale-a", "grey"])
        let report = try BundleBuilder(outputRoot: temporaryFolder()).build(season)
        let manifest = try Manifest.decode(from: Data(contentsOf: report.bundle.appendingPathComponent("manifest.json")))
        #expect(manifest.schema == 3 && manifest.app.bundleID == "com.example.shop" && manifest.serial == nil)
        #expect(manifest.campaigns.map(\.id) == ["own", "sale-a", "grey"])
        #expect(manifest.campaigns.map(\.priority) == [0, 5, 100])
        #expect(manifest.campaigns[0].schedule.end == nil, "own.yaml gives no end")
        // iPhone 15 (the catalogue cites no Display Zoom size for it), portrait, light: one snapshot a
        // campaign, each on its own background colour.
        #expect(manifest.campaigns.map(\.snapshots.count) == [1, 1, 1])
        let objects = try FileManager.default.contentsOfDirectory(atPath: report.bundle.appendingPathComponent("objects").path)
        #expect(objects.count == 3 && Set(manifest.campaigns.flatMap(\.snapshots).map(\.object)) == Set(objects))
    }

    @Test func campaignsThatLookTheSameShareTheirObjects() throws {
        var twin = try loader.load(files("own.yaml"), name: "x").campaigns[0]
        twin.name = "own-again"
        twin.schedule = Manifest.Schedule(start: try Date("2030-01-01T00:00:00Z", strategy: .iso8601), end: nil)
        twin.priority = 1
        let own = try loader.load(files("own.yaml"), name: "x").campaigns[0]
        let report = try BundleBuilder(outputRoot: temporaryFolder()).build(Season(name: "twins", campaigns: [own, twin]))
        #expect(report.snapshots == 2 && report.uniqueObjects == 1)
    }

    @Test func overlappingCampaignsOfOnePriorityAreRefusedNamingBoth() {
        #expect(
            throws: CampaignError([
                Diagnostic(
                    SourceLocation(file: "sale-b.yaml", line: 6, column: 3, keyPath: "schedule"),
                    "sale-b and sale-a (sale-a.yaml:6) overlap with the same priority 5 on iPhone 15; give the one that should show a higher priority")
            ])
        ) {
            try loader.load(contentsOf: seasonFile("overlap.yaml"), displayPath: "overlap.yaml")
        }
        let message =
            "sale-b.yaml:6:3: error: schedule: sale-b and sale-a (sale-a.yaml:6) overlap with the same priority 5 on iPhone 15; give the one that should show a higher priority"
        do { _ = try loader.load(files("sale-a.yaml", "sale-b.yaml"), name: "x") } catch { #expect(error.description == message) }
    }

    /// D11 (issue 36): two own screens of one priority, one for app versions up to 5.9 and one from
    /// 6.0, can never both hold for an app version, so they never overlap; ranges that share 5.5…5.9 do.
    @Test func campaignsWhoseVersionRangesCannotBothHoldNeverOverlap() throws {
        var own5 = try loader.load(files("own.yaml"), name: "x").campaigns[0]
        own5.ownScreen = true
        own5.app.maxVersion = "5.9"
        var own6 = own5
        own6.name = "own6"
        own6.app.minVersion = "6.0"
        own6.app.maxVersion = nil
        #expect(own5.schedule.overlaps(own6.schedule) && own5.priority == own6.priority)
        #expect(Season(name: "x", campaigns: [own5, own6]).problems == [])
        own6.app.minVersion = "5.5"
        #expect(
            Season(name: "x", campaigns: [own5, own6]).problems.map(\.message) == [
                "own6 and own (own.yaml:\(own5.scheduleSource.line)) overlap with the same priority \(own5.priority) on iPhone 15; give the one that should show a higher priority"
            ])
    }

    /// Issue 42: a phone takes the highest-priority campaign in force that has its screen, so two
    /// campaigns of one priority compete only on a screen both have. An iPhone campaign and an iPad
    /// campaign of one priority never meet; give them a screen in common and they do.
    @Test func campaignsOfOnePriorityOnScreensThatNeverMeetShareABundle() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let phone = try loader.load(files("own.yaml"), name: "x").campaigns[0]
        var pad = phone
        pad.name = "own-pad"
        pad.screens = DeviceCatalogue.screens(of: [try #require(catalogue.device(named: "iPad Pro 13-inch (M4)"))])
        #expect(Season(name: "x", campaigns: [phone, pad]).problems == [])
        #expect(Season(name: "x", campaigns: [phone, pad]).warnings == [])
        pad.screens += phone.screens
        #expect(
            Season(name: "x", campaigns: [phone, pad]).problems.map(\.message) == [
                "own-pad and own (own.yaml:\(phone.scheduleSource.line)) overlap with the same priority \(phone.priority) on iPhone 15; give the one that should show a higher priority"
            ])
    }

    /// Issue 42: a higher-priority campaign that shares a screen with one it outranks but lacks
    /// others of its screens is a warning naming them: phones with those screens show the lower one.
    @Test func aHigherCampaignThatLacksScreensOfOneItOutranksIsAWarningNamingThem() throws {
        let catalogue = try DeviceCatalogue.bundled()
        var low = try loader.load(files("own.yaml"), name: "x").campaigns[0]
        low.screens += DeviceCatalogue.screens(of: [try #require(catalogue.device(named: "iPad Pro 13-inch (M4)"))])
        var high = low
        (high.name, high.priority, high.screens) = ("sale", low.priority + 1, [low.screens[0]])
        let season = Season(name: "x", campaigns: [low, high])
        #expect(season.problems == [])
        #expect(
            season.warnings == [
                Diagnostic(
                    high.nameSource,
                    "sale (priority \(high.priority)) outranks own (priority \(low.priority)) but lacks 1 of its screens (iPad Pro 13-inch (M4)): phones with those screens show own; give sale those screens unless that is meant",
                    severity: .warning)
            ])
        // Covering every screen of the one it outranks, or sharing none, it says nothing.
        high.screens = low.screens
        #expect(Season(name: "x", campaigns: [low, high]).warnings == [])
        high.screens = DeviceCatalogue.screens(of: [try #require(catalogue.device(named: "iPhone SE (3rd generation)"))])
        #expect(Season(name: "x", campaigns: [low, high]).warnings == [])
    }

    @Test func aSeasonFileNamesItsOwnProblemsAtTheirPlace() {
        do {
            _ = try loader.load(contentsOf: seasonFile("broken.yaml"), displayPath: "broken.yaml")
            Issue.record("broken.yaml loaded")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "broken.yaml:5:5: error: campaigns[1]: no such campaign file \"nowhere.yaml\" (paths are relative to the season file's folder)",
                    "broken.yaml:7:5: error: campaigns[3]: \"ok.yaml\" is a season file; a season lists campaign files",
                ])
        }
    }

    @Test func anotherAppOrANameTwiceIsRefused() {
        do { _ = try loader.load(files("own.yaml", "other-app.yaml"), name: "x"); Issue.record("loaded") } catch {
            #expect(
                error.description
                    == "other-app.yaml:2:7: error: name: other is for com.example.other but own (own.yaml) is for com.example.shop; one bundle serves one app")
        }
        do { _ = try loader.load(files("own.yaml", "own.yaml"), name: "x"); Issue.record("loaded") } catch {
            #expect(error.description == "own.yaml:2:7: error: name: the name own is already used by own.yaml; each campaign in a bundle needs its own name")
        }
    }

    /// An app has one launch screen: a campaign that describes it as a UILaunchScreen dictionary
    /// cannot share a bundle with one that describes its storyboard's marker (docs/ios-launch-cache.md §10).
    @Test func aStoryboardCampaignAndAUILaunchScreenCampaignAreRefusedTogether() {
        do { _ = try loader.load(files("sale-a.yaml", "launch-screen-app.yaml"), name: "x"); Issue.record("loaded") } catch {
            #expect(
                error.description
                    == "launch-screen-app.yaml:6:5: error: app.launch_screen: launch-screen-app's UILaunchScreen background (light #F2F2F7, dark #000000) differs from sale-a's marker (light #FFFFFF, dark #000000, size 3, sale-a.yaml:2); the app has one launch screen: a storyboard with its marker view, or a UILaunchScreen dictionary with its colours, the same for every campaign of the bundle"
            )
        }
    }

    /// The marker is the app storyboard's view, one for the bundle (issue 25): a campaign file that
    /// gives another is refused at its `marker` key, naming the first campaign's.
    @Test func campaignsThatDisagreeOnTheMarkerAreRefusedAtTheMarker() {
        do { _ = try loader.load(files("sale-a.yaml", "other-marker.yaml"), name: "x"); Issue.record("loaded") } catch {
            #expect(
                error.description
                    == "other-marker.yaml:8:3: error: marker: other-marker's marker (light #FF00FF, dark #000000, size 3) differs from sale-a's (light #FFFFFF, dark #000000, size 3, sale-a.yaml:2); the marker is the app storyboard's view, one for every campaign of the bundle"
            )
        }
    }

    @Test func aCampaignFileIsASeasonOfOne() throws {
        let season = try loader.load(contentsOf: Fixtures.url("campaigns/good.yaml"), displayPath: "good.yaml")
        #expect(season.name == "good" && season.campaigns.count == 1 && season.campaigns[0].priority == 0)
    }
}
