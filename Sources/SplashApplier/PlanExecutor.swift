import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Carries a plan out through the file-system protocol, journaled so that a kill at any operation
/// leaves every cached file its original or its replacement and the next run ends where an
/// uninterrupted one would. A swap makes two full flushes whatever the number of files
/// (docs/ios-launch-cache.md §4: a full flush covers every file handed to the drive before it):
/// 0. before anything else is written, every campaign object is read once and, in its original's
///    container (``ReplacementFraming``), written to the staging folder while it is checked (size,
///    hash, header, pixel size) on a second thread, handed to the drive (`fsync`) in the
///    background while the next one is read. A bad object removes what was staged and changes
///    nothing else;
/// 1. new originals are backed up (handed to the drive) and the backup folder synced (a full
///    flush); every original coming back is then staged from its verified backup as the objects
///    were; with no change to make, the state that points at the new backups is written;
/// 2. the files about to change are marked pending (and the run unsettled) in the state that
///    points at the backups, written in place and sealed, with one full flush that also makes
///    every staged file durable; only then does the previous key's backup folder go;
/// 3. an original is replaced only when its verified backup exists (backed up again from the file
///    itself when it still holds the recorded original); each staged file is renamed over its
///    target, keeping the OS's name (a black render with nothing to put in its place is removed,
///    for iOS to render again); before iOS 13, where the folder cannot be written in place, the
///    folder is moved out, edited and moved back, with the move journaled too; one sync of the
///    folder (the second full flush) makes the renames durable before the state claims them;
/// 4. the state is written settled, in place (not flushed: a torn one is rebuilt from what is
///    durable).
package struct PlanExecutor {
    let paths: ApplierPaths
    let fs: any ApplierFileSystem
    /// The bundle the plan's objects come from (each read once, one at a time, and verified as it is staged).
    let bundle: SnapshotBundle?
    /// Before iOS 13: edit the folder moved out of place.
    let moveFolder: Bool
    /// Objects checked whole before (``ApplierState/verified``): staging one checks its hash, size
    /// and header, and does not decode its blocks again.
    var verified: Set<String> = []

    /// Carries out `plan` over the surveyed `before` state; returns the state written and the
    /// problems met on the way (originals that could not come back). Each step is one of the
    /// journal's above, in its order.
    func run(
        _ plan: ApplyPlan, before: ApplierState, previousBackup: String?, settle: (inout ApplierState) -> Void
    )
        throws(ApplierError) -> (ApplierState, [ApplyReport.Problem])
    {
        var state = before
        try fs.makeFolder(paths.url(ApplierPaths.support))
        // A killed run's staged objects go first.
        let staging = paths.url(Self.staging)
        if try paths.checkNoLinks(Self.staging) { try fs.remove(staging) }
        if plan.clearFolder {
            try clearFolder(&state, settle: settle)
            return (state, [])
        }
        // Staged files are handed to the drive while the next object is read, and waited for
        // before the pending mark's full flush, which covers them.
        let flusher = Flusher(fs: fs)
        defer { flusher.drain() }
        // 0. The plan's records: a file recording one pixel more than its screen has the screen's size there.
        var staged = try stage(plan.changes, records: plan.state.files, into: staging, flusher: flusher)
        // 1.
        try backUp(plan.backups, in: state)
        // 0, for originals coming back: from the backups as step 1 left them.
        try stageOriginals(plan.changes, records: state.files, from: state.backup, into: staging, flusher: flusher, staged: &staged)
        if !plan.changes.isEmpty {
            // 2. The pending mark also points at the new backups.
            try flusher.wait()
            try markPending(plan.changes, staged: staged, in: &state)
        } else if !plan.backups.isEmpty {
            // 1, its end: the state that points at the new backups.
            try writeState(state)
        }
        // The previous key's backups go once a durable state no longer points at them.
        if !plan.backups.isEmpty, let previousBackup, previousBackup != state.backup, ApplierPaths.isBackupFolder(previousBackup) {
            try fs.remove(paths.url(previousBackup))
        }
        var problems: [ApplyReport.Problem] = []
        if !plan.changes.isEmpty {
            // 3.
            problems = try swap(plan.changes, staged: staged, in: &state)
        }
        // What is left staged belongs to files whose original was lost, left as they are.
        if !staged.isEmpty { try fs.remove(staging) }
        // 4. Not flushed: every cached file and backup is durable by now, and a state torn by a power
        // cut is rebuilt (records from the backups and the files).
        settle(&state)
        try fs.overwrite(try state.encoded(), at: paths.stateURL, flush: .none)
        return (state, problems)
    }

    /// Another library's leftovers: the folder is moved aside, then deleted, for the OS to render
    /// clean originals; the state says so first.
    private func clearFolder(_ state: inout ApplierState, settle: (inout ApplierState) -> Void) throws(ApplierError) {
        state.files = [:]
        state.settledAt = nil
        try writeState(state)
        try fs.rename(paths.folderURL, to: paths.url(paths.clearingFolder))
        try fs.syncFolder(paths.folderURL.deletingLastPathComponent())
        try fs.remove(paths.url(paths.clearingFolder))
        settle(&state)
        try writeState(state)
    }

    /// Step 1: new originals are backed up (each read again and checked against the hash the survey
    /// took, handed to the drive), and the folder synced (a full flush, which covers them). The
    /// state that points at them is written next, by the pending mark when there are changes.
    private func backUp(_ backups: [String: BackupSource], in state: ApplierState) throws(ApplierError) {
        guard !backups.isEmpty else { return }
        let backup = paths.url(state.backup)
        try paths.checkNoLinks(state.backup)
        try fs.makeFolder(backup)
        for name in backups.keys.sorted() {
            guard let source = backups[name] else { continue }
            guard let data = paths.read(paths.url(source.path), holding: source.hash) else {
                throw .fileSystem(
                    FileSystemError(
                        .read, path: source.path,
                        message: "it changed while the applier was backing it up; nothing was replaced, the next run starts again"))
            }
            try fs.replace(backup.appendingPath(name), with: data, flush: .toDrive)
        }
        try fs.syncFolder(backup)
    }

    /// Step 2: the files about to change are marked pending, and the run unsettled, durably: one
    /// write in place and one full flush, which also covers the staged files handed to the drive
    /// before it. A replacement's hash is its staged file's: the object's picture in the original's
    /// container.
    /// The object a file shows is not known again until its change is done: a kill after the rename
    /// must not leave the record naming the picture it had before.
    private func markPending(
        _ changes: [ApplyPlan.Change], staged: [String: (url: URL, hash: String)], in state: inout ApplierState
    ) throws(ApplierError) {
        state.settledAt = nil
        for change in changes {
            state.files[change.name]?.pending = staged[change.name]?.hash ?? change.target
            state.files[change.name]?.object = nil
        }
        if moveFolder { state.folderMoved = true }
        try writeState(state)
    }

    /// Step 3: before iOS 13 the folder is moved out to be edited; leftovers of a killed run's
    /// writes go; each file gets what it should hold (``put(_:in:staged:state:problems:)``); one
    /// sync of the folder makes the renames durable; the folder moves back. Returns the originals
    /// that could not come back.
    private func swap(
        _ changes: [ApplyPlan.Change], staged: [String: (url: URL, hash: String)], in state: inout ApplierState
    ) throws(ApplierError) -> [ApplyReport.Problem] {
        let working = moveFolder ? paths.url(paths.editingFolder) : paths.folderURL
        if moveFolder {
            try fs.rename(paths.folderURL, to: working)
            try fs.syncFolder(working.deletingLastPathComponent())
        }
        for entry in paths.contained.listing(working) where entry.hasSuffix(ApplierFileSystemPartial.suffix) {
            try fs.remove(working.appendingPath(entry))
        }
        var problems: [ApplyReport.Problem] = []
        for change in changes {
            try put(change, in: working, staged: staged, state: &state, problems: &problems)
        }
        try fs.syncFolder(working)
        if moveFolder {
            try fs.rename(working, to: paths.folderURL)
            try fs.syncFolder(paths.folderURL.deletingLastPathComponent())
            state.folderMoved = nil
        }
        return problems
    }

    /// One file of step 3: a black render with nothing to put in its place is removed, for iOS to
    /// render again; a replacement is renamed over its target, and replaces an original only with a
    /// verified backup of it behind (backed up again from the file itself when it still holds the
    /// recorded original); an original comes back as its staged copy of the verified backup,
    /// renamed over its target. A file whose original is nowhere to be had keeps what it holds
    /// (reported).
    private func put(
        _ change: ApplyPlan.Change, in working: URL, staged: [String: (url: URL, hash: String)], state: inout ApplierState,
        problems: inout [ApplyReport.Problem]
    ) throws(ApplierError) {
        guard var record = state.files[change.name] else { return }
        let file = working.appendingPath(change.name), backup = paths.url(state.backup)
        if change.remove {
            try fs.remove(file)
            state.files[change.name] = nil
            return
        }
        if change.snapshot != nil {
            if record.current == record.original, paths.read(backup.appendingPath(change.name), holding: record.original) == nil {
                guard let now = paths.read(file, holding: record.original) else {
                    problems.append(
                        .init(.originalLost, file: change.name, "no verified backup of the original, and the file no longer holds it; left as it is"))
                    record.pending = nil
                    state.files[change.name] = record
                    return
                }
                try fs.makeFolder(backup)
                try fs.replace(backup.appendingPath(change.name), with: now, durably: true)
            }
            guard let source = staged[change.name] else {
                throw .fileSystem(FileSystemError(.rename, path: file.path, message: "its replacement was not staged"))
            }
            try fs.rename(source.url, to: file)
        } else {
            guard let source = staged[change.name] else {
                problems.append(
                    .init(.originalLost, file: change.name, "the backup of the original is missing or damaged; the file keeps what it holds"))
                record.pending = nil
                state.files[change.name] = record
                return
            }
            try fs.rename(source.url, to: file)
        }
        record.current = staged[change.name]?.hash ?? change.target
        record.object = change.snapshot?.object
        record.pending = nil
        state.files[change.name] = record
    }

    /// Where campaign objects are staged, container-relative: beside the state, on the container's
    /// volume, so a staged file is renamed into the launch folder (or the folder moved out of place).
    package static let staging = ApplierPaths.support + "/swap-staging"

    /// Reads each campaign object of `changes` once into one buffer, checks it (size, hash, header,
    /// pixel size of the file it replaces) while writing it, in its original's container, to
    /// `folder`, its handing to the drive given to `flusher`. A bad object removes the staging
    /// folder and throws: nothing else has been written yet. Returns the staged file of each file
    /// name and its hash.
    private func stage(
        _ changes: [ApplyPlan.Change], records: [String: ApplierState.FileRecord], into folder: URL,
        flusher: Flusher
    ) throws(ApplierError) -> [String: (url: URL, hash: String)] {
        let objects = changes.compactMap { change in
            change.snapshot.map { (name: change.name, snapshot: $0, framing: change.framing) }
        }
        guard !objects.isEmpty else { return [:] }
        guard let bundle else { throw .badBundle(.missingObject(objects[0].snapshot.object)) }
        try fs.makeFolder(folder)
        var buffer = Data(count: objects.map(\.snapshot.bytes).max() ?? 0)
        var staged: [String: (url: URL, hash: String)] = [:]
        for (name, snapshot, framing) in objects {
            guard let record = records[name] else { continue }
            let problem: BundleProblem?
            switch Self.read(snapshot, of: bundle, into: &buffer) {
            case .failure(let failure):
                problem = failure
            case .success(let count):
                let url = folder.appendingPath(name)
                let (found, hash) = try checkWhileWriting(
                    snapshot, buffer.prefix(count), framing: framing, width: record.width, height: record.height, to: url)
                problem = found
                if let hash, problem == nil {
                    flusher.flush(url)
                    staged[name] = (url, hash)
                }
            }
            if let problem {
                flusher.drain()
                try fs.remove(folder)
                throw .badBundle(problem)
            }
        }
        return staged
    }

    /// Checks an object's bytes (size, hash, header, pixel size) on one thread while, on another,
    /// they are framed in the original's container and written to the staged file `url`: a staged
    /// file is renamed into place only once its check has passed, so writing it meanwhile risks
    /// nothing. Returns what is wrong with the object, and the staged file's hash.
    private func checkWhileWriting(
        _ snapshot: Manifest.Snapshot, _ data: Data, framing: ReplacementFraming?, width: Int, height: Int, to url: URL
    )
        throws(ApplierError) -> (problem: BundleProblem?, hash: String?)
    {
        let (fs, verified) = (self.fs, self.verified)
        // What the two halves found: the object's problem, the staged file's hash, why it could not be
        // framed, the write's failure. The check's finding names the object best, so it comes first.
        let outcome = Locked<(problem: BundleProblem?, hash: String?, unframed: BundleProblem?, failure: ApplierError?)>((nil, nil, nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                let problem = SnapshotBundle.check(
                    snapshot, data: data, width: width, height: height, blocksVerified: verified.contains(snapshot.object))
                outcome.withLock { $0.problem = problem }
            } else {
                do throws(ApplierError) {
                    let file: Data
                    if let framing {
                        do throws(SnapshotFormatError) { file = try framing.replacement(of: data) } catch {
                            outcome.withLock { $0.unframed = .unreadableObject(object: snapshot.object, detail: error.description) }
                            return
                        }
                    } else {
                        file = data
                    }
                    // What is staged is read back as the OS would read its header: the container and
                    // the pixel size the file replaces, which records the screen (or, as the original
                    // did, one pixel more); the blocks are the object's, checked above.
                    guard let size = try? SnapshotHeader.pixelSize(of: file),
                        ScreenSize(width: width, height: height).isScreen(ofRecorded: ScreenSize(width: size.width, height: size.height))
                    else {
                        outcome.withLock {
                            $0.unframed = .unreadableObject(
                                object: snapshot.object, detail: "its picture framed in the original's container does not read back")
                        }
                        return
                    }
                    try fs.write(file, to: url, flush: .none)
                    let hash = sha256Hex(file)
                    outcome.withLock { $0.hash = hash }
                } catch {
                    outcome.withLock { $0.failure = error }
                }
            }
        }
        let (problem, hash, unframed, failure) = outcome.withLock { $0 }
        if let failure { throw failure }
        return (problem ?? unframed, hash)
    }

    /// Reads an object's file into `buffer` (reused across objects): exactly the manifest's size of a
    /// regular file, never through a link (``readBoundedFile(_:limit:within:into:)``). Returns the
    /// byte count.
    private static func read(_ snapshot: Manifest.Snapshot, of bundle: SnapshotBundle, into buffer: inout Data) -> Result<Int, BundleProblem> {
        guard isObjectName(snapshot.object) else { return .failure(.notAnObjectName(snapshot.object)) }
        let url = bundle.root.appendingPath("objects").appendingPath(snapshot.object)
        switch readBoundedFile(url, limit: snapshot.bytes, within: ContainedFolder(bundle.root), into: &buffer) {
        case .success(let count) where count == snapshot.bytes: return .success(count)
        case .success(let count): return .failure(.sizeMismatch(object: snapshot.object, expected: snapshot.bytes, found: count))
        case .failure(let refusal): return .failure(.object(snapshot.object, expected: snapshot.bytes, refusal))
        }
    }

    /// Writes the state in place with a full flush (and, the first time, syncs the folder that
    /// holds it, for its entry).
    /// Copies each original of `changes` coming back from its verified backup in `backup` to
    /// `folder`, its handing to the drive given to `flusher`, after step 1 (which may have just
    /// copied that backup under a new key). One whose backup is missing or damaged is not staged:
    /// it keeps what it holds (reported by ``put(_:in:staged:state:problems:)``).
    private func stageOriginals(
        _ changes: [ApplyPlan.Change], records: [String: ApplierState.FileRecord], from backup: String, into folder: URL,
        flusher: Flusher, staged: inout [String: (url: URL, hash: String)]
    ) throws(ApplierError) {
        var folderMade = false
        for change in changes where change.snapshot == nil && !change.remove {
            guard let original = records[change.name]?.original,
                let copy = paths.read(paths.url(backup).appendingPath(change.name), holding: original)
            else { continue }
            let url = folder.appendingPath(change.name)
            if !folderMade { try fs.makeFolder(folder) }
            folderMade = true
            try fs.write(copy, to: url, flush: .none)
            flusher.flush(url)
            staged[change.name] = (url, original)
        }
    }

    private func writeState(_ state: ApplierState) throws(ApplierError) {
        if try fs.overwrite(try state.encoded(), at: paths.stateURL, flush: .full) {
            try fs.syncFolder(paths.stateURL.deletingLastPathComponent())
        }
    }
}

