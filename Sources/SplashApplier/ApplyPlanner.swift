import Foundation

/// What a run will do, decided before anything is written: what each cached file should hold,
/// every replacement object verified (name, size, hash, header, pixel size), the originals to back
/// up, and every problem named. `status` is this plan, not carried out.
struct ApplyPlan {
    /// The state after the plan is carried out (records hold their targets, no pending marks).
    var state: ApplierState
    /// Originals to write into `state.backup` first, by name (the OS rendered the cache anew).
    var backups: [String: Data] = [:]
    /// The files to change, in name order.
    var changes: [Change] = []
    /// Another library's leftovers: the launch folder is cleared for the OS to render anew.
    var clearFolder = false
    /// Why a file is left as it is, by name.
    var notes: [String: String] = [:]
    /// Everything to report.
    var problems: [ApplyReport.Problem] = []
    /// Whether the cache was rendered anew since the last run.
    var regenerated = false

    /// One file's change.
    struct Change {
        var name: String
        /// The hash the file will hold.
        var target: String
        /// The replacement's verified bytes; nil when the original comes back from the backup.
        var object: Data?
    }
}

/// Decides the plan from a survey's records, the campaign in force and the bundle. It writes nothing.
enum ApplyPlanner {
    /// The plan for records `state` (already rekeyed and with pending marks resolved).
    static func plan(_ state: ApplierState, campaign: Manifest.Campaign?, bundle: SnapshotBundle?,
                     restoring: Bool) throws(ApplierError) -> ApplyPlan {
        var plan = ApplyPlan(state: state)
        var verified: [String: Data] = [:]
        for name in state.files.keys.sorted() {
            guard var record = plan.state.files[name] else { continue }
            var target = record.original
            if record.decidedBy == .luminance {
                plan.problems.append(.init(.appearanceGuessed, file: name, "appearance \(record.appearance?.rawValue ?? "unknown") is a luminance guess: the marker did not decide"))
            }
            if let campaign, let bundle, !restoring {
                if let appearance = record.appearance {
                    let size = Manifest.Size(width: record.width, height: record.height)
                    if let snapshot = campaign.snapshots.first(where: { $0.pixels == size && $0.appearance == appearance }) {
                        if verified[snapshot.object] == nil {
                            do { verified[snapshot.object] = try bundle.verifiedObject(snapshot, width: record.width, height: record.height) } catch {
                                throw .badBundle(error)
                            }
                        }
                        target = snapshot.object
                    } else {
                        plan.notes[name] = "\(campaign.id) has no \(appearance.rawValue) snapshot of \(record.width)x\(record.height)"
                        plan.problems.append(.init(.missingSnapshot, file: name, plan.notes[name] ?? ""))
                    }
                } else {
                    let code: ApplyReport.Problem.Code = record.decidedBy == .undecodable ? .undecodable : .appearanceUnknown
                    plan.notes[name] = "appearance unknown (\(record.decidedBy.rawValue)); left as it is"
                    plan.problems.append(.init(code, file: name, "cannot tell light from dark; left as it is"))
                    target = record.current
                }
            }
            guard target != record.current else { continue }
            plan.changes.append(ApplyPlan.Change(name: name, target: target, object: target == record.original ? nil : verified[target]))
            record.current = target
            plan.state.files[name] = record
        }
        return plan
    }
}
