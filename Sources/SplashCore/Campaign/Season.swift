import Foundation
import SplashFormat

/// The campaigns one bundle holds: one campaign file, a season file's list, or campaign files named
/// together. Each keeps its own schedule, version range and priority; the bundle shares objects.
package struct Season: Equatable, Sendable {
    /// The bundle's name: its folder under `Output/`.
    package var name: String
    /// The campaigns, in the order given.
    package var campaigns: [Campaign]

    /// Makes a season; ``problems`` says whether the campaigns can share a bundle.
    package init(name: String, campaigns: [Campaign]) {
        self.name = name
        self.campaigns = campaigns
    }

    /// A season of one campaign, named after it.
    package init(_ campaign: Campaign) {
        self.init(name: campaign.name, campaigns: [campaign])
    }

    /// The longest name: its folder and the staging folder beside it (`.staging-<name>-<pid>`) must fit
    /// the 255 bytes a file name may have.
    package static let maxNameLength = 200

    /// Whether `name` can name a bundle folder: letters, digits, `.`, `_`, `-`, not starting with a
    /// dot or dash, at most ``maxNameLength`` characters.
    package static func isValidName(_ name: String) -> Bool {
        name.count <= maxNameLength && name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._-]*$"#, options: .regularExpression) != nil
    }

    /// What stops these campaigns from sharing one bundle, each at the later campaign's file: another
    /// app, a name used twice, two campaigns of one priority whose windows and app-version ranges
    /// both overlap (which one shows would be a matter of order; campaigns no app version can both
    /// hold never compete), or another marker (it is the app's storyboard's, one for all).
    package var problems: [Diagnostic] {
        var found: [Diagnostic] = []
        for (index, campaign) in campaigns.enumerated() {
            if index > 0, campaign.app.bundleID == campaigns[0].app.bundleID,
                campaign.marker != campaigns[0].marker || campaign.app.launchScreen != campaigns[0].app.launchScreen
            {
                let first = campaigns[0]
                let source = campaign.markerSource ?? campaign.nameSource, firstSource = first.markerSource ?? first.nameSource
                let (what, detail) = Self.describe(campaign), (firstWhat, firstDetail) = Self.describe(first)
                let why =
                    what == "marker" && firstWhat == "marker"
                    ? "the marker is the app storyboard's view, one for every campaign of the bundle"
                    : "the app has one launch screen: a storyboard with its marker view, or a UILaunchScreen dictionary with its colours, the same for every campaign of the bundle"
                found.append(
                    Diagnostic(
                        source,
                        "\(campaign.name)'s \(what) (\(detail)) differs from \(first.name)'s\(what == firstWhat ? "" : " " + firstWhat) (\(firstDetail), \(firstSource.file):\(firstSource.line)); \(why)"
                    ))
            }
            for earlier in campaigns[..<index] {
                if earlier.app.bundleID != campaign.app.bundleID {
                    found.append(
                        Diagnostic(
                            campaign.nameSource,
                            "\(campaign.name) is for \(campaign.app.bundleID) but \(earlier.name) (\(earlier.nameSource.file)) is for \(earlier.app.bundleID); one bundle serves one app"
                        ))
                } else if earlier.name == campaign.name {
                    found.append(
                        Diagnostic(
                            campaign.nameSource,
                            "the name \(campaign.name) is already used by \(earlier.nameSource.file); each campaign in a bundle needs its own name"))
                } else if earlier.priority == campaign.priority, earlier.schedule.overlaps(campaign.schedule),
                    Self.versionsOverlap(earlier.app, campaign.app)
                {
                    found.append(
                        Diagnostic(
                            campaign.scheduleSource,
                            "\(campaign.name) and \(earlier.name) (\(earlier.scheduleSource.file):\(earlier.scheduleSource.line)) overlap with the same priority \(campaign.priority); give the one that should show a higher priority"
                        ))
                }
            }
        }
        return found
    }

    /// Whether some app version lies in both campaigns' ranges (`min_version`…`max_version`, each
    /// inclusive, a missing bound open).
    static func versionsOverlap(_ a: Manifest.App, _ b: Manifest.App) -> Bool {
        func below(_ max: String?, _ min: String?) -> Bool {
            guard let max, let min else { return false }
            return VersionNumber(max) < VersionNumber(min)
        }
        return !below(a.maxVersion, b.minVersion) && !below(b.maxVersion, a.minVersion)
    }

    /// How a campaign says the app's renders tell their appearance: its marker, or its launch screen's colours.
    private static func describe(_ campaign: Campaign) -> (what: String, detail: String) {
        if let colors = campaign.app.launchScreen { return ("UILaunchScreen background", "light \(colors.light), dark \(colors.dark)") }
        guard let marker = campaign.marker else { return ("marker", "none") }
        return ("marker", "light \(marker.light.hex), dark \(marker.dark.hex), size \(marker.size)")
    }
}
