import Foundation

/// What is wrong with a bundle.
public enum BundleProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why a bundle's `manifest.json` was not read, as a bundle problem.
    package static func manifest(_ refusal: FileRefusal) -> BundleProblem {
        switch refusal {
        case .missing: return .missingManifest
        case .tooLarge(let size): return .manifestTooLarge(bytes: size, limit: ReadLimits.manifestBytes)
        case .notARegularFile(let kind): return .notARegularFile("manifest.json", kind: kind)
        case .unreadable(let failure): return .unreadableFile("manifest.json", failure)
        }
    }

    /// Why an object of `expected` bytes was not read, as a bundle problem.
    package static func object(_ name: String, expected: Int, _ refusal: FileRefusal) -> BundleProblem {
        switch refusal {
        case .missing: return .missingObject(name)
        case .tooLarge(let size): return .sizeMismatch(object: name, expected: expected, found: size)
        case .notARegularFile(let kind): return .notARegularFile("objects/" + name, kind: kind)
        case .unreadable(let failure): return .unreadableFile("objects/" + name, failure)
        }
    }

    /// No `manifest.json`.
    case missingManifest
    /// `manifest.json` is larger than any manifest may be.
    case manifestTooLarge(bytes: Int, limit: Int)
    /// A bundle file (`manifest.json`, `objects/<hash>`) is something other than a regular file.
    case notARegularFile(String, kind: String)
    /// A bundle file could not be read whole.
    case unreadableFile(String, FileSystemError)
    /// The manifest is not valid JSON of the expected shape.
    case malformedManifest(String)
    /// The manifest was written by a newer splashgen.
    case newerSchema(found: Int, supported: Int)
    /// The manifest names a different app.
    case otherApp(expected: String, found: String)
    /// A snapshot's object reference is not a SHA-256 name (e.g. a path).
    case notAnObjectName(String)
    /// `objects/<hash>` does not exist.
    case missingObject(String)
    /// The object's bytes do not hash to its name.
    case hashMismatch(object: String, actual: String)
    /// The object's size differs from the manifest's byte count.
    case sizeMismatch(object: String, expected: Int, found: Int)
    /// The object is not a readable KTX or PNG.
    case unreadableObject(object: String, detail: String)
    /// The object's pixel size is not the size of the file it would replace.
    case wrongPixelSize(object: String, expected: String, found: String)
    /// A slice signed for another screen (or a whole manifest) served where this screen's slice belongs.
    case otherScreen(expected: String, found: String)
    /// A key is pinned but the bundle has no `manifest.sig`.
    case unsigned
    /// `manifest.sig` does not verify against the manifest and the pinned key.
    case badSignature
    /// The manifest's certificate is not the pinned root key's.
    case certificateNotFromRoot(root: String)
    /// The manifest's certificate is signed by the root but does not read as one.
    case badCertificate(String)
    /// The manifest's certificate expired: the key it certified signs nothing any more.
    case certificateExpired(key: String, version: Int, expires: Date)
    /// `manifest.sig` does not verify with the key the manifest's certificate certifies.
    case badSignatureOfCertifiedKey(String)

    public var description: String {
        switch self {
        case .missingManifest: return "no manifest.json in the bundle"
        case .manifestTooLarge(let bytes, let limit): return "manifest.json is \(bytes) bytes, more than the \(limit) a manifest may be"
        case .notARegularFile(let path, let kind): return "\(path) is \(kind), not a regular file; the bundle is not read through it"
        case .unreadableFile(let path, let failure): return "\(path) cannot be read: \(failure.reason)"
        case .malformedManifest(let detail): return "malformed manifest: \(detail)"
        case .newerSchema(let found, let supported):
            return "manifest schema \(found) is newer than this applier understands (schema \(supported))"
        case .otherApp(let expected, let found): return "the bundle is for \(found), not \(expected)"
        case .notAnObjectName(let name): return "object reference \"\(name)\" is not a SHA-256 name"
        case .missingObject(let name): return "object \(name) is missing"
        case .hashMismatch(let name, let actual): return "object \(name) hashes to \(actual)"
        case .sizeMismatch(let name, let expected, let found):
            return "object \(name) holds \(found) bytes; the manifest says \(expected)\(found < expected ? " (truncated)" : "")"
        case .unreadableObject(let name, let detail): return "object \(name) is not a readable snapshot: \(detail)"
        case .wrongPixelSize(let name, let expected, let found):
            return "object \(name) is \(found) pixels; the manifest and the file it replaces need \(expected)"
        case .otherScreen(let expected, let found): return "the manifest is signed for \(found), not this screen's \(expected)"
        case .unsigned: return "the bundle is not signed, and a key is pinned"
        case .badSignature: return "the manifest's signature does not verify with the pinned key (tampered, or signed by another key)"
        case .certificateNotFromRoot(let root):
            return "the manifest's key certificate is not signed by the pinned root key \(root): signed by another root, or tampered"
        case .badCertificate(let detail): return "the manifest's key certificate is unusable: \(detail)"
        case .certificateExpired(let key, let version, let expires):
            return
                "the certificate of key \(key) (version \(version)) expired at \(expires.formatted(.iso8601)): the key signs nothing any more; publish with a key certified anew (splashgen certify)"
        case .badSignatureOfCertifiedKey(let key):
            return "the manifest's signature does not verify with key \(key), which its certificate names (tampered, or signed by another key)"
        }
    }
}
