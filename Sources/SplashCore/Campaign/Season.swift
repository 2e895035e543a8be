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

    /// What a bundle's name may hold, in a message's words: the rule of ``isValidName(_:)``.
    package static let nameRule = "ASCII letters (A-Z, a-z), digits, '.', '_' or '-', not starting with '.' or '-'"

    /// Whether `name` can name a bundle folder: ASCII letters, digits, `.`, `_`, `-`, not starting
    /// with a dot or dash, at most ``maxNameLength`` characters.
    package static func isValidName(_ name: String) -> Bool {
        name.count <= maxNameLength && name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._-]*$"#, options: .regularExpression) != nil
    }

    /// What stops these campaigns from sharing one bundle, each at the later campaign's file: another
    /// app, a name used twice, two campaigns of one priority that really meet (``meet(_:_:)``: the
    /// same time, the same app versions and a screen in common, where which one shows would be a
    /// matter of order), or another marker (it is the app's storyboard's, one for all).
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
                } else if earlier.priority == campaign.priority, Self.meet(earlier, campaign) {
                    let shared = Self.screens(of: earlier).intersection(Self.screens(of: campaign))
                    found.append(
                        Diagnostic(
                            campaign.scheduleSource,
                            "\(campaign.name) and \(earlier.name) (\(earlier.scheduleSource.file):\(earlier.scheduleSource.line)) overlap with the same priority \(campaign.priority) on \(Self.devices(shared, in: campaign)); give the one that should show a higher priority"
                        ))
                }
            }
        }
        return found
    }

    /// Where a campaign outranks another that it does not cover: both in force at once for some app
    /// version, on some screen both have, while the lower one has screens the higher one lacks. There
    /// a phone shows the lower campaign (a phone takes the highest-priority campaign in force that has
    /// its screen), which may not be what the designer meant; one warning each, at the higher one.
    package var warnings: [Diagnostic] {
        var found: [Diagnostic] = []
        for (index, campaign) in campaigns.enumerated() {
            for other in campaigns[(index + 1)...] where other.priority != campaign.priority && Self.meet(campaign, other) {
                let (high, low) = campaign.priority > other.priority ? (campaign, other) : (other, campaign)
                let lacking = Self.screens(of: low).subtracting(Self.screens(of: high))
                guard !lacking.isEmpty else { continue }
                found.append(
                    Diagnostic(
                        high.nameSource,
                        "\(high.name) (priority \(high.priority)) outranks \(low.name) (priority \(low.priority)) but lacks \(lacking.count) of its screens (\(Self.devices(lacking, in: low))): phones with those screens show \(low.name); give \(high.name) those screens unless that is meant",
                        severity: .warning))
            }
        }
        return found
    }

    /// A screen as a phone tells it: the snapshot's portrait pixel size, and the iPad screen a window is on.
    struct ScreenKey: Hashable {
        var pixels: Manifest.Size
        var windowOf: Manifest.Size?
    }

    /// The screens a campaign has snapshots of.
    static func screens(of campaign: Campaign) -> Set<ScreenKey> {
        Set(campaign.screens.map { ScreenKey(pixels: $0.pixels(.portrait), windowOf: $0.windowOf) })
    }

    /// Whether two campaigns can be in force on one phone at once: their windows overlap, some app
    /// version lies in both ranges, and they have a screen in common (an iPhone campaign and an iPad
    /// campaign never meet).
    static func meet(_ a: Campaign, _ b: Campaign) -> Bool {
        a.schedule.overlaps(b.schedule) && versionsOverlap(a.app, b.app) && !screens(of: a).isDisjoint(with: screens(of: b))
    }

    /// The devices of `keys` as `campaign` names them: the first three, then how many more.
    static func devices(_ keys: Set<ScreenKey>, in campaign: Campaign) -> String {
        let names = campaign.screens.filter { keys.contains(ScreenKey(pixels: $0.pixels(.portrait), windowOf: $0.windowOf)) }.map {
            $0.devices[0].name + ($0.windowOf == nil ? "" : " (window)")
        }
        return names.count <= 3 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
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
