import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Ed25519 signatures over a bundle's `manifest.json`. The manifest pins every object by SHA-256,
/// so one signature covers the whole bundle. Files are one line of text: `ed25519 <base64>`. An app
/// only verifies; making keys and signing are SplashFormatWriting's (the generator's).
package enum BundleSignature {
    /// The signature file beside `manifest.json`.
    package static let fileName = "manifest.sig"

    /// Reads a public key file's text (or the bare base64 key) into the raw 32 bytes an app pins.
    package static func publicKey(_ text: String) throws(SignatureError) -> Data {
        let raw = try decode(text, kind: "ed25519-public")
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else { throw .badKey("not an ed25519 public key") }
        return raw
    }

    /// Checks a signature file's text against `manifest` bytes and a pinned public key.
    package static func verify(_ manifest: Data, signature text: String?, publicKey: Data) -> BundleProblem? {
        guard let text else { return .unsigned }
        guard let signature = try? decode(text, kind: "ed25519"),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey),
            key.isValidSignature(signature, for: manifest)
        else { return .badSignature }
        return nil
    }

    package static func decode(_ text: String, kind: String) throws(SignatureError) -> Data {
        let parts = text.split(whereSeparator: \.isWhitespace)
        let body = parts.count == 2 && parts[0] == kind ? parts[1] : (parts.count == 1 ? parts[0] : "")
        guard let data = Data(base64Encoded: String(body)) else { throw .badKey("expected \"\(kind) <base64>\"") }
        return data
    }
}

/// A key file that cannot be used.
public enum SignatureError: Error, Equatable, CustomStringConvertible {
    case badKey(String)

    public var description: String {
        switch self {
        case .badKey(let detail): return "bad key: \(detail)"
        }
    }
}
