import Foundation

/// Swaps an app's cached launch snapshots for a campaign's, keeps the originals, puts them back when
/// the campaign ends, and re-applies after the OS regenerates the cache. Foundation and hashing only,
/// so the same source runs in an iOS app and on Linux. Call it after launch, off the main thread.
public struct SnapshotApplier: Sendable {
    /// The app's data container (`NSHomeDirectory()` in the app).
    public var container: URL
    /// The bundle folder (`manifest.json` + `objects/`); `restore` works without one.
    public var bundle: URL?
    /// `CFBundleShortVersionString`.
    public var appVersion: String
    /// `CFBundleVersion`.
    public var appBuild: String
    /// The running iOS version (decides where the snapshots live).
    public var osVersion: OSVersion
    /// Reads pixels of cached files when they must be classified.
    public var decoder: any SnapshotPixelDecoder
    /// The current time.
    public var clock: @Sendable () -> Date
    /// The raw Ed25519 public key the app pins: when set, an unsigned or tampered bundle is refused.
    public var trustedKey: Data?
    /// Test hook: stop dead after this many file operations, as a kill would.
    public var crashAfterOperations: Int?

    /// Makes an applier for one container.
    public init(container: URL, bundle: URL?, appVersion: String, appBuild: String, osVersion: OSVersion,
                decoder: any SnapshotPixelDecoder, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.container = container
        self.bundle = bundle
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.osVersion = osVersion
        self.decoder = decoder
        self.clock = clock
    }

    /// Brings the cache to what the bundle wants now: the campaign in force, or the originals.
    public func apply() throws(ApplierError) -> ApplyReport { try run(.apply) }

    /// Puts every original back, byte for byte.
    public func restore() throws(ApplierError) -> ApplyReport { try run(.restore) }

    /// What `apply` would do, changing nothing.
    public func status() throws(ApplierError) -> ApplyReport { try run(.status) }

    enum Mode { case apply, restore, status }

    private var supportFolder: URL { container.appendingPathComponent("Library/Application Support/splashgen") }

