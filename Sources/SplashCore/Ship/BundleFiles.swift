import Foundation
import SplashFormat

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
