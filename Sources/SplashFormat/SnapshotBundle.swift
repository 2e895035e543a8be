import Foundation

/// A bundle folder (`manifest.json`, optional `manifest.sig`, `objects/<sha256>`) with the checks
/// both the applier and `splashgen verify` make before trusting it.
package struct SnapshotBundle: Sendable {
    /// The folder.
    package let root: URL
    /// Its manifest.
    package let manifest: Manifest
    /// The manifest's bytes, as signed.
    package let manifestData: Data
    /// Who signed it, when it was checked against a key.
    package private(set) var signer: BundleSignature.Signer?

    /// Reads and checks the manifest; with `trustedKey` (the pinned root), also its signature and
    /// the certificate it carries, unexpired at `now` (nil: expiry not checked).
    package init(root: URL, trustedKey: Data? = nil, at now: Date? = nil) throws(BundleProblem) {
        self.root = root
        let data: Data
        switch readBoundedFile(root.appendingPath("manifest.json"), limit: ReadLimits.manifestBytes) {
        case .success(let bytes): data = bytes
        case .failure(let refusal): throw .manifest(refusal)
        }
        manifestData = data
        if let trustedKey {
            // No file: unsigned. One that is too large, a link or not a file: a signature that fails.
            let signature: String?
            switch readBoundedFile(root.appendingPath(BundleSignature.fileName), limit: ReadLimits.signatureBytes, within: ContainedFolder(root)) {
            case .success(let bytes): signature = String(decoding: bytes, as: UTF8.self)
            case .failure(.missing): signature = nil
            case .failure: signature = ""
            }
            signer = try BundleSignature.check(data, signature: signature, root: trustedKey, at: now)
        }
        do { manifest = try Manifest.decode(from: data) } catch {
            switch error {
            case .newerSchema(let found, let supported): throw .newerSchema(found: found, supported: supported)
            case .malformed(let detail): throw .malformedManifest(detail)
            }
        }
    }

    /// The object's bytes after every check (``check(_:data:width:height:)``), for a file of
    /// `width`×`height` (by default the manifest's pixel size for the snapshot).
    package func verifiedObject(_ snapshot: Manifest.Snapshot, width: Int? = nil, height: Int? = nil) throws(BundleProblem) -> Data {
        guard isObjectName(snapshot.object) else { throw .notAnObjectName(snapshot.object) }
        // Read no more than the manifest declares (range-checked when it was decoded).
        let url = root.appendingPath("objects").appendingPath(snapshot.object)
        let data: Data
        switch readBoundedFile(url, limit: snapshot.bytes, within: ContainedFolder(root)) {
        case .success(let bytes): data = bytes
        case .failure(let refusal): throw .object(snapshot.object, expected: snapshot.bytes, refusal)
        }
        if let problem = Self.check(snapshot, data: data, width: width, height: height) { throw problem }
        return data
    }

    /// What is wrong with an object, if anything: its name is not a hash, it is missing, it has not the
    /// manifest's size, it does not hash to its name, its header does not read, its pixels are not
    /// `width`×`height` and the manifest's, or (unless `blocksVerified`: these very bytes, pinned by
    /// their hash, were decoded whole before) its blocks do not come out whole.
    package static func check(
        _ snapshot: Manifest.Snapshot, data: Data?, width: Int? = nil, height: Int? = nil, blocksVerified: Bool = false
    ) -> BundleProblem? {
        let name = snapshot.object
        let width = width ?? snapshot.pixels.width, height = height ?? snapshot.pixels.height
        guard isObjectName(name) else { return .notAnObjectName(name) }
        guard let data else { return .missingObject(name) }
        guard data.count == snapshot.bytes else { return .sizeMismatch(object: name, expected: snapshot.bytes, found: data.count) }
        let actual = sha256Hex(data)
        guard actual == name else { return .hashMismatch(object: name, actual: actual) }
        let size: (width: Int, height: Int)
        do { size = try SnapshotHeader.pixelSize(of: data) } catch {
            return .unreadableObject(object: name, detail: error.description)
        }
        guard size == (width, height), snapshot.pixels == Manifest.Size(width: width, height: height) else {
            return .wrongPixelSize(object: name, expected: "\(width)x\(height)", found: "\(size.width)x\(size.height)")
        }
        // Nothing the OS cannot decode may reach its cache: a KTX or ATX object's blocks must come
        // out whole (an LZFSE payload inflated to exactly the blocks its size needs).
        if !blocksVerified, [.ktx, .atx].contains(SnapshotContent(sniffing: data)) {
            do { _ = try SnapshotHeader.astcBlocks(of: data) } catch { return .unreadableObject(object: name, detail: error.description) }
        }
        return nil
    }
}
