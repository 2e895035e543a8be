import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every path the applier touches, derived from the container and checked to stay inside it: the
/// launch folder for the app and iOS version, the support folder with the state and the backups.
/// Nothing here comes from a file the applier reads without being validated first.
package struct ApplierPaths: Sendable {
    /// The app's data container.
    package let container: URL
    /// The app's bundle identifier (validated).
    let bundleID: String
    /// The launch snapshot folder, relative to the container.
    package let folder: String
    /// `Library/Application Support/splashgen`, relative to the container.
    package static let support = "Library/Application Support/splashgen"
    /// Backups live in one folder per state key below this.
    static let backups = support + "/backups"

    /// Paths for `bundleID` on `os`; refuses an identifier that is not a bundle identifier.
    package init(container: URL, bundleID: String, os: OSVersion) throws(ApplierError) {
        guard Self.isBundleIdentifier(bundleID) else { throw .badBundle(.malformedManifest("app.bundle_id \"\(bundleID)\" is not a bundle identifier")) }
        self.container = container
        contained = ContainedFolder(container)
        self.bundleID = bundleID
        folder = os.snapshotFolder(bundleID: bundleID)
    }

    /// Whether `text` is a bundle identifier (``Manifest/isBundleIdentifier(_:)``): never a path.
    package static func isBundleIdentifier(_ text: String) -> Bool { Manifest.isBundleIdentifier(text) }

    /// A backup folder name for a state key: `backups/` + 16 hex digits.
    package static func backupFolder(for key: ApplierState.Key, folder: String) -> String {
        backups + "/" + String(sha256Hex(Data("\(key.version)\n\(key.build)\n\(key.fingerprint)\n\(folder)".utf8)).prefix(16))
    }

    /// Whether a backup path read from a state file is one this applier makes.
    static func isBackupFolder(_ path: String) -> Bool {
        guard path.hasPrefix(backups + "/") else { return false }
        let name = path.dropFirst(backups.count + 1)
        return name.count == 16 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The URL of a container-relative path.
    package func url(_ relative: String) -> URL { container.appendingPath(relative) }

    /// The launch folder's URL.
    package var folderURL: URL { url(folder) }
    /// Where the iOS 12 folder is edited while moved out of place (beside it, same volume).
    var editingFolder: String { folder + ".splashgen-editing" }
    /// Where a folder of another library's leftovers is moved before it is deleted.
    var clearingFolder: String { folder + ".splashgen-clearing" }
    /// The state file.
    package var stateURL: URL { url(Self.support + "/state.json") }

    /// The container, as every file below it is reached: one folder descriptor at a time.
    let contained: ContainedFolder

    /// Refuses the path if any component from the container down to it is a symbolic link;
    /// returns whether the whole path exists.
    @discardableResult
    func checkNoLinks(_ relative: String) throws(ApplierError) -> Bool {
        try Self.checkNoLinks(relative, in: container)
    }

    /// ``checkNoLinks(_:)`` for a path of `container`, before the app's launch folder is known.
    @discardableResult
    static func checkNoLinks(_ relative: String, in container: URL) throws(ApplierError) -> Bool {
        let info: stat?
        do { info = try ContainedFolder(container).status(of: container.appendingPath(relative)) } catch {
            throw POSIXFileSystem.applierError(error, root: container)
        }
        if let info, info.st_mode & S_IFMT == S_IFLNK { throw .symbolicLink(relative) }
        return info != nil
    }

    /// A container file of at most `limit` bytes (``readBounded(_:limit:within:)``), no link followed.
    func read(_ url: URL, limit: Int = ReadLimits.snapshotBytes) -> Data? {
        readBounded(url, limit: limit, within: contained)
    }

    /// A container file's bytes when they hash (SHA-256) to `hash`: an original, a backup, a staged
    /// replacement known by its hash; nil when the file is missing, too large, a link, or other bytes.
    func read(_ url: URL, holding hash: String) -> Data? {
        read(url).flatMap { sha256Hex($0) == hash ? $0 : nil }
    }
}
