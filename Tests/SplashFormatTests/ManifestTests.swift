// Expectations: hand-worked: 1794312000 s is 2026-11-10T12:00:00Z, Int.max bounds a version
// component, UTC offsets in seconds, and docs/ios-launch-cache.md §3 (1179 and 1180 px are both 295
// blocks). Decoding what was encoded is a round trip; schema 2 and error wording are the code's.
import Foundation
import Testing

@testable import SplashFormat

@Suite struct ManifestTests {
    static let sample = Manifest(
        generator: "splashgen test", app: Manifest.App(bundleID: "com.example.shop", minVersion: "5.0"),
        campaigns: [
            Manifest.Campaign(
                id: "double11",
                schedule: Manifest.Schedule(start: Date(timeIntervalSince1970: 1_794_312_000), end: Date(timeIntervalSince1970: 1_794_441_600)),
                grey: false, encoding: .ktx, marker: Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 2),
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
        #expect(throws: ManifestError.newerSchema(found: 9, supported: 2)) { try Manifest.decode(from: newer.encoded()) }
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
}
