import Foundation

/// Carries a plan out through the file-system protocol, journaled so that a kill at any operation
/// leaves every cached file its original or its replacement and the next run ends where an
/// uninterrupted one would:
/// 1. new originals are backed up, then the state that points at them is written;
/// 2. the files about to change are marked pending (and the run unsettled) in the state;
/// 3. an original is replaced only when its verified backup exists (backed up again from the file
///    itself when it still holds the recorded original); each file is written beside its target and
///    renamed over it, keeping the OS's name; before iOS 13, where the folder cannot be written in
///    place, the folder is moved out, edited and moved back, with the move journaled too;
/// 4. the state is written settled (not flushed: what it says can be rebuilt from what is durable).
struct PlanExecutor {
    let paths: ApplierPaths
    let fs: any ApplierFileSystem
    /// The bundle the plan's objects come from (read one at a time, checked again as they are written).
    let bundle: SnapshotBundle?
    /// Before iOS 13: edit the folder moved out of place.
    let moveFolder: Bool

    /// Carries out `plan` over the surveyed `before` state; returns the state written and the
    /// problems met on the way (originals that could not come back).
    func run(_ plan: ApplyPlan, before: ApplierState, previousBackup: String?, settle: (inout ApplierState) -> Void)
        throws(ApplierError) -> (ApplierState, [ApplyReport.Problem]) {
        var state = before
        var problems: [ApplyReport.Problem] = []
        try fs.makeFolder(paths.url(ApplierPaths.support))

        if plan.clearFolder {
            // Another library's leftovers: move the folder aside, then delete it; the OS renders clean originals.
            state.files = [:]
            state.settledAt = nil
            try writeState(state)
            try fs.rename(paths.folderURL, to: paths.url(paths.clearingFolder))
            try fs.syncFolder(paths.folderURL.deletingLastPathComponent())
            try fs.remove(paths.url(paths.clearingFolder))
            settle(&state)
            try writeState(state)
            return (state, problems)
        }

        if !plan.backups.isEmpty {
            let backup = paths.url(state.backup)
            try paths.checkNoLinks(state.backup)
            try fs.makeFolder(backup)
            for name in plan.backups.keys.sorted() {
                guard let source = plan.backups[name] else { continue }
                guard let data = readBounded(paths.url(source.path), limit: ReadLimits.snapshotBytes), sha256Hex(data) == source.hash else {
                    throw .io(source.path, "changed while the applier was backing it up; nothing was replaced, the next run starts again")
                }
                try fs.replace(backup.appendingPathComponent(name), with: data)
            }
            try fs.syncFolder(backup)
            try writeState(state)
            if let previousBackup, previousBackup != state.backup, ApplierPaths.isBackupFolder(previousBackup) {
                try fs.remove(paths.url(previousBackup))
            }
        }

        if !plan.changes.isEmpty {
            state.settledAt = nil
            for change in plan.changes { state.files[change.name]?.pending = change.target }
            if moveFolder { state.folderMoved = true }
            try writeState(state)
            let working = moveFolder ? paths.url(paths.editingFolder) : paths.folderURL
            if moveFolder {
                try fs.rename(paths.folderURL, to: working)
                try fs.syncFolder(working.deletingLastPathComponent())
            }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: working.path)) ?? [] where entry.hasSuffix(ApplierFileSystemPartial.suffix) {
                try fs.remove(working.appendingPathComponent(entry))
            }
            let backup = paths.url(state.backup)
            for change in plan.changes {
                guard var record = state.files[change.name] else { continue }
                let file = working.appendingPathComponent(change.name)
                let bytes: Data
                if let snapshot = change.snapshot {
                    // Replacing the original: only with a verified backup of it behind.
                    if record.current == record.original, !backupHolds(record.original, at: backup.appendingPathComponent(change.name)) {
                        guard let now = readBounded(file, limit: ReadLimits.snapshotBytes), sha256Hex(now) == record.original else {
                            problems.append(.init(.originalLost, file: change.name, "no verified backup of the original, and the file no longer holds it; left as it is"))
                            record.pending = nil
                            state.files[change.name] = record
                            continue
                        }
                        try fs.makeFolder(backup)
                        try fs.replace(backup.appendingPathComponent(change.name), with: now, durably: true)
                    }
                    bytes = try object(snapshot, change.verifiedIdentity, width: record.width, height: record.height)
                } else {
                    guard let copy = readBounded(backup.appendingPathComponent(change.name), limit: ReadLimits.snapshotBytes),
                          sha256Hex(copy) == record.original else {
                        problems.append(.init(.originalLost, file: change.name, "the backup of the original is missing or damaged; the file keeps what it holds"))
                        record.pending = nil
                        state.files[change.name] = record
                        continue
                    }
                    bytes = copy
                }
                try fs.replace(file, with: bytes)
                record.current = change.target
                record.pending = nil
                state.files[change.name] = record
            }
            try fs.syncFolder(working)
            if moveFolder {
                try fs.rename(working, to: paths.folderURL)
                try fs.syncFolder(paths.folderURL.deletingLastPathComponent())
                state.folderMoved = nil
            }
        }
        settle(&state)
        // Not flushed: every cached file and backup is durable by now, and a state lost to a power
        // cut is rebuilt (pending marks resolved by reading the files, or records from the backups).
        try fs.replace(paths.stateURL, with: try state.encoded(), flush: false)
        return (state, problems)
    }

    /// An object's bytes for writing: read again, and hashed again unless its file is the very one
    /// the planner verified (same size, modification time and inode before and after the read).
    private func object(_ snapshot: Manifest.Snapshot, _ identity: FileIdentity?, width: Int, height: Int) throws(ApplierError) -> Data {
        guard let bundle else { throw .badBundle(.missingObject(snapshot.object)) }
        if let identity, bundle.identity(of: snapshot.object) == identity,
           let data = readBounded(bundle.root.appendingPathComponent("objects").appendingPathComponent(snapshot.object), limit: snapshot.bytes),
           data.count == snapshot.bytes, bundle.identity(of: snapshot.object) == identity {
            return data
        }
        do { return try bundle.verifiedObject(snapshot, width: width, height: height) } catch { throw .badBundle(error) }
    }

    /// Whether the backup file exists and hashes to `original`.
    private func backupHolds(_ original: String, at url: URL) -> Bool {
        readBounded(url, limit: ReadLimits.snapshotBytes).map { sha256Hex($0) == original } ?? false
    }

    private func writeState(_ state: ApplierState) throws(ApplierError) {
        try fs.replace(paths.stateURL, with: try state.encoded(), durably: true)
    }
}
