import Foundation

/// What the applier knows between runs, kept in `Library/Application Support/splashgen/state.json`
/// (outside Caches, which the OS may purge). Written after every file it changes.
struct ApplierState: Codable, Equatable {
    static let currentSchema = 1

    var schema = ApplierState.currentSchema
    /// The key the records and backups belong to: app version, build, and the cache's file names.
    var key: Key
    /// The app's bundle identifier (names the snapshot folder).
    var bundleID: String
    /// The snapshot folder, relative to the container.
    var folder: String
    /// The backup folder of this key, relative to the container.
    var backup: String
    /// One record per cached file, by file name.
    var files: [String: FileRecord]
    /// The campaign the last complete run put in force (nil: the originals).
    var campaign: String?
    /// When the last complete run happened, and until when its result holds.
    var settledAt: Date?
    var nextChange: Date?
    /// Size and modification time of the manifest the last complete run used.
    var manifestStamp: String?

    struct Key: Codable, Equatable {
        var version: String
        var build: String
        var fingerprint: String
    }

    struct FileRecord: Codable, Equatable {
        var width: Int
        var height: Int
        var appearance: Appearance?
        var decidedBy: Classification
        /// SHA-256 of the original the OS wrote (its copy is in the backup folder).
        var original: String
        /// SHA-256 of what the file holds now.
        var current: String
        /// Set while the file is being changed to this hash; the next run reads the file to learn
        /// which of the two it holds, should the applier have been killed in between.
        var pending: String? = nil

        var orientation: Orientation { width > height ? .landscape : .portrait }
    }

    /// The records with every interrupted change settled by reading what the file really holds.
    func resolvingPending(in folder: URL) -> ApplierState {
        var copy = self
        for (name, record) in files where record.pending != nil {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) {
                copy.files[name]!.current = sha256Hex(data)
            }
            copy.files[name]!.pending = nil
        }
        return copy
    }

    /// Whether a run keyed `key` with this manifest at `now` has nothing to do.
    func isSettled(for key: Key, manifestStamp stamp: String?, at now: Date) -> Bool {
        guard self.key == key, let settledAt, manifestStamp == stamp, now >= settledAt else { return false }
        return nextChange.map { now < $0 } ?? true
    }

    static func load(from url: URL) throws(ApplierError) -> ApplierState? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let state = try decoder.decode(ApplierState.self, from: data)
            guard state.schema <= currentSchema else { throw ApplierError.damagedState("schema \(state.schema) is newer than this applier") }
            return state
        } catch let error as ApplierError {
            throw error
        } catch {
            throw .damagedState(String(describing: error))
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try! encoder.encode(self)
    }
}

/// How a cached file's appearance was told.
public enum Classification: String, Codable, Sendable {
    /// The marker pixel at the bottom-right matched one appearance's colour.
    case marker
    /// The marker did not decide; the darker file of a pair (or a dark image) was taken as dark.
    case luminance
    /// The file could not be decoded, so its appearance is unknown and it is left alone.
    case undecodable
}
