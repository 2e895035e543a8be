import Foundation

/// What a run will do, decided before anything is written: what each cached file should hold,
/// every replacement object verified (name, size, hash, header, pixel size), the originals to back
/// up, and every problem named. `status` is this plan, not carried out.
struct ApplyPlan {
    /// The state after the plan is carried out (records hold their targets, no pending marks).
    var state: ApplierState
    /// Originals to copy into `state.backup` first, by name (the OS rendered the cache anew).
    var backups: [String: BackupSource] = [:]
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
        /// The campaign snapshot whose object goes in (verified by the planner; read again when
        /// written, one at a time, and hashed again unless its file is unchanged since); nil when the
        /// original comes back from the backup.
        var snapshot: Manifest.Snapshot?
        /// The object file's identity when the planner verified it.
        var verifiedIdentity: FileIdentity?
    }
}

/// Decides the plan from a survey's records, the campaign in force and the bundle. It writes nothing.
enum ApplyPlanner {
    /// The plan for records `state` (already rekeyed and with pending marks resolved).
    static func plan(_ state: ApplierState, campaign: Manifest.Campaign?, bundle: SnapshotBundle?,
                     restoring: Bool) throws(ApplierError) -> ApplyPlan {
        var plan = ApplyPlan(state: state)
        var chosen: [String: Manifest.Snapshot] = [:]
        var verified: [String: FileIdentity] = [:]
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
                            // Every object is checked before anything is written; its bytes are not kept.
                            let before = bundle.identity(of: snapshot.object)
                            do { _ = try bundle.verifiedObject(snapshot, width: record.width, height: record.height) } catch {
                                throw .badBundle(error)
                            }
                            if let before, bundle.identity(of: snapshot.object) == before { verified[snapshot.object] = before }
                        }
                        target = snapshot.object
                        chosen[name] = snapshot
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
            let snapshot = target == record.original ? nil : chosen[name]
            plan.changes.append(ApplyPlan.Change(name: name, target: target, snapshot: snapshot,
                                                 verifiedIdentity: snapshot.flatMap { verified[$0.object] }))
            record.current = target
            plan.state.files[name] = record
        }
        return plan
    }
}