    private func run(_ mode: Mode) throws(ApplierError) -> ApplyReport {
        let fs = ApplierFileSystem(crashAfter: crashAfterOperations)
        let stateURL = supportFolder.appendingPathComponent("state.json")
        var lock: ApplierLock?
        if mode != .status {
            try fs.makeFolder(supportFolder)
            lock = try ApplierLock(at: supportFolder.appendingPathComponent("lock"))
        }
        defer { withExtendedLifetime(lock) {} }
        let now = clock()
        var saved = try ApplierState.load(from: stateURL)
        let stamp = bundle.flatMap(SnapshotBundle.stamp)

        // The launch path reads no manifest and decodes nothing: one state read, one listing, one stat.
        if mode == .apply, let saved, stamp != nil, let (folderPath, names) = try locate(bundleID: saved.bundleID, fs: fs),
           saved.folder == folderPath, saved.isSettled(for: key(names), manifestStamp: stamp, at: now) {
            return report(saved, campaign: saved.campaign, nextChange: saved.nextChange, manifest: nil, regenerated: false, noOp: true, actions: [:])
        }

        let opened = try bundle.map { url throws(ApplierError) in try SnapshotBundle(root: url, trustedKey: trustedKey) }
        let manifest = opened?.manifest
        if let manifest, let saved, manifest.app.bundleID != saved.bundleID, mode != .status {
            throw .badBundle(.otherApp(expected: saved.bundleID, found: manifest.app.bundleID))
        }
        guard let bundleID = manifest?.app.bundleID ?? saved?.bundleID,
              let (folderPath, names) = try locate(bundleID: bundleID, fs: mode == .status ? nil : fs) else {
            return ApplyReport(folder: nil, campaign: nil, nextChange: nil, cacheRegenerated: false, nothingToDo: true, files: [])
        }
        let folder = container.appendingPathComponent(folderPath)
        let key = key(names)
        saved = saved.map { $0.folder == folderPath ? $0.resolvingPending(in: folder) : $0 }
        let campaign = mode == .restore ? nil : manifest.flatMap { campaignInForce($0, at: now) }
        let nextChange = mode == .restore ? nil : manifest.flatMap { nextBoundary($0, after: now) }

        // Records: kept while the key holds; otherwise the OS wrote new originals: classify, back up.
        var state: ApplierState
        var newOriginals: [String: Data]?
        if let saved, saved.key == key, saved.folder == folderPath {
            state = saved
        } else {
            (state, newOriginals) = try rekey(saved, key: key, bundleID: bundleID, folderPath: folderPath, folder: folder, names: names,
                                              marker: (campaign ?? manifest?.campaigns.first)?.marker)
        }
        let regenerated = newOriginals != nil

        // What each file should hold, with every byte verified before anything is written.
        var planned: [String: (hash: String, data: Data?)] = [:]
        var notes: [String: String] = [:]
        var objectCache: [String: Data] = [:]
        for name in names {
            let record = state.files[name]!
            var target = record.original
            if let campaign, let opened {
                if record.appearance == nil {
                    notes[name] = "appearance unknown (\(record.decidedBy.rawValue)); left as it is"
                } else if let snapshot = campaign.snapshots.first(where: {
                    $0.pixels == Manifest.Size(width: record.width, height: record.height) && $0.appearance == record.appearance
                }) {
                    if objectCache[snapshot.object] == nil {
                        objectCache[snapshot.object] = try opened.verifiedObject(snapshot, width: record.width, height: record.height)
                    }
                    target = snapshot.object
                } else {
                    notes[name] = "\(campaign.id) has no \(record.appearance!.rawValue) snapshot of \(record.width)x\(record.height)"
                }
            }
            guard target != record.current else { continue }
            if target == record.original {
                let backup = container.appendingPathComponent(state.backup).appendingPathComponent(name)
                guard let data = newOriginals?[name] ?? (try? Data(contentsOf: backup)), sha256Hex(data) == record.original else {
                    throw .damagedBackup(file: name)
                }
                planned[name] = (target, data)
            } else {
                planned[name] = (target, objectCache[target])
            }
        }

        var actions: [String: ApplyReport.Action] = [:]
        if mode == .status {
            for name in planned.keys { actions[name] = .wouldChange }
            return report(state, campaign: campaign?.id, nextChange: nextChange, manifest: manifest, regenerated: regenerated,
                          noOp: planned.isEmpty && !regenerated, actions: actions, notes: notes)
        }

        // Everything is verified. Back up new originals first; then mark the files about to change,
        // write each beside its target and rename it over, sync the folder, and record the result.
        if let newOriginals {
            let backup = container.appendingPathComponent(state.backup)
            try fs.makeFolder(backup)
            for name in names {
                try fs.replace(backup.appendingPathComponent(name), with: newOriginals[name]!)
            }
            try fs.syncFolder(backup)
            try fs.replace(stateURL, with: state.encoded(), durably: true)
            if let saved, saved.backup != state.backup {
                try fs.remove(container.appendingPathComponent(saved.backup))
            }
        }
        if !planned.isEmpty {
            for (name, target) in planned { state.files[name]!.pending = target.hash }
            try fs.replace(stateURL, with: state.encoded(), durably: true)
            for name in names where planned[name] != nil {
                try fs.replace(folder.appendingPathComponent(name), with: planned[name]!.data!)
            }
            try fs.syncFolder(folder)
            for (name, target) in planned {
                state.files[name]!.current = target.hash
                state.files[name]!.pending = nil
                actions[name] = target.hash == state.files[name]!.original ? .restored : .replaced
            }
        }
        state.campaign = campaign?.id
        state.settledAt = now
        state.nextChange = nextChange
        state.manifestStamp = stamp
        try fs.replace(stateURL, with: state.encoded(), durably: true)
        return report(state, campaign: campaign?.id, nextChange: nextChange, manifest: manifest, regenerated: regenerated,
                      noOp: false, actions: actions, notes: notes)
    }

    /// The snapshot folder for the running OS (relative to the container) and its launch snapshots;
    /// nil when the folder does not exist yet. A folder that is a symbolic link is refused.
    private func locate(bundleID: String, fs: ApplierFileSystem?) throws(ApplierError) -> (String, [String])? {
        let path = osVersion.snapshotFolder(bundleID: bundleID)
        let url = container.appendingPathComponent(path)
        if let type = try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType, type == .typeSymbolicLink {
            throw .snapshotFolderIsSymlink(path)
        }
        return try listSnapshots(url, removingPartials: fs).map { (path, $0) }
    }

    /// The state key of this app version and build with these cached file names.
    private func key(_ names: [String]) -> ApplierState.Key {
        ApplierState.Key(version: appVersion, build: appBuild, fingerprint: sha256Hex(Data(names.joined(separator: "\n").utf8)))
    }

