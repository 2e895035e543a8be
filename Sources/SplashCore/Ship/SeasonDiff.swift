import Foundation
import SplashFormat

/// What a publication changes against the season its tree held, as `publish` prints it: campaigns
/// added, removed, withdrawn or readmitted, and for each campaign kept, its schedule, priority,
/// version range, greyness, rollout, targeting, art per language and screens when they change. One
/// line each; none when nothing changed.
package struct SeasonDiff {
    package let lines: [String]

    package init(from before: Manifest?, to after: Manifest) {
        guard let before else {
            lines = ["first publication into this tree: " + (after.campaigns.isEmpty ? "no campaign" : after.campaigns.map(\.id).joined(separator: ", "))]
            return
        }
        var lines: [String] = []
        let old = Dictionary(before.campaigns.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let withdrawnNow = Set(after.withdrawn ?? []).subtracting(before.withdrawn ?? [])
        for campaign in before.campaigns where !after.campaigns.contains(where: { $0.id == campaign.id }) {
            lines.append(withdrawnNow.contains(campaign.id) ? "- \(campaign.id): withdrawn" : "- \(campaign.id): removed")
        }
        for campaign in after.campaigns {
            guard let earlier = old[campaign.id] else {
                let readmitted = (after.readmitted ?? []).contains(campaign.id) ? " (readmitted)" : ""
                lines.append("+ \(campaign.id): added\(readmitted), \(Self.summary(campaign))")
                continue
            }
            var changes: [String] = []
            if earlier.schedule.start != campaign.schedule.start || earlier.schedule.end != campaign.schedule.end {
                changes.append("schedule \(Self.window(earlier)) → \(Self.window(campaign))")
            }
            if earlier.priority != campaign.priority { changes.append("priority \(earlier.priority) → \(campaign.priority)") }
            if earlier.minVersion != campaign.minVersion || earlier.maxVersion != campaign.maxVersion {
                changes.append("versions \(Self.range(earlier)) → \(Self.range(campaign))")
            }
            if earlier.grey != campaign.grey { changes.append(campaign.grey ? "now grey" : "no longer grey") }
            if earlier.rollout != campaign.rollout { changes.append("rollout \(Self.share(earlier)) → \(Self.share(campaign))") }
            if earlier.match != campaign.match { changes.append("match \(Self.audience(earlier)) → \(Self.audience(campaign))") }
            let languagesBefore = Set(earlier.snapshots.compactMap(\.language)), languagesAfter = Set(campaign.snapshots.compactMap(\.language))
            if languagesBefore != languagesAfter {
                changes.append(
                    "art per language \(languagesBefore.sorted().joined(separator: ", ").nonEmpty ?? "none") → \(languagesAfter.sorted().joined(separator: ", ").nonEmpty ?? "none")"
                )
            }
            let screensBefore = Self.screens(earlier), screensAfter = Self.screens(campaign)
            let added = screensAfter.subtracting(screensBefore), dropped = screensBefore.subtracting(screensAfter)
            if !added.isEmpty { changes.append("screens added \(Self.list(added))") }
            if !dropped.isEmpty { changes.append("screens dropped \(Self.list(dropped))") }
            if changes.isEmpty, Set(earlier.snapshots.map(\.object)) != Set(campaign.snapshots.map(\.object)) { changes.append("pictures changed") }
            if !changes.isEmpty { lines.append("~ \(campaign.id): " + changes.joined(separator: "; ")) }
        }
        self.lines = lines
    }

    private static func summary(_ campaign: Manifest.Campaign) -> String {
        "priority \(campaign.priority), \(window(campaign)), \(screens(campaign).count) screens"
    }

    private static func share(_ campaign: Manifest.Campaign) -> String {
        campaign.rollout.map { String(format: "%g%%", $0) } ?? "every phone"
    }

    /// A campaign's `match:` in a few words.
    private static func audience(_ campaign: Manifest.Campaign) -> String {
        guard let match = campaign.match else { return "every phone" }
        var parts: [String] = []
        if let languages = match.languages { parts.append("languages " + languages.joined(separator: ", ")) }
        if let regions = match.regions { parts.append("regions " + regions.joined(separator: ", ")) }
        if match.minBuild != nil || match.maxBuild != nil { parts.append("builds \(match.minBuild ?? "any")…\(match.maxBuild ?? "any")") }
        if match.minIOS != nil || match.maxIOS != nil { parts.append("iOS \(match.minIOS ?? "any")…\(match.maxIOS ?? "any")") }
        if let devices = match.devices { parts.append(devices.joined(separator: ", ")) }
        return "(" + parts.joined(separator: "; ") + ")"
    }

    private static func window(_ campaign: Manifest.Campaign) -> String {
        let zone = campaign.schedule.writtenTimeZone
        let start = ScheduleTime.format(campaign.schedule.start, in: zone)
        return start + " to " + (campaign.schedule.end.map { ScheduleTime.format($0, in: zone) } ?? "no end")
    }

    private static func range(_ campaign: Manifest.Campaign) -> String {
        "\(campaign.minVersion ?? "any")…\(campaign.maxVersion ?? "any")"
    }

    /// The portrait pixel sizes a campaign has snapshots of.
    private static func screens(_ campaign: Manifest.Campaign) -> Set<String> {
        Set(campaign.snapshots.map { "\($0.pixels.portrait.width)x\($0.pixels.portrait.height)" })
    }

    private static func list(_ screens: Set<String>) -> String {
        let sorted = screens.sorted()
        return sorted.prefix(6).joined(separator: ", ") + (sorted.count > 6 ? " and \(sorted.count - 6) more" : "")
    }
}

extension String {
    /// Nil for an empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
