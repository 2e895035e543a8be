import Foundation
import SplashFormat

/// What happens to a finished bundle: sign it, slice it for one screen, pack it, unpack it, verify it.
public enum BundleTools {
    /// Writes `manifest.sig` into a bundle folder, signed with a private key file's text.
    public static func sign(bundle: URL, privateKey: String) throws {
        let manifest = try SnapshotBundle(root: bundle).manifestData
        let signature = try BundleSignature.sign(manifest, privateKey: privateKey)
        try Data(signature.utf8).write(to: bundle.appendingPathComponent(BundleSignature.fileName), options: .atomic)
    }

    /// The archive contents of a bundle, every object verified; cut down to one screen when `slice`
    /// is given, and (re)signed when `privateKey` is. A slice's manifest is new, so it must be signed
    /// anew; an unsliced bundle keeps its `manifest.sig`.
    public static func contents(of bundle: URL, slice: ScreenSlice? = nil, privateKey: String? = nil) throws -> BundleArchive.Contents {
        let opened = try SnapshotBundle(root: bundle)
        var manifest = opened.manifest
        var manifestData = opened.manifestData
        var signature = try? String(contentsOf: bundle.appendingPathComponent(BundleSignature.fileName), encoding: .utf8)
        if let slice {
            manifest = try slice.apply(to: manifest)
            manifestData = manifest.encoded()
            signature = nil
        }
        if let privateKey { signature = try BundleSignature.sign(manifestData, privateKey: privateKey) }
        var objects: [String: Data] = [:]
        for snapshot in manifest.campaigns.flatMap(\.snapshots) where objects[snapshot.object] == nil {
            objects[snapshot.object] = try opened.verifiedObject(snapshot)
        }
        return BundleArchive.Contents(manifest: manifestData, signature: signature, objects: objects)
    }

    /// Unpacks an archive into `outputRoot/<name>/`, checked entry by entry before anything is
    /// written and moved into place only when whole.
    public static func unpack(_ archive: URL, outputRoot: URL, name: String) throws -> URL {
        let contents = try BundleArchive.read(archive)
        let writer = try BundleWriter(outputRoot: outputRoot, name: name)
        for (hash, data) in contents.objects { try writer.addObject(data, hash: hash) }
        return try writer.commit(manifestData: contents.manifest, signature: contents.signature)
    }

    /// Every problem of a bundle folder or archive: structure, signature (when a key is given),
    /// every object's presence, size, hash, header and pixel size. A folder's objects are read one
    /// at a time.
    public static func verify(_ url: URL, publicKey: Data?) -> VerifyReport {
        var report = VerifyReport()
        let files: BundleFiles
        do { files = try BundleFiles(url) } catch {
            report.problems.append(String(describing: error))
            return report
        }
        report.kind = files.isArchive ? "archive" : "folder"
        report.signed = files.signature != nil
        if let publicKey {
            if let problem = BundleSignature.verify(files.manifest, signature: files.signature, publicKey: publicKey) {
                report.problems.append(problem.description)
            } else {
                report.signatureChecked = true
            }
        }
        let manifest: Manifest
        do { manifest = try Manifest.decode(from: files.manifest) } catch {
            report.problems.append(error.description)
            return report
        }
        var named: Set<String> = []
        for snapshot in manifest.campaigns.flatMap(\.snapshots) where named.insert(snapshot.object).inserted {
            report.objects += 1
            if let problem = SnapshotBundle.check(snapshot, data: files.object(snapshot.object)) { report.problems.append(problem.description) }
        }
        for extra in Set(files.objectNames).subtracting(named).sorted() {
            report.problems.append("objects/\(extra) is not named by the manifest")
        }
        return report
    }
}

/// A bundle's files from a folder (objects read when asked for) or an archive (read and checked
/// whole by ``BundleArchive/read(_:)``).
public struct BundleFiles: Sendable {
    /// Whether they came from an archive.
    public let isArchive: Bool
    /// `manifest.json`'s bytes.
    public let manifest: Data
    /// `manifest.sig`'s text, when present.
    public let signature: String?
    /// The names under `objects/`.
    public let objectNames: [String]
    private let load: @Sendable (String) -> Data?

    /// Opens a bundle folder, or reads an archive.
    public init(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw BundleProblem.missingManifest }
        if isDirectory.boolValue {
            guard let manifest = readBounded(url.appendingPathComponent("manifest.json"), limit: ReadLimits.manifestBytes) else {
                throw BundleProblem.missingManifest
            }
            let objects = url.appendingPathComponent("objects")
            isArchive = false
            self.manifest = manifest
            signature = try? String(contentsOf: url.appendingPathComponent(BundleSignature.fileName), encoding: .utf8)
            objectNames = (try? FileManager.default.contentsOfDirectory(atPath: objects.path)) ?? []
            load = { name in isObjectName(name) ? readBounded(objects.appendingPathComponent(name), limit: ReadLimits.snapshotBytes) : nil }
        } else {
            let contents = try BundleArchive.read(url)
            isArchive = true
            manifest = contents.manifest
            signature = contents.signature
            objectNames = Array(contents.objects.keys)
            load = { contents.objects[$0] }
        }
    }

    /// An object's bytes, or nil when it is not there.
    public func object(_ name: String) -> Data? { load(name) }
}

/// The snapshots of one screen: a device name from the manifest, or a pixel size in either orientation.
public enum ScreenSlice: Sendable, CustomStringConvertible {
    case device(String)
    case pixels(width: Int, height: Int)

    /// Parses `1179x2556` as a pixel size, anything else as a device name.
    public init(_ text: String) {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        self = parts.count == 2 && text.allSatisfy({ $0.isNumber || $0 == "x" }) ? .pixels(width: parts[0], height: parts[1]) : .device(text)
    }

    public var description: String {
        switch self {
        case .device(let name): return name
        case .pixels(let w, let h): return "\(w)x\(h)"
        }
    }

    func matches(_ snapshot: Manifest.Snapshot) -> Bool {
        switch self {
        case .device(let name): return snapshot.devices.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
        case .pixels(let w, let h):
            return (snapshot.pixels.width, snapshot.pixels.height) == (w, h) || (snapshot.pixels.width, snapshot.pixels.height) == (h, w)
        }
    }

    /// The manifest with only this screen's snapshots, and only the campaigns that have some (one
    /// that does not cover the screen must not outrank one that does).
    func apply(to manifest: Manifest) throws(SliceError) -> Manifest {
        var sliced = manifest
        for index in sliced.campaigns.indices { sliced.campaigns[index].snapshots.removeAll { !matches($0) } }
        sliced.campaigns.removeAll { $0.snapshots.isEmpty }
        guard !sliced.campaigns.isEmpty else { throw .noSnapshots(description) }
        return sliced
    }
}

/// A slice that selects nothing.
public enum SliceError: Error, Equatable, CustomStringConvertible {
    case noSnapshots(String)

    public var description: String {
        switch self {
        case .noSnapshots(let screen): return "the bundle has no snapshot for \(screen)"
        }
    }
}

/// What `splashgen verify` found.
public struct VerifyReport: Sendable {
    /// `folder` or `archive`.
    public var kind = "folder"
    /// Distinct objects the manifest names.
    public var objects = 0
    /// Whether a `manifest.sig` is present.
    public var signed = false
    /// Whether it was checked against a key and holds.
    public var signatureChecked = false
    /// Everything wrong, one line each; empty when the bundle is sound.
    public var problems: [String] = []
}
