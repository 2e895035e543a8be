import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a run will do, decided before anything is written: what each cached file should hold,
/// every replacement object checked as far as it can be without reading it (a hash for a name, a
/// regular file of the manifest's size), the originals to back up, and every problem named. The
/// executor reads each object once, when it stages it, and checks its hash, header and pixel size
/// before anything else is written. `status` is this plan, not carried out, with every object read
/// and verified by the planner instead.
package struct ApplyPlan {
    /// The state after the plan is carried out (records hold their targets, no pending marks).
    package var state: ApplierState
    /// Originals to copy into `state.backup` first, by name (the OS rendered the cache anew).
    var backups: [String: BackupSource] = [:]
    /// The files to change, in name order.
    package var changes: [Change] = []
    /// Another library's leftovers: the launch folder is cleared for the OS to render anew.
    var clearFolder = false
    /// Why a file is left as it is, by name.
    package var notes: [String: String] = [:]
    /// Everything to report.
    package var problems: [ApplyReport.Problem] = []
    /// Whether the cache was rendered anew since the last run.
    var regenerated = false
    /// The screens (and appearances) each campaign in force lacks where it would be shown, once each.
    package var notShown: [ApplyReport.NotShown] = []

    /// What the report says of campaigns not shown: the plan's, then `others` (``ApplyPlanner/notShown(_:inForce:at:appVersion:)``)
    /// but for a campaign outranked that some file shows all the same (the only one with its snapshot).
    package func notShown(besides others: [ApplyReport.NotShown]) -> [ApplyReport.NotShown] {
        let shown = Set(state.files.values.compactMap { $0.current == $0.original ? nil : $0.campaign })
        return notShown + others.filter { $0.reason != .outranked || !shown.contains($0.campaign) }
    }

    /// One file's change.
    package struct Change {
        package var name: String
        /// The hash the file will hold.
        package var target: String
        /// The campaign snapshot whose object goes in (its name and size checked by the planner; its
        /// bytes read once and verified when the executor stages it); nil when the original comes
        /// back from the backup.
        package var snapshot: Manifest.Snapshot?
        /// The original's container, which the object's picture is written in (with `snapshot`).
        package var framing: ReplacementFraming?
        /// The file is removed, so that iOS renders it again at the next launch: a black render with
        /// nothing to put in its place. `target` is then the hash it holds now.
        package var remove = false
    }
}

