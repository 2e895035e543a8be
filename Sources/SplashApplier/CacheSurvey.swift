import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is on disk, read and checked before anything is decided: the trusted state (or why there
/// is none), the launch folder's snapshot files, and, when the OS has rendered the cache anew (or
/// the state could not be trusted), each file classified with its original found. A survey never
/// writes.
package struct CacheSurvey {
    let paths: ApplierPaths
    /// The state file as read, when it can be trusted.
    package var saved: ApplierState?
    /// Why the state file was not trusted (it is rebuilt), if it was not.
    package var stateProblem: String?
    /// Whether the launch folder exists.
    package var folderExists: Bool
    /// The launch snapshot files of the folder, sorted.
    package var names: [String]
    /// The applier's own temporary files in the launch folder (`*.splashgen-partial`), left by a
    /// killed run: removed by the next run that may write, whatever else it does.
    package var partials: [String]
    /// Before iOS 13: a folder left outside by a killed run (`paths.editingFolder`) exists.
    package var editingFolderExists: Bool
    /// A folder of leftovers being cleared exists.
    package var clearingFolderExists: Bool

    /// The state key of this app version and build with these cached file names.
    static func key(version: String, build: String, names: [String]) -> ApplierState.Key {
        ApplierState.Key(version: version, build: build, fingerprint: sha256Hex(Data(names.joined(separator: "\n").utf8)))
    }

    /// Reads the state and lists the folder; refuses links anywhere on the way.
    package init(paths: ApplierPaths) throws(ApplierError) {
        self.paths = paths
        try paths.checkNoLinks(ApplierPaths.support)
        (saved, stateProblem) = ApplierState.load(paths)
        folderExists = try paths.checkNoLinks(paths.folder)
        editingFolderExists = try paths.checkNoLinks(paths.editingFolder)
        clearingFolderExists = try paths.checkNoLinks(paths.clearingFolder)
        let entries = folderExists ? paths.contained.kinds(in: paths.folderURL) : []
        // A name the OS gives (at most 44 bytes) always leaves room for the applier's temporary sibling.
        names = Self.snapshotNames(entries, in: paths.folderURL)
        partials = entries.map(\.name).filter { $0.hasSuffix(ApplierFileSystemPartial.suffix) }.sorted()
    }

    /// The most launch snapshot files the applier works on in one folder. iOS writes one per
    /// orientation and appearance of each size it caches (docs/ios-launch-cache.md §1), 1 to 4 on an
    /// iPhone and a few sizes more on an iPad; a folder holding more is not the OS's cache as it
    /// renders it, and is left as it is (`too-many-snapshots`). With it the state holds at most this
    /// many records, far below ``ReadLimits/stateBytes``, and a run reads at most this many files.
    package static let mostSnapshots = 256

    /// The launch snapshot files of a folder, sorted: regular files named as the OS names them
    /// (``isSnapshotName(_:)``). Sub-folders (`downscaled/`), links, the applier's own partial files
    /// and files of any other name are not snapshots: they are never read, recorded or counted.
    static func snapshotNames(_ entries: [(name: String, kind: mode_t)], in folder: URL) -> [String] {
        entries.filter { $0.kind == S_IFREG && isSnapshotName($0.name) }.map(\.name).sorted()
    }

    /// Whether `name` is one the OS gives a launch snapshot: a UUID string, `@<scale>x` (left out at
    /// scale 1), and an extension it writes, `ktx`, `png`, `jpeg` or `jpg` (docs/ios-launch-cache.md
    /// §2, SplashBoard 26.1's `-_configureDefaultPathWithinGroupForFormat:`). Hex digits are taken
    /// in either case, the extension in any.
    static func isSnapshotName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot >= 36,
            ["ktx", "png", "jpeg", "jpg"].contains(String(decoding: bytes[(dot + 1)...], as: UTF8.self).lowercased())
        else { return false }
        let uuid = bytes[0..<36], scale = bytes[36..<dot]
        let hyphens: Set<Int> = [8, 13, 18, 23]
        for (offset, byte) in uuid.enumerated() {
            let isHex = (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
            guard hyphens.contains(offset) ? byte == UInt8(ascii: "-") : isHex else { return false }
        }
        return scale.isEmpty || (scale.count == 3 && scale.first == UInt8(ascii: "@") && (49...57).contains(scale[37]) && scale.last == UInt8(ascii: "x"))
    }

    /// Records for a new key: the OS rendered the cache anew, or the state was not trusted. Each
    /// file is either a replacement this applier wrote (its original is in a verified backup), or a
    /// new original (classified, to be backed up), or another library's leftover. Nothing is written.
    ///
    /// `object` gives a bundle object's bytes, verified: without trusted records, a file that carries
    /// one's picture in any container (a replacement whose records and backup are gone) is never
    /// taken for an original.
    package func rekey(
        key: ApplierState.Key, manifest: Manifest?, classifier: SnapshotClassifier, fromBackupsOnly: Bool,
        object: (Manifest.Snapshot) -> Data? = { _ in nil }
    ) -> Rekeyed {
        let backup = ApplierPaths.backupFolder(for: key, folder: paths.folder)
        let trusted = fromBackupsOnly ? nil : saved
        let objects = Set(manifest?.campaigns.flatMap { $0.snapshots.map(\.object) } ?? [])
        var result = Rekeyed(state: ApplierState(key: key, bundleID: paths.bundleID, folder: paths.folder, backup: backup, files: [:]))
        // Files are read and hashed one at a time, none kept; the originals among them are then read
        // again one at a time and classified together (one decoder context for all).
        var originals: [(name: String, hash: String)] = []
        for name in names {
            guard let data = paths.read(paths.folderURL.appendingPath(name)) else {
                result.unreadable.append(name)
                continue
            }
            let hash = sha256Hex(data)
            // A replacement this applier wrote, still in place: its original is in the old backup.
            // (Or the change a killed run had marked pending and made.)
            if let trusted, let record = trusted.files[name], record.current == hash || record.pending == hash, hash != record.original {
                var carried = record
                if carried.current != hash { (carried.current, carried.object) = (hash, nil) }
                carried.pending = nil
                result.state.files[name] = carried
                if paths.read(paths.url(trusted.backup).appendingPath(name), holding: record.original) != nil {
                    result.originals[name] = BackupSource(path: trusted.backup + "/" + name, hash: record.original)
                } else {
                    result.lostOriginals.append(name)
                }
                continue
            }
            // With no trusted record: a backup of this key that differs from the file means the file
            // is a replacement and the backup its original (the state was lost, damaged or cut short).
            if trusted?.files[name] == nil, let copy = paths.read(paths.url(backup).appendingPath(name)),
                case let original = sha256Hex(copy), original != hash, let size = try? SnapshotHeader.pixelSize(of: copy)
            {
                let old = classifier.classify(name, copy)
                result.state.files[name] = ApplierState.FileRecord(
                    width: size.width, height: size.height, appearance: old.appearance,
                    decidedBy: old.decidedBy, original: original, current: hash)
                result.originals[name] = BackupSource(path: backup + "/" + name, hash: original)
                result.rebuiltFromBackup.append(name)
                continue
            }
            // PNG or JPEG bytes in a .ktx name is another library's leftover, not what the OS rendered
            // (docs/ios-launch-cache.md §9); a campaign's picture with no original behind it is a lost
            // run's. Either is cleared for the OS to render its originals again.
            let content = SnapshotContent(sniffing: data)
            let isKTXName = (name as NSString).pathExtension.lowercased() == "ktx"
            if isKTXName && (content == .png || content == .jpeg) {
                result.leftovers.append(name)
                continue
            }
            // Framed pictures are looked for only without trusted records: with them, every file this
            // applier wrote is in its records, and a file they lack is the OS's.
            if let campaign = Self.campaign(whosePicture: data, hash: hash, objects: objects, in: manifest, object: trusted == nil ? object : { _ in nil }) {
                result.leftovers.append(name)
                result.campaignPictures[name] = campaign
                continue
            }
            originals.append((name, hash))
        }
        // A file that changed since it was hashed is classified as it is now; its backup, checked
        // against the hash, then stops the run before anything is replaced.
        var results = classifier.classify(originals.map(\.name)) { index in
            paths.read(paths.folderURL.appendingPath(originals[index].name))
        }
        classifier.settleGuesses(&results)
        for (name, hash) in originals {
            guard let found = results[name] else { continue }
            result.state.files[name] = ApplierState.FileRecord(
                width: max(1, found.width), height: max(1, found.height),
                appearance: found.appearance, decidedBy: found.decidedBy,
                original: hash, current: hash)
            result.originals[name] = BackupSource(path: paths.folder + "/" + name, hash: hash)
        }
        return result
    }

    /// The campaign whose picture `data` carries: byte for byte one of its objects, or one of its
    /// objects' pictures in another container (the same LZFSE stream or ASTC blocks; only objects of
    /// the file's screen size are read). The app's own screen is never "a campaign's picture", by
    /// identity: an OS render may equal its object byte for byte (a plain launch screen and an own
    /// screen made by the same encoder), and it is harmless as an original.
    static func campaign(
        whosePicture data: Data, hash: String, objects: Set<String>, in manifest: Manifest?, object: (Manifest.Snapshot) -> Data?
    ) -> String? {
        guard let manifest else { return nil }
        let own = Set(manifest.campaigns.filter { $0.ownScreen == true }.flatMap { $0.snapshots.map(\.object) })
        if own.contains(hash) { return nil }
        if objects.contains(hash) { return manifest.campaigns.first { $0.snapshots.contains { $0.object == hash } }?.id }
        return ReplacementFraming.campaign(whosePicture: data, in: manifest, object: object) { campaign, snapshot in
            campaign.ownScreen != true && !own.contains(snapshot.object)
        }
    }

    /// The outcome of ``rekey(key:manifest:classifier:fromBackupsOnly:object:)``.
    package struct Rekeyed {
        package var state: ApplierState
        /// Originals to back up under the new key, by name: where each is now, and its hash.
        package var originals: [String: BackupSource] = [:]
        /// Files that are leftovers of another library, or of a lost run of this applier.
        package var leftovers: [String] = []
        /// Among the leftovers, those carrying a campaign's picture (its id) with no record or backup
        /// of their originals: never taken for originals.
        var campaignPictures: [String: String] = [:]
        /// Files whose original came from a backup with no trusted state.
        package var rebuiltFromBackup: [String] = []
        /// Replacements whose backup is missing or damaged: their originals cannot come back.
        package var lostOriginals: [String] = []
        /// Files that could not be read.
        package var unreadable: [String] = []
    }
}

/// Where an original to back up is now (container-relative: the cached file itself, or a backup of
/// an earlier key) and the hash it must have; the executor reads and checks it when it copies it.
package struct BackupSource: Equatable {
    package var path: String
    package var hash: String

    /// Makes one from every stored property (the memberwise initializer, which is never `package`).
    package init(path: String, hash: String) {
        self.path = path
        self.hash = hash
    }
}
