import Foundation
import SplashFormat

/// A bundle's files from a folder (objects read when asked for) or an archive (read and checked
/// whole by ``BundleArchive/read(_:)``).
package struct BundleFiles: Sendable {
    /// Whether they came from an archive.
    package let isArchive: Bool
    /// `manifest.json`'s bytes.
    package let manifest: Data
    /// `manifest.sig`'s text, when present.
    package let signature: String?
    /// The names under `objects/`.
    package let objectNames: [String]
    private let load: @Sendable (String) -> Result<Data, FileRefusal>

    /// Opens a bundle folder, or reads an archive.
    package init(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw BundleProblem.missingManifest }
        if isDirectory.boolValue {
            let manifest: Data
            switch readBoundedFile(url.appendingPathComponent("manifest.json"), limit: ReadLimits.manifestBytes) {
            case .success(let bytes): manifest = bytes
            case .failure(let refusal): throw BundleProblem.manifest(refusal)
            }
            let objects = url.appendingPathComponent("objects")
            isArchive = false
            self.manifest = manifest
            signature = readBounded(url.appendingPathComponent(BundleSignature.fileName), limit: ReadLimits.signatureBytes, within: ContainedFolder(url))
                .map { String(decoding: $0, as: UTF8.self) }
            objectNames = (try? FileManager.default.contentsOfDirectory(atPath: objects.path)) ?? []
            let folder = ContainedFolder(url)
            load = { name in
                isObjectName(name) ? readBoundedFile(objects.appendingPathComponent(name), limit: ReadLimits.snapshotBytes, within: folder) : .failure(.missing)
            }
        } else {
            let contents = try BundleArchive.read(url)
            isArchive = true
            manifest = contents.manifest
            signature = contents.signature
            objectNames = Array(contents.objects.keys)
            load = { contents.objects[$0].map { .success($0) } ?? .failure(.missing) }
        }
    }

    /// An object's bytes, or nil when it is not there.
    package func object(_ name: String) -> Data? { try? load(name).get() }

    /// What is wrong with a snapshot's object here, if anything: why it could not be read (missing,
    /// a link, larger than any object), or what ``SnapshotBundle/check(_:data:width:height:)`` finds.
    package func problem(of snapshot: Manifest.Snapshot) -> BundleProblem? {
        do {
            _ = try verifiedObject(snapshot)
            return nil
        } catch { return error }
    }

    /// A snapshot's object, read once and checked (``problem(of:)`` says what it throws).
    package func verifiedObject(_ snapshot: Manifest.Snapshot) throws(BundleProblem) -> Data {
        switch load(snapshot.object) {
        case .success(let data):
            if let problem = SnapshotBundle.check(snapshot, data: data) { throw problem }
            return data
        case .failure(let refusal):
            throw isObjectName(snapshot.object) ? .object(snapshot.object, expected: snapshot.bytes, refusal) : .notAnObjectName(snapshot.object)
        }
    }
}