/// Decides the plan from a survey's records, the campaign in force and the bundle. It writes nothing.
package enum ApplyPlanner {
    /// The plan for records `state` (already rekeyed and with pending marks resolved) with `campaigns`
    /// in force, highest priority first (``Manifest/campaigns(inForceAt:appVersion:)``). Each file
    /// shows the first of them with a snapshot of its screen, orientation and appearance; one ranked
    /// above it that lacks the snapshot hides nothing and is named in ``ApplyPlan/notShown``.
    /// `original` gives a file's original bytes, checked against its record (nil when they are
    /// nowhere to be read whole): a replacement takes the original's container (``ReplacementFraming``).
    package static func plan(
        _ state: ApplierState, campaigns: [Manifest.Campaign], bundle: SnapshotBundle?,
        restoring: Bool, verifyingBytes: Bool = false, screenScale: Int? = nil, original: (String) -> Data?
    ) throws(ApplierError) -> ApplyPlan {
        var plan = ApplyPlan(state: state)
        var chosen: [String: (snapshot: Manifest.Snapshot, framing: ReplacementFraming)] = [:]
        var checked: Set<String> = []
        for name in state.files.keys.sorted() {
            guard var record = plan.state.files[name] else { continue }
            var target = record.original
            // A guess that found no appearance is reported once, below, as unknown.
            if record.decidedBy == .luminance, let guessed = record.appearance {
                plan.problems.append(.init(.appearanceGuessed, file: name, "appearance \(guessed.rawValue) is a luminance guess: the marker did not decide"))
            }
            if !campaigns.isEmpty, let bundle, !restoring {
                if record.appearance != nil || record.decidedBy == .samePicture {
                    let shown = campaigns.first { Self.snapshot(of: record, in: $0) != nil }
                    Self.noteMissing(name, record: record, above: shown, in: campaigns, screenScale: screenScale, plan: &plan)
                    if shown == nil, record.appearance == nil {
                        let size = ScreenSize(width: record.width, height: record.height)
                        let screen = ApplyReport.Screen(width: record.width, height: record.height, scale: screenScale)
                        if campaigns.contains(where: { $0.snapshots.contains { $0.pixels.isScreen(ofRecorded: size) } }) {
                            plan.notes[name] = "the same picture in light and dark; left as it is"
                            plan.problems.append(
                                .init(
                                    .appearanceUnknown, file: name,
                                    "the app's launch screen is one colour in light and dark (UILaunchScreen), so its light and dark renders are the same picture and this file's appearance cannot be told; the campaigns in force show different light and dark pictures of this screen: left as it is (give the campaign one picture for both)"
                                ))
                        } else {
                            plan.notes[name] = "no campaign in force has a snapshot of \(record.width)x\(record.height)"
                            plan.problems.append(
                                .init(
                                    .missingSnapshot, file: name,
                                    "no campaign in force (\(campaigns.map(\.id).joined(separator: ", "))) has a snapshot of this screen, \(screen): add the screen to the campaign meant to show on it (a device in devices:, or a catalogue: entry) and build again",
                                    screen: screen))
                        }
                    }
                    if let shown, let snapshot = Self.snapshot(of: record, in: shown) {
                        // A file recording one pixel more than its screen stands for the screen's size.
                        (record.width, record.height) = (snapshot.pixels.width, snapshot.pixels.height)
                        if record.object == snapshot.object, record.current != record.original {
                            // Already showing it, in its original's container.
                            target = record.current
                            record.campaign = shown.id
                        } else {
                            switch Self.framing(of: name, original: original, record: record, plan: &plan) {
                            case .framed(let framing):
                                if !checked.contains(snapshot.object) {
                                    // A missing, misnamed or missized object is refused before anything is
                                    // written; its bytes are verified as the executor stages it.
                                    // `status` reads and hashes every object here, since nothing stages it.
                                    if verifyingBytes {
                                        do { _ = try bundle.verifiedObject(snapshot, width: record.width, height: record.height) } catch {
                                            throw .badBundle(error)
                                        }
                                    } else if let problem = Self.precheck(snapshot, in: bundle) {
                                        throw .badBundle(problem)
                                    }
                                    checked.insert(snapshot.object)
                                }
                                target = snapshot.object
                                chosen[name] = (snapshot, framing)
                                record.campaign = shown.id
                            case .originalUnreadable:
                                target = record.current
                            case .unsupported:
                                // The original's container cannot be written again: the original stays, or comes back.
                                target = record.original
                            }
                        }
                    }
                } else {
                    let code: ApplyReport.Problem.Code = record.decidedBy == .undecodable ? .undecodable : .appearanceUnknown
                    plan.notes[name] = "appearance unknown (\(record.decidedBy.rawValue)); left as it is"
                    plan.problems.append(.init(code, file: name, "cannot tell light from dark; left as it is"))
                    target = record.current
                }
            }
            if target == record.original, record.blackRender == true {
                // A black render is never put back: the app's own screen goes there instead, or else
                // the file is removed for iOS to render again.
                guard let own = try Self.ownScreen(instead: name, record: record, bundle: bundle, original: original, chosen: &chosen, plan: &plan)
                else {
                    plan.changes.append(ApplyPlan.Change(name: name, target: record.current, remove: true))
                    plan.notes[name] = "removed: iOS renders it again at the next launch"
                    plan.state.files[name] = nil
                    continue
                }
                target = own
                record.campaign = bundle?.manifest.ownScreen(forAppVersion: plan.state.key.version)?.id
            }
            if target == record.original { record.campaign = nil }
            guard target != record.current else {
                plan.state.files[name]?.campaign = record.campaign
                continue
            }
            let replacement = target == record.original ? nil : chosen[name]
            plan.changes.append(ApplyPlan.Change(name: name, target: target, snapshot: replacement?.snapshot, framing: replacement?.framing))
            record.current = target
            record.object = replacement?.snapshot.object
            plan.state.files[name] = record
        }
        return plan
    }

    /// ``plan(_:campaigns:bundle:restoring:verifyingBytes:screenScale:original:)`` with at most one
    /// campaign in force.
    package static func plan(
        _ state: ApplierState, campaign: Manifest.Campaign?, bundle: SnapshotBundle?,
        restoring: Bool, verifyingBytes: Bool = false, screenScale: Int? = nil, original: (String) -> Data?
    ) throws(ApplierError) -> ApplyPlan {
        try plan(
            state, campaigns: campaign.map { [$0] } ?? [], bundle: bundle, restoring: restoring, verifyingBytes: verifyingBytes,
            screenScale: screenScale, original: original)
    }

    /// Names each campaign in force ranked above `shown` (every one, when no campaign has the file's
    /// snapshot) that lacks the snapshot of file `name`: why, in ``ApplyPlan/notShown``, and what the
    /// file shows instead. Only when none has it is it a problem (`missing-snapshot`): the file shows
    /// its original, and the fix is to add the screen to the campaign meant to show there.
    private static func noteMissing(
        _ name: String, record: ApplierState.FileRecord, above shown: Manifest.Campaign?, in campaigns: [Manifest.Campaign], screenScale: Int?,
        plan: inout ApplyPlan
    ) {
        guard let appearance = record.appearance else { return }
        let size = ScreenSize(width: record.width, height: record.height)
        let screen = ApplyReport.Screen(width: record.width, height: record.height, scale: screenScale)
        let turned = ScreenSize(width: size.height, height: size.width)
        let instead = shown.map { "\($0.id) (priority \($0.priority))" } ?? "the original"
        let lacking = campaigns.prefix { $0.id != shown?.id }
        for campaign in lacking {
            let why: ApplyReport.NotShown
            if campaign.snapshots.contains(where: { $0.pixels.isScreen(ofRecorded: size) }) {
                why = .init(
                    campaign.id, .appearanceMissing,
                    "no \(appearance.rawValue) snapshot of \(screen), \(record.orientation.rawValue): those files show \(instead)")
            } else if campaign.snapshots.contains(where: { $0.pixels.isScreen(ofRecorded: turned) }) {
                why = .init(campaign.id, .orientationMissing, "no \(record.orientation.rawValue) snapshot of \(screen): those files show \(instead)")
            } else {
                why = .init(campaign.id, .screenMissing, "no snapshot of \(screen): its files show \(instead)")
            }
            if !plan.notShown.contains(why) { plan.notShown.append(why) }
        }
        guard shown == nil else { return }
        let one = lacking.count == 1 ? lacking.first : nil
        let who =
            one.map { "\($0.id) has no \(appearance.rawValue) snapshot" }
            ?? "no campaign in force (\(lacking.map(\.id).joined(separator: ", "))) has a \(appearance.rawValue) snapshot"
        let fix = one == nil ? "add the screen to the campaign meant to show on it" : "add the screen to the campaign"
        plan.notes[name] = "\(who) of \(record.width)x\(record.height)"
        plan.problems.append(
            .init(
                .missingSnapshot, file: name, "\(who) of this screen, \(screen): \(fix) (a device in devices:, or a catalogue: entry) and build again",
                screen: screen))
    }

    /// The snapshot of `campaign` for the file `record` describes: its screen (a file recording one
    /// pixel more stands for it) and appearance.
    static func snapshot(of record: ApplierState.FileRecord, in campaign: Manifest.Campaign) -> Manifest.Snapshot? {
        let size = ScreenSize(width: record.width, height: record.height)
        if let appearance = record.appearance {
            return campaign.snapshots.first { $0.pixels.isScreen(ofRecorded: size) && $0.appearance == appearance }
        }
        // The same picture in both appearances (a UILaunchScreen app of one colour): nothing tells the
        // file's appearance, so it takes the campaign's picture only where that is one picture in
        // every appearance the campaign has.
        guard record.decidedBy == .samePicture else { return nil }
        let screen = campaign.snapshots.filter { $0.pixels.isScreen(ofRecorded: size) }
        guard let first = screen.first, screen.allSatisfy({ $0.object == first.object }) else { return nil }
        return first
    }

    /// What goes where a black render (`record`) would come back: the app's own screen (the bundle's
    /// campaign marked `own_screen`) in the original's container. Returns the file's target, or nil
    /// (reported) when there is nothing to put there: the bundle lacks the app's own screen of this
    /// size, or the original's container cannot be written again. The file is then removed, so that
    /// iOS renders it again at the next launch (seed article 000's repair).
    private static func ownScreen(
        instead name: String, record: ApplierState.FileRecord, bundle: SnapshotBundle?, original: (String) -> Data?,
        chosen: inout [String: (snapshot: Manifest.Snapshot, framing: ReplacementFraming)], plan: inout ApplyPlan
    ) throws(ApplierError) -> String? {
        let removed = "the file is removed, so iOS renders it again from the storyboard at the next launch"
        guard let bundle, let own = bundle.manifest.ownScreen(forAppVersion: plan.state.key.version),
            let snapshot = Self.snapshot(of: record, in: own)
        else {
            plan.problems.append(
                .init(
                    .originalBlackRender, file: name,
                    "the original is the OS's black render, and no bundle gives the app's own screen of this size (a campaign with own_screen: true) to put there instead: \(removed)"
                ))
            return nil
        }
        if record.object == snapshot.object, record.current != record.original { return record.current }
        switch Self.framing(of: name, original: original, record: record, plan: &plan) {
        case .framed(let framing):
            if let problem = Self.precheck(snapshot, in: bundle) { throw .badBundle(problem) }
            chosen[name] = (snapshot, framing)
        case .originalUnreadable:
            return record.current
        case .unsupported:
            plan.problems.append(
                .init(.originalBlackRender, file: name, "the original is the OS's black render, and \(own.id) cannot be written in its container: \(removed)"))
            return nil
        }
        plan.problems.append(
            .init(.originalBlackRender, file: name, "the original is the OS's black render: \(own.id), the app's own screen, goes there instead"))
        return snapshot.object
    }

    /// What a file's original says of its replacement's container.
    private enum Framing {
        /// The container to write the campaign's picture in.
        case framed(ReplacementFraming)
        /// The original is nowhere to be read whole: the file stays as it is.
        case originalUnreadable
        /// splashgen cannot write the original's container again exactly.
        case unsupported
    }

    /// The container `name`'s original was written in, the reason otherwise noted and reported: its
    /// bytes are nowhere to be read whole (`original-lost`), or splashgen cannot write its container
    /// again exactly (`container-unsupported`).
    private static func framing(
        of name: String, original: (String) -> Data?, record: ApplierState.FileRecord, plan: inout ApplyPlan
    ) -> Framing {
        guard let bytes = original(name) else {
            plan.notes[name] = "the original is neither in the cache nor in a verified backup; left as it is"
            plan.problems.append(.init(.originalLost, file: name, "no verified copy of the original to read its container from; left as it is"))
            return .originalUnreadable
        }
        do { return .framed(try ReplacementFraming(original: bytes)) } catch {
            if record.current == record.original { plan.notes[name] = "its container cannot be written again exactly; left as the OS wrote it" }
            plan.problems.append(.init(.containerUnsupported, file: name, "the original \(error.description)"))
            return .unsupported
        }
    }

    /// Why each campaign other than `inForce` is not shown at `now` to app version `version`: the
    /// version range first (the bundle's, then the campaign's), then the schedule, then priority.
    package static func notShown(_ manifest: Manifest, inForce: Manifest.Campaign?, at now: Date, appVersion version: String) -> [ApplyReport.NotShown] {
        manifest.campaigns.compactMap { campaign in
            guard campaign.id != inForce?.id else { return nil }
            if let bound = manifest.versionBound(excluding: campaign, appVersion: version) {
                let whose = bound.ofBundle ? "the bundle's" : "its"
                return bound.below
                    ? .init(campaign.id, .versionBelowRange, "app version \(version) is below \(whose) min_version \(bound.version)")
                    : .init(campaign.id, .versionAboveRange, "app version \(version) is above \(whose) max_version \(bound.version)")
            }
            // In the offset the campaign was written in, UTC beside it.
            let zone = campaign.schedule.writtenTimeZone
            if now < campaign.schedule.start {
                return .init(campaign.id, .notStarted, "starts \(ScheduleTime.written(campaign.schedule.start, in: zone))")
            }
            if let end = campaign.schedule.end, end <= now {
                return .init(campaign.id, .ended, "ended \(ScheduleTime.written(end, in: zone))")
            }
            let shown = inForce.map { "\($0.id) (priority \($0.priority))" } ?? "another campaign"
            return .init(campaign.id, .outranked, "in force, but \(shown) outranks it (priority \(campaign.priority))")
        }
    }

    /// What is wrong with an object that shows without reading it: its name is not a hash, its file
    /// is missing (or not a regular file), or its size is not the manifest's.
    static func precheck(_ snapshot: Manifest.Snapshot, in bundle: SnapshotBundle) -> BundleProblem? {
        guard isObjectName(snapshot.object) else { return .notAnObjectName(snapshot.object) }
        let url = bundle.root.appendingPath("objects").appendingPath(snapshot.object)
        guard let info = ContainedFolder(bundle.root).statusIfReachable(url) else { return .missingObject(snapshot.object) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notARegularFile("objects/" + snapshot.object, kind: FileKind.describe(info.st_mode)) }
        guard Int(info.st_size) == snapshot.bytes else {
            return .sizeMismatch(object: snapshot.object, expected: snapshot.bytes, found: Int(info.st_size))
        }
        return nil
    }
}
