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
        /// The campaign snapshot whose object goes in (its name and size checked by the planner; its
        /// bytes read once and verified when the executor stages it); nil when the original comes
        /// back from the backup.
        var snapshot: Manifest.Snapshot?
    }
}

/// Decides the plan from a survey's records, the campaign in force and the bundle. It writes nothing.
enum ApplyPlanner {
    /// The plan for records `state` (already rekeyed and with pending marks resolved).
    static func plan(
        _ state: ApplierState, campaign: Manifest.Campaign?, bundle: SnapshotBundle?,
        restoring: Bool, verifyingBytes: Bool = false
    ) throws(ApplierError) -> ApplyPlan {
        var plan = ApplyPlan(state: state)
        var chosen: [String: Manifest.Snapshot] = [:]
        var checked: Set<String> = []
        for name in state.files.keys.sorted() {
            guard var record = plan.state.files[name] else { continue }
            var target = record.original
            if record.decidedBy == .luminance {
                plan.problems.append(
                    .init(
                        .appearanceGuessed, file: name, "appearance \(record.appearance?.rawValue ?? "unknown") is a luminance guess: the marker did not decide"
                    ))
            }
            if let campaign, let bundle, !restoring {
                if let appearance = record.appearance {
                    let size = Manifest.Size(width: record.width, height: record.height)
                    if let snapshot = campaign.snapshots.first(where: { $0.pixels.isScreen(ofRecorded: size) && $0.appearance == appearance }) {
                        // A file recording one pixel more than its screen stands for the screen's size.
                        (record.width, record.height) = (snapshot.pixels.width, snapshot.pixels.height)
                        if !checked.contains(snapshot.object) {
                            // A missing, misnamed or missized object is refused before anything is
                            // written; its bytes are verified as the executor stages it.
                            // `status` reads and hashes every object here, since nothing stages it.
                            if verifyingBytes {
                                do { _ = try bundle.verifiedObject(snapshot, width: record.width, height: record.height) } catch { throw .badBundle(error) }
                            } else if let problem = Self.precheck(snapshot, in: bundle) {
                                throw .badBundle(problem)
                            }
                            checked.insert(snapshot.object)
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
            plan.changes.append(ApplyPlan.Change(name: name, target: target, snapshot: target == record.original ? nil : chosen[name]))
            record.current = target
            plan.state.files[name] = record
        }
        return plan
    }

    /// What is wrong with an object that shows without reading it: its name is not a hash, its file
    /// is missing (or not a regular file), or its size is not the manifest's.
    static func precheck(_ snapshot: Manifest.Snapshot, in bundle: SnapshotBundle) -> BundleProblem? {
        guard isObjectName(snapshot.object) else { return .notAnObjectName(snapshot.object) }
        let url = bundle.root.appendingPathComponent("objects").appendingPathComponent(snapshot.object)
        guard let info = ContainedFolder(bundle.root).statusIfReachable(url) else { return .missingObject(snapshot.object) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notARegularFile("objects/" + snapshot.object, kind: FileKind.describe(info.st_mode)) }
        guard Int(info.st_size) == snapshot.bytes else {
            return .sizeMismatch(object: snapshot.object, expected: snapshot.bytes, found: Int(info.st_size))
        }
        return nil
    }
}
