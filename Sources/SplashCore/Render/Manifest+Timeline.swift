import Foundation
import SplashFormat

extension Manifest {
    /// What is shown from the first campaign's start on: consecutive spans, each with the campaign in
    /// force (nil: the originals); the last span has no end when what it shows never ends. (The
    /// contact sheet's timeline; an app asks only for ``nextChange(after:appVersion:)``.)
    package func timeline(appVersion version: String?) -> [(start: Date, end: Date?, campaign: Campaign?)] {
        let instants = Set(campaigns(forAppVersion: version).flatMap { [$0.schedule.start, $0.schedule.end].compactMap { $0 } }).sorted()
        var spans: [(start: Date, end: Date?, campaign: Campaign?)] = []
        for (index, start) in instants.enumerated() {
            let end = index + 1 < instants.count ? instants[index + 1] : nil
            let shown = campaign(inForceAt: start, appVersion: version)
            if let last = spans.last, last.campaign?.id == shown?.id {
                spans[spans.count - 1].end = end
            } else {
                spans.append((start, end, shown))
            }
        }
        return spans
    }
}