/// Hands staged files to the drive (`fsync`, ``Flush/toDrive``) on background threads while the
/// executor reads and hashes the next object, so the disk's work overlaps the processor's; the
/// files' flushes overlap each other too. ``wait()`` returns once every flush handed over has
/// ended, and throws the first that failed; the pending mark's full flush then covers them.
private final class Flusher: @unchecked Sendable {
    private let fs: any ApplierFileSystem
    private let queue = DispatchQueue(label: "splashgen.applier.flush", attributes: .concurrent)
    private let group = DispatchGroup()
    /// The first flush that failed.
    private let failure = Locked<ApplierError?>(nil)

    init(fs: any ApplierFileSystem) {
        self.fs = fs
    }

    /// Flushes `url` to stable storage.
    func flush(_ url: URL) {
        queue.async(group: group) {
            do throws(ApplierError) { try self.fs.flush(url, .toDrive) } catch {
                self.failure.withLock { if $0 == nil { $0 = error } }
            }
        }
    }

    /// Waits for every flush handed over; throws the first failure.
    func wait() throws(ApplierError) {
        drain()
        if let failure = failure.withLock({ $0 }) { throw failure }
    }

    /// Waits for every flush handed over, whatever became of them (before the run returns or throws).
    func drain() {
        group.wait()
    }
}