    /// The launch snapshot files of the folder, sorted; nil when there is no folder. Sub-folders
    /// (`sceneID:…` app-switcher snapshots, `downscaled/`) and links are never touched.
    private func listSnapshots(_ folder: URL, removingPartials fs: ApplierFileSystem?) throws(ApplierError) -> [String]? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var names: [String] = []
        for entry in entries.sorted() {
            let url = folder.appendingPathComponent(entry)
            if entry.hasSuffix(ApplierFileSystem.partialSuffix) {
                try fs?.remove(url)
                continue
            }
            guard ["ktx", "png", "jpeg", "jpg"].contains(url.pathExtension.lowercased()),
                  let type = try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType,
                  type == .typeRegular else { continue }
            names.append(entry)
        }
        return names
    }

    /// New records for a new key: each file classified (or, if it is a replacement this applier wrote,
    /// carried over with its original), with the originals to back up. Nothing is written here.
    private func rekey(_ saved: ApplierState?, key: ApplierState.Key, bundleID: String, folderPath: String, folder: URL,
                       names: [String], marker: Manifest.Marker?) throws(ApplierError) -> (ApplierState, [String: Data]) {
        let backupPath = "Library/Application Support/splashgen/backups/" + String(sha256Hex(Data("\(key.version)\n\(key.build)\n\(key.fingerprint)\n\(folderPath)".utf8)).prefix(16))
        var records: [String: ApplierState.FileRecord] = [:]
        var originals: [String: Data] = [:]
        var toClassify: [(name: String, data: Data)] = []
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else {
                throw .io(folder.appendingPathComponent(name).path, "cannot read")
            }
            let hash = sha256Hex(data)
            if let saved, saved.folder == folderPath, let old = saved.files[name], old.current == hash, old.current != old.original {
                // Our own replacement, still in place: its original is in the old backup.
                let oldBackup = container.appendingPathComponent(saved.backup).appendingPathComponent(name)
                guard let original = try? Data(contentsOf: oldBackup), sha256Hex(original) == old.original else {
                    throw .damagedBackup(file: name)
                }
                records[name] = old
                originals[name] = original
            } else {
                toClassify.append((name, data))
                originals[name] = data
            }
        }
        let classified = SnapshotClassifier(decoder: decoder, marker: marker).classify(toClassify)
        for file in toClassify {
            let result = classified[file.name]!
            let hash = sha256Hex(file.data)
            records[file.name] = ApplierState.FileRecord(width: result.width, height: result.height, appearance: result.appearance,
                                                         decidedBy: result.decidedBy, original: hash, current: hash)
        }
        return (ApplierState(key: key, bundleID: bundleID, folder: folderPath, backup: backupPath, files: records), originals)
    }

    /// The first campaign whose schedule covers `now` and whose app-version range holds this version.
    func campaignInForce(_ manifest: Manifest, at now: Date) -> Manifest.Campaign? {
        guard versionApplies(manifest.app) else { return nil }
        return manifest.campaigns.first { $0.schedule.start <= now && now < $0.schedule.end }
    }

    /// The next start or end after `now`, among campaigns for this version.
    func nextBoundary(_ manifest: Manifest, after now: Date) -> Date? {
        guard versionApplies(manifest.app) else { return nil }
        return manifest.campaigns.flatMap { [$0.schedule.start, $0.schedule.end] }.filter { $0 > now }.min()
    }

    private func versionApplies(_ app: Manifest.App) -> Bool {
        let version = VersionNumber(appVersion)
        if let min = app.minVersion, version < VersionNumber(min) { return false }
        if let max = app.maxVersion, VersionNumber(max) < version { return false }
        return true
    }

    private func report(_ state: ApplierState, campaign: String?, nextChange: Date?, manifest: Manifest?, regenerated: Bool,
                        noOp: Bool, actions: [String: ApplyReport.Action], notes: [String: String] = [:]) -> ApplyReport {
        let snapshots = manifest?.campaigns.flatMap(\.snapshots) ?? []
        let files = state.files.keys.sorted().map { name -> ApplyReport.File in
            let record = state.files[name]!
            let showing = record.current == record.original ? "original"
                : (manifest?.campaigns.first { $0.snapshots.contains { $0.object == record.current } }?.id ?? state.campaign ?? "replacement")
            return ApplyReport.File(
                name: name, width: record.width, height: record.height, orientation: record.orientation,
                appearance: record.appearance, decidedBy: record.decidedBy,
                devices: snapshots.first { $0.pixels == Manifest.Size(width: record.width, height: record.height) }?.devices,
                showing: showing, action: actions[name] ?? (notes[name] != nil ? .leftAlone : .unchanged), note: notes[name])
        }
        return ApplyReport(folder: state.folder, campaign: campaign, nextChange: nextChange, cacheRegenerated: regenerated,
                           nothingToDo: noOp, files: files)
    }
}
