import Foundation
import SplashCore
import SplashFormat
import Testing

/// The contact sheet's timeline of a season, worked out by hand: the app's own screen from
/// 1 January on, Double 11 for 5.0 and later, mourning over it all.
@Suite struct TimelineTests {
    @Test func theTimelineSaysWhichCampaignShowsWhen() {
        func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
        let spans: [(String, String, String?, Int, String?)] = [
            ("default", "2026-01-01T00:00:00Z", nil, 0, nil), ("double11", "2026-11-10T12:00:00Z", "2026-11-11T18:00:00Z", 10, "5.0"),
            ("mourning", "2026-11-11T00:00:00Z", "2026-11-12T00:00:00Z", 100, nil),
        ]
        let season = Manifest(
            generator: "test", app: Manifest.App(bundleID: "com.example.shop", marker: Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 2)),
            campaigns: spans.map { id, start, end, priority, min in
                Manifest.Campaign(
                    id: id, schedule: Manifest.Schedule(start: at(start), end: end.map(at)), grey: false, encoding: .ktx, snapshots: [],
                    priority: priority, minVersion: min)
            }, serial: 7)
        let shown = season.timeline(appVersion: nil).map {
            "\($0.campaign?.id ?? "originals") \($0.start.formatted(.iso8601)) \($0.end?.formatted(.iso8601) ?? "on")"
        }
        #expect(
            shown == [
                "default 2026-01-01T00:00:00Z 2026-11-10T12:00:00Z", "double11 2026-11-10T12:00:00Z 2026-11-11T00:00:00Z",
                "mourning 2026-11-11T00:00:00Z 2026-11-12T00:00:00Z", "default 2026-11-12T00:00:00Z on",
            ])
    }
}
