import Foundation
import SplashFormat
import Testing

/// Which campaign of a season is shown when, worked out by hand from the schedules below.
@Suite struct SeasonManifestTests {
    static func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
    static func campaign(_ id: String, _ start: String, _ end: String?, priority: Int, min: String? = nil) -> Manifest.Campaign {
        Manifest.Campaign(
            id: id, schedule: Manifest.Schedule(start: at(start), end: end.map(at)), grey: false, encoding: .ktx,
            snapshots: [],
            priority: priority, minVersion: min)
    }

    /// The app's own screen from 1 January on, Double 11 for 5.0 and later, mourning over it all.
    static let season = Manifest(
        generator: "test", app: Manifest.App(bundleID: "com.example.shop", marker: Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 2)),
        campaigns: [
            campaign("default", "2026-01-01T00:00:00Z", nil, priority: 0),
            campaign("double11", "2026-11-10T12:00:00Z", "2026-11-11T18:00:00Z", priority: 10, min: "5.0"),
            campaign("mourning", "2026-11-11T00:00:00Z", "2026-11-12T00:00:00Z", priority: 100),
        ], serial: 7)

    @Test(arguments: [
        ("2025-12-31T23:59:59Z", "5.2", nil as String?), ("2026-01-01T00:00:00Z", "5.2", "default"),
        ("2026-11-10T12:00:00Z", "5.2", "double11"), ("2026-11-10T12:00:00Z", "4.9", "default"),
        ("2026-11-11T00:00:00Z", "5.2", "mourning"), ("2026-11-11T23:59:59Z", "5.2", "mourning"),
        ("2026-11-12T00:00:00Z", "5.2", "default"), ("2099-01-01T00:00:00Z", "5.2", "default"),
    ])
    func theHighestPriorityInForceForThisVersionIsShown(_ instant: String, _ version: String, _ expected: String?) {
        #expect(Self.season.campaign(inForceAt: Self.at(instant), appVersion: version)?.id == expected)
    }

    @Test func theNextChangeLooksAcrossEveryCampaignOfThisVersion() {
        #expect(Self.season.nextChange(after: Self.at("2026-06-01T00:00:00Z"), appVersion: "5.2") == Self.at("2026-11-10T12:00:00Z"))
        #expect(Self.season.nextChange(after: Self.at("2026-06-01T00:00:00Z"), appVersion: "4.0") == Self.at("2026-11-11T00:00:00Z"))
        #expect(Self.season.nextChange(after: Self.at("2026-11-12T00:00:00Z"), appVersion: "5.2") == nil)
    }

    @Test func windowsOverlapWhenTheyShareAnInstant() {
        let a = Manifest.Schedule(start: Self.at("2026-11-10T00:00:00Z"), end: Self.at("2026-11-11T00:00:00Z"))
        #expect(!a.overlaps(Manifest.Schedule(start: Self.at("2026-11-11T00:00:00Z"), end: nil)), "half-open: the end is not in the window")
        #expect(a.overlaps(Manifest.Schedule(start: Self.at("2026-11-01T00:00:00Z"), end: nil)))
        #expect(
            Manifest.Schedule(start: Self.at("2026-11-01T00:00:00Z"), end: nil).overlaps(Manifest.Schedule(start: Self.at("2030-01-01T00:00:00Z"), end: nil)))
    }

    @Test func seasonFieldsRoundTripAndASchemaOneManifestStillReads() throws {
        #expect(try Manifest.decode(from: Self.season.encoded()) == Self.season)
        let text = String(decoding: Self.season.encoded(), as: UTF8.self)
        #expect(text.contains("\"serial\" : 7") && text.contains("\"priority\" : 100") && text.contains("\"min_version\" : \"5.0\""))
        // A bundle written by the first release: no priority, no serial, the range on the app.
        let old = """
            {"schema": 1, "generator": "splashgen 0.1.0", "app": {"bundle_id": "com.example.shop", "min_version": "5.0"},
             "campaigns": [{"id": "double11", "schedule": {"start": "2026-11-10T12:00:00Z", "end": "2026-11-11T18:00:00Z"},
                            "grey": false, "encoding": "ktx", "marker": {"light": "#FFFFFF", "dark": "#000000", "size": 2}, "snapshots": []}]}
            """
        let manifest = try Manifest.decode(from: Data(old.utf8))
        #expect(manifest.campaigns[0].priority == 0 && manifest.serial == nil)
        #expect(manifest.app.marker == Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 2), "the campaign's marker read as the app's")
        #expect(manifest.campaign(inForceAt: Self.at("2026-11-11T00:00:00Z"), appVersion: "4.9") == nil)
        #expect(manifest.campaign(inForceAt: Self.at("2026-11-11T00:00:00Z"), appVersion: "5.0")?.id == "double11")
    }

    @Test func aSerialOrDeflatedSizeOutOfRangeIsRefused() {
        var bad = Self.season
        bad.serial = 0
        #expect(throws: ManifestError.malformed("serial 0 is out of range 1...\(Int.max)")) { try Manifest.decode(from: bad.encoded()) }
    }
}
