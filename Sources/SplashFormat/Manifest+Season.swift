import Foundation

extension Manifest {
    /// The campaigns that apply to app version `version` (every one when nil): both the bundle's
    /// range (schema 1) and the campaign's own hold it.
    package func campaigns(forAppVersion version: String?) -> [Campaign] {
        guard let version else { return campaigns }
        return campaigns.filter { versionBound(excluding: $0, appVersion: version) == nil }
    }

    /// A version bound that keeps a campaign from an app version: `min_version` or `max_version`,
    /// the bundle's (schema 1) or the campaign's own.
    package struct VersionBound: Equatable, Sendable {
        /// The app's version is below `min_version` (else above `max_version`).
        package var below: Bool
        /// The bound's text.
        package var version: String
        /// The bundle's range (`app.min_version`/`max_version`), not the campaign's own.
        package var ofBundle: Bool
    }

    /// The first bound of the bundle's range and then the campaign's own that app version `version`
    /// falls outside; nil when the campaign applies to it.
    package func versionBound(excluding campaign: Campaign, appVersion version: String) -> VersionBound? {
        let number = VersionNumber(version)
        for (min, max, ofBundle) in [(app.minVersion, app.maxVersion, true), (campaign.minVersion, campaign.maxVersion, false)] {
            if let min, number < VersionNumber(min) { return VersionBound(below: true, version: min, ofBundle: ofBundle) }
            if let max, VersionNumber(max) < number { return VersionBound(below: false, version: max, ofBundle: ofBundle) }
        }
        return nil
    }

    /// The app's own screen for app version `version` (every version when nil): of the campaigns
    /// marked `own_screen` whose version range holds it, the highest priority (the first listed
    /// among equals), whatever their schedules; nil when none holds it. It is the reference a black
    /// render is told by, and what goes where one would come back: an own screen made for another
    /// app version draws another storyboard, and tells nothing of this one's renders.
    package func ownScreen(forAppVersion version: String?) -> Campaign? {
        Self.byPriority(campaigns(forAppVersion: version).filter { $0.ownScreen == true }).first
    }

    /// `candidates` highest priority first, the first listed first among equals.
    private static func byPriority(_ candidates: [Campaign]) -> [Campaign] {
        candidates.enumerated().sorted { ($0.element.priority, $1.offset) > ($1.element.priority, $0.offset) }.map(\.element)
    }

    /// The campaign that outranks every other at `date` for app version `version`: of those in
    /// force, the highest priority (the first listed among equals, which a build refuses when their
    /// windows overlap); nil when none is in force, and the originals are shown.
    package func campaign(inForceAt date: Date, appVersion version: String?) -> Campaign? {
        campaigns(inForceAt: date, appVersion: version).first
    }

    /// Every campaign in force at `date` for app version `version`, highest priority first (the
    /// first listed first among equals): a file shows the first of them with a snapshot of its
    /// screen, orientation and appearance (``campaign(inForceAt:appVersion:)`` is the first).
    package func campaigns(inForceAt date: Date, appVersion version: String?) -> [Campaign] {
        Self.byPriority(campaigns(forAppVersion: version).filter { $0.schedule.contains(date) })
    }

    /// The next instant after `date` at which what is shown may change: the nearest start or end of
    /// any campaign for this version, or the season's expiry (``validUntil``).
    package func nextChange(after date: Date, appVersion version: String?) -> Date? {
        var next: Date?
        func consider(_ instant: Date?) {
            if let instant, instant > date, next.map({ instant < $0 }) ?? true { next = instant }
        }
        consider(validUntil)
        for campaign in campaigns(forAppVersion: version) {
            consider(campaign.schedule.start)
            consider(campaign.schedule.end)
        }
        return next
    }
}

extension Manifest.Campaign {
    /// How many places a phone's rollout draw has: a rollout is kept in hundredths of a percent.
    package static let rolloutPlaces = 10_000

    /// Whether a phone whose rollout draw is `bucket` (0 to 9,999, drawn once and kept; nil: none
    /// drawn) shows this campaign: every phone without a `rollout`; otherwise the phones whose draw,
    /// turned by the campaign's own offset, falls below the share. Raising the share only adds
    /// phones and lowering it only removes them, as in CodePush; the offset (from the campaign's
    /// name) keeps two campaigns at 10% from reaching the same phones.
    package func rollsOut(toBucket bucket: Int?) -> Bool {
        guard let rollout else { return true }
        guard let bucket, (0..<Self.rolloutPlaces).contains(bucket) else { return false }
        return (bucket + Self.rolloutOffset(id)) % Self.rolloutPlaces < Int((rollout * 100).rounded())
    }

    /// The campaign's turn of every phone's draw: the first 32 bits of SHA-256 of its name.
    package static func rolloutOffset(_ id: String) -> Int {
        Int(UInt32(sha256Hex(Data(("splashgen rollout " + id).utf8)).prefix(8), radix: 16) ?? 0) % rolloutPlaces
    }
}
