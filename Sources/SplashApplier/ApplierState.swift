import Foundation
import SplashFormat

/// What the applier knows between runs, kept in `Library/Application Support/splashgen/state.json`
/// (outside Caches, which the OS may purge). A state file is hostile input like any other: one that
/// does not decode, or whose paths, names or hashes are not the ones this applier makes, is not
/// trusted; the survey rebuilds the records from what is on disk and the intact backups instead.
///
/// The file is written in place, never renamed (one full flush makes a pending mark durable), so a
/// kill or a power cut may leave it torn: it is sealed (``sealed(_:)``), a first line with the
/// SHA-256 of the JSON after it, and a torn file is one whose seal does not match.
package struct ApplierState: Codable {
    /// 3: sealed and written in place (2: plain JSON, renamed into place).
    static let currentSchema = 3

    var schema = ApplierState.currentSchema
    /// The key the records and backups belong to: app version, build, and the cache's file names.
    package var key: Key
    /// The app's bundle identifier (names the snapshot folder).
    var bundleID: String
    /// The snapshot folder, relative to the container.
    package var folder: String
    /// The backup folder of this key, relative to the container.
    package var backup: String
    /// One record per cached file, by file name.
    package var files: [String: FileRecord]
    /// The campaign the last complete run put in force (nil: the originals).
    var campaign: String?
    /// When the last complete run happened (nil while a run is under way), and until when it holds.
    var settledAt: Date?
    var nextChange: Date?
    /// SHA-256 of the manifest the last complete run used.
    package var manifestStamp: String?
    /// Why campaigns were not shown when the last complete run settled (they hold until it is no
    /// longer settled: the same key, manifest and schedule span), for the no-op run to report.
    var notShown: [ApplyReport.NotShown]?
    /// Before iOS 13: the launch folder was moved out to be edited and may not be back yet.
    var folderMoved: Bool?
    /// The bundle objects (SHA-256 names) this applier has checked whole, their blocks decoded, and
    /// that the manifest in use names: a later run that stages one checks its hash, size and header,
    /// and need not decode it again, since bytes that hash to its name are the bytes checked.
    package var verified: [String]?

    package struct Key: Codable, Equatable {
        var version: String
        var build: String
        var fingerprint: String

        /// Makes one from every stored property (the memberwise initializer, which is never `package`).
        package init(version: String, build: String, fingerprint: String) {
            self.version = version
            self.build = build
            self.fingerprint = fingerprint
        }
    }

    package struct FileRecord: Codable {
        package var width: Int
        package var height: Int
        package var appearance: Appearance?
        package var decidedBy: Classification
        /// SHA-256 of the original the OS wrote (its copy is in the backup folder).
        package var original: String
        /// SHA-256 of what the file holds now.
        package var current: String
        /// The bundle object whose picture the file holds, in its original's container
        /// (``ReplacementFraming``); nil while it holds the original, or when a rebuilt record
        /// cannot tell.
        package var object: String? = nil
        /// The campaign whose snapshot `object` is, as the plan chose it (the highest-priority one in
        /// force with this file's snapshot): what the report says the file shows.
        package var campaign: String? = nil
        /// The original is the OS's black render, told against the app's own screen when it was
        /// backed up (`BlackRender`): it is never put back.
        package var blackRender: Bool? = nil
        /// Set while the file is being changed to this hash; the next run reads the file to learn
        /// which of the two it holds, should the applier have been killed in between.
        package var pending: String? = nil

        var orientation: Orientation { width > height ? .landscape : .portrait }

        /// Makes one from every stored property (the memberwise initializer, which is never `package`).
        package init(
            width: Int, height: Int, appearance: Appearance? = nil, decidedBy: Classification, original: String, current: String, object: String? = nil,
            blackRender: Bool? = nil, pending: String? = nil
        ) {
            self.width = width
            self.height = height
            self.appearance = appearance
            self.decidedBy = decidedBy
            self.original = original
            self.current = current
            self.object = object
            self.blackRender = blackRender
            self.pending = pending
        }
    }

    /// Whether a run keyed `key` with this manifest at `now` has nothing to do: the last run
    /// completed (no pending change, the folder in place), for the same key and manifest bytes, and
    /// the schedule has not moved on since.
    package func isSettled(for key: Key, manifestStamp stamp: String?, at now: Date) -> Bool {
        guard self.key == key, let settledAt, manifestStamp == stamp, now >= settledAt, folderMoved != true,
            files.values.allSatisfy({ $0.pending == nil })
        else { return false }
        return nextChange.map { now < $0 } ?? true
    }

    /// The state file for `paths`, or nil with the reason it cannot be trusted (nil reason: none yet).
    package static func load(_ paths: ApplierPaths) -> (state: ApplierState?, problem: String?) {
        guard paths.contained.statusIfReachable(paths.stateURL) != nil else { return (nil, nil) }
        guard let file = paths.read(paths.stateURL, limit: ReadLimits.stateBytes) else {
            return (nil, "state.json is not a regular file of at most \(ReadLimits.stateBytes) bytes")
        }
        guard let data = unsealed(file) else { return (nil, "state.json does not match its seal (torn by a kill or a power cut, or edited)") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let state: ApplierState
        do { state = try decoder.decode(ApplierState.self, from: data) } catch {
            return (nil, "state.json does not decode")
        }
        if let problem = state.problem(for: paths) { return (nil, problem) }
        return (state, nil)
    }

    /// The bundle identifier a state file in `container` names, when it is one: for `restore`
    /// without a bundle when the launch folder cannot tell.
    static func savedBundleID(in container: URL) -> String? {
        let url = container.appendingPath(ApplierPaths.support + "/state.json")
        struct Probe: Decodable { var bundleID: String }
        guard let file = readBounded(url, limit: ReadLimits.stateBytes, within: ContainedFolder(container)),
            let data = unsealed(file), let probe = try? JSONDecoder().decode(Probe.self, from: data),
            ApplierPaths.isBundleIdentifier(probe.bundleID)
        else { return nil }
        return probe.bundleID
    }

    /// The first line of a sealed state, before the SHA-256 of what follows it.
    static let sealPrefix = "splashgen-state sha256="

    /// `json` sealed: a first line with its SHA-256, then `json`.
    package static func sealed(_ json: Data) -> Data {
        Data((sealPrefix + sha256Hex(json) + "\n").utf8) + json
    }

    /// The JSON of a sealed state file, when its seal matches it; nil for a torn or unsealed file.
    package static func unsealed(_ file: Data) -> Data? {
        guard let newline = file.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: file[file.startIndex..<newline], as: UTF8.self)
        let json = file[(newline + 1)...]
        guard line.hasPrefix(sealPrefix), line.dropFirst(sealPrefix.count) == sha256Hex(json) else { return nil }
        return Data(json)
    }

    /// What makes this state untrustworthy for `paths`, if anything.
    package func problem(for paths: ApplierPaths) -> String? {
        guard schema == Self.currentSchema else { return "state.json has schema \(schema), not \(Self.currentSchema)" }
        guard bundleID == paths.bundleID, folder == paths.folder else { return "state.json names another app or folder" }
        guard ApplierPaths.isBackupFolder(backup) else { return "state.json names a backup folder this applier does not make" }
        guard (verified ?? []).allSatisfy(isObjectName) else { return "state.json lists a checked object that is not a SHA-256 name" }
        for (name, record) in files {
            guard Self.isFileName(name) else { return "state.json names a file that is not a plain file name" }
            guard isObjectName(record.original), isObjectName(record.current), record.pending.map(isObjectName) ?? true,
                record.object.map(isObjectName) ?? true,
                (1...Int(KTXFile.maxDimension)).contains(record.width), (1...Int(KTXFile.maxDimension)).contains(record.height)
            else {
                return "state.json has a malformed record for \(name)"
            }
        }
        return nil
    }

    /// A name that stays inside its folder.
    static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0") && name.utf8.count <= 255
    }

    /// The state file's bytes, sealed, never more than ``ReadLimits/stateBytes`` (what ``load(_:)`` reads
    /// back): at most ``CacheSurvey/mostSnapshots`` records fit many times over; when the lists a
    /// run may drop (the objects checked whole, the campaigns not shown) would pass it, they go, and
    /// the next run decodes objects again.
    package func encoded() throws(ApplierError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        func encode(_ state: ApplierState) throws(ApplierError) -> Data {
            do { return Self.sealed(try encoder.encode(state)) } catch {
                throw .fileSystem(FileSystemError(.write, path: "state.json", message: "cannot encode the state", cause: error))
            }
        }
        let whole = try encode(self)
        guard whole.count > ReadLimits.stateBytes else { return whole }
        var lean = self
        (lean.verified, lean.notShown) = (nil, nil)
        let data = try encode(lean)
        guard data.count <= ReadLimits.stateBytes else {
            throw .fileSystem(
                FileSystemError(.write, path: "state.json", message: "the state is \(data.count) bytes, more than the \(ReadLimits.stateBytes) read back"))
        }
        return data
    }

    /// Makes one from every stored property (the memberwise initializer, which is never `package`).
    package init(
        key: Key, bundleID: String, folder: String, backup: String, files: [String: FileRecord], campaign: String? = nil, settledAt: Date? = nil,
        nextChange: Date? = nil, manifestStamp: String? = nil, notShown: [ApplyReport.NotShown]? = nil, folderMoved: Bool? = nil,
        verified: [String]? = nil
    ) {
        self.key = key
        self.bundleID = bundleID
        self.folder = folder
        self.backup = backup
        self.files = files
        self.campaign = campaign
        self.settledAt = settledAt
        self.nextChange = nextChange
        self.manifestStamp = manifestStamp
        self.notShown = notShown
        self.folderMoved = folderMoved
        self.verified = verified
    }
}

/// How a cached file's appearance was told.
public enum Classification: String, Codable, Sendable {
    /// The app declares one interface style (`UIUserInterfaceStyle`): every file is that one.
    case interfaceStyle = "interface-style"
    /// The marker view, read where it lands at the file's scale, is clearly one appearance's colour.
    case marker
    /// A `UILaunchScreen` app (no storyboard, no marker): the bottom-right corner is clearly the
    /// background colour of one appearance (docs/ios-launch-cache.md §10).
    case launchScreenBackground = "launch-screen-background"
    /// A `UILaunchScreen` app whose background is one colour in both appearances: its light and
    /// dark renders are the same picture, so nothing tells them apart. Such a file takes a
    /// campaign's picture only where the campaign shows one picture in both appearances.
    case samePicture = "same-picture"
    /// A guess: the marker did not decide, so the darker file of a pair (or a dark image) was taken
    /// as dark. Reported as a problem so nobody mistakes it for a reading.
    case luminance
    /// The file could not be decoded, so its appearance is unknown and it is left alone.
    case undecodable
}
