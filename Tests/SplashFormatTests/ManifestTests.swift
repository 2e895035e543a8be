// Expectations: hand-worked: 1794312000 s is 2026-11-10T12:00:00Z, Int.max bounds a version
// component, UTC offsets in seconds, and docs/ios-launch-cache.md §3 (1179 and 1180 px are both 295
// blocks). Decoding what was encoded is a round trip; schema 2 and error wording are the code's.
import Foundation
import SplashFormat
import Testing

@Suite struct ManifestTests {
    static let sample = Manifest(
        generator: "splashgen test",
        app: Manifest.App(bundleID: "com.example.shop", minVersion: "5.0", marker: Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 2)),
        campaigns: [
            Manifest.Campaign(
                id: "double11",
                schedule: Manifest.Schedule(start: Date(timeIntervalSince1970: 1_794_312_000), end: Date(timeIntervalSince1970: 1_794_441_600)),
                grey: false, encoding: .ktx,
                snapshots: [
                    Manifest.Snapshot(
                        points: Manifest.Size(width: 393, height: 852), scale: 3, pixels: Manifest.Size(width: 1179, height: 2556),
                        orientation: .portrait, appearance: .light, family: "iphone", devices: ["iPhone 15"], object: String(repeating: "ab", count: 32),
                        bytes: 10)
                ])
        ])

    @Test func encodingIsCanonicalAndRoundTrips() throws {
        let data = Self.sample.encoded()
        let text = String(decoding: data, as: UTF8.self)
        // Canonical: keys sorted, so two builds of one manifest hash alike whatever the encoder's order.
        let top = ["\"app\"", "\"campaigns\"", "\"generator\"", "\"schema\""].map { text.range(of: $0)?.lowerBound }
        #expect(top.allSatisfy { $0 != nil } && top == top.sorted { ($0 ?? text.endIndex) < ($1 ?? text.endIndex) }, "\(text.prefix(200))")
        #expect(text.contains("\"bundle_id\" : \"com.example.shop\""))
        #expect(text.contains("\"start\" : \"2026-11-10T12:00:00Z\""))
        #expect(try Manifest.decode(from: data) == Self.sample)
    }

    @Test func aNewerSchemaIsRefusedClearly() throws {
        var newer = Self.sample
        newer.schema = 9
        #expect(throws: ManifestError.newerSchema(found: 9, supported: Manifest.currentSchema)) { try Manifest.decode(from: newer.encoded()) }
        #expect(ManifestError.newerSchema(found: 9, supported: 1).description.contains("schema 9 is newer"))
    }

    /// A version bound the comparison cannot hold is refused, as campaign files refuse it: Int.max
    /// is 9223372036854775807, so one more would read as 0 and put a 5.0+ campaign in force on 0.1.
    @Test(arguments: ["9223372036854775808", "5.99999999999999999999", "5..2", "5.2-beta", "", "+5"])
    func aVersionBoundTheComparisonCannotHoldIsRefused(_ version: String) {
        for place in ["app", "campaign"] {
            var manifest = Self.sample
            if place == "app" { manifest.app.maxVersion = version } else { manifest.campaigns[0].minVersion = version }
            #expect(throws: ManifestError.self, "\(place) \(version)") { try Manifest.decode(from: manifest.encoded()) }
        }
        var fine = Self.sample
        fine.campaigns[0].minVersion = "9223372036854775807.0.10"
        #expect(throws: Never.self) { try Manifest.decode(from: fine.encoded()) }
    }

    /// The offset a schedule was written with is kept to show it as written; one that is no UTC
    /// offset is refused like any other out-of-range field, and a manifest without one still reads.
    @Test func aScheduleOffsetMustBeAUTCOffset() throws {
        for (offset, zone) in [("+08:00", 8 * 3600), ("-03:30", -(3 * 3600 + 1800)), ("Z", 0)] {
            var manifest = Self.sample
            manifest.campaigns[0].schedule.offset = offset
            let read = try Manifest.decode(from: manifest.encoded())
            #expect(read.campaigns[0].schedule.writtenTimeZone?.secondsFromGMT() == zone)
        }
        for offset in ["+8", "08:00", "+25:00", "<script>", ""] {
            var manifest = Self.sample
            manifest.campaigns[0].schedule.offset = offset
            #expect(throws: ManifestError.self, "\(offset)") { try Manifest.decode(from: manifest.encoded()) }
        }
        #expect(try Manifest.decode(from: Self.sample.encoded()).campaigns[0].schedule.offset == nil)
    }

    @Test func malformedJSONIsNamed() {
        #expect(throws: ManifestError.self) { try Manifest.decode(from: Data("{\"schema\": 1, \"app\": 3}".utf8)) }
        do {
            _ = try Manifest.decode(from: Data("{\"schema\": 1}".utf8))
            Issue.record("a manifest without its keys decoded")
        } catch {
            #expect(error.description.hasPrefix("malformed manifest: missing key generator"))
        }
    }

    /// §3: a file may record its width one pixel wider than its screen (1180 for 1179); the block
    /// count is the same, ceil(1180/4) = ceil(1179/4) = 295. Worked by hand.
    @Test func aRecordedSizeOnePixelLargerWithTheSameBlocksStandsForItsScreen() {
        let screen = Manifest.Size(width: 1179, height: 2556)
        #expect(screen.isScreen(ofRecorded: Manifest.Size(width: 1179, height: 2556)))
        #expect(screen.isScreen(ofRecorded: Manifest.Size(width: 1180, height: 2556)))
        #expect(Manifest.Size(width: 2556, height: 1179).isScreen(ofRecorded: Manifest.Size(width: 2556, height: 1180)), "landscape")
        #expect(!screen.isScreen(ofRecorded: Manifest.Size(width: 1181, height: 2556)), "two more")
        #expect(!screen.isScreen(ofRecorded: Manifest.Size(width: 1178, height: 2556)), "one fewer")
        // 1180 → 1181 crosses a block edge: 295 blocks against 296.
        #expect(!Manifest.Size(width: 1180, height: 2556).isScreen(ofRecorded: Manifest.Size(width: 1181, height: 2556)))
        #expect(!screen.isScreen(ofRecorded: Manifest.Size(width: 2556, height: 1179)), "the other orientation")
    }

    /// Schema 3 keeps the marker with the app (issue 25): it is the app's storyboard's, so one per
    /// bundle. A schema 2 manifest's campaigns carried it: read as the app's when they agree, refused
    /// by name when they do not. Both colours and the size are checked wherever a manifest is read.
    @Test func theMarkerIsTheAppsAndItsColoursAreChecked() throws {
        let text = String(decoding: Self.sample.encoded(), as: UTF8.self)
        #expect(text.contains("\"schema\" : 3"))
        let app = try #require(text.range(of: "\"app\" : {")), campaigns = try #require(text.range(of: "\"campaigns\" : ["))
        #expect(text.range(of: "\"marker\"").map { app.upperBound < $0.lowerBound && $0.lowerBound < campaigns.lowerBound } == true, "under app")
        #expect(text.components(separatedBy: "\"marker\"").count == 2, "once")

        func schema2(_ markers: [String]) -> Data {
            let campaigns = markers.enumerated().map { index, marker in
                """
                {"id": "c\(index)", "schedule": {"start": "2026-11-10T12:00:00Z"}, "grey": false, "encoding": "atx", \(marker)"snapshots": []}
                """
            }
            return Data(
                """
                {"schema": 2, "generator": "splashgen 0.1.0", "app": {"bundle_id": "com.example.shop"}, "campaigns": [\(campaigns.joined(separator: ", "))]}
                """.utf8)
        }
        let white = ##""marker": {"light": "#FFFFFF", "dark": "#000000", "size": 3}, "##
        let read = try Manifest.decode(from: schema2([white, white]))
        #expect(read.app.marker == Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 3))
        // Read as schema 3, so a publication or a slice written from it says the schema its shape is.
        #expect(read.schema == 3 && String(decoding: read.encoded(), as: UTF8.self).contains("\"schema\" : 3"))
        let magenta = ##""marker": {"light": "#FF00FF", "dark": "#000000", "size": 3}, "##
        do {
            _ = try Manifest.decode(from: schema2([white, magenta]))
            Issue.record("campaigns that disagree on the marker were read")
        } catch {
            #expect(error.description.contains("campaigns give different markers (#FFFFFF/#000000 and #FF00FF/#000000)"), "\(error)")
        }
        #expect(try Manifest.decode(from: schema2([])).app.marker == nil, "no campaign, no marker: every file by luminance")

        for (light, dark, size, problem) in [
            ("white", "#000000", 3, ##"app.marker: light "white" is not a colour as #RRGGBB"##),
            ("#FFFFFF", "#12345", 3, ##"app.marker: dark "#12345" is not a colour as #RRGGBB"##),
            ("#FFFFFF", "#ffffff", 3, "app.marker: light and dark are the same colour, #FFFFFF"),
            ("#FFFFFF", "#000000", 17, "app.marker: size 17 is out of range 1...16"),
        ] {
            var manifest = Self.sample
            manifest.app.marker = Manifest.Marker(light: light, dark: dark, size: size)
            #expect(throws: ManifestError.malformed(problem)) { try Manifest.decode(from: manifest.encoded()) }
        }
        var missing = Self.sample
        missing.app.marker = nil
        #expect(throws: ManifestError.malformed("app.marker is missing (and no app.launch_screen)")) { try Manifest.decode(from: missing.encoded()) }
    }
}
