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

    /// Who signed a manifest, as ``check(_:signature:root:at:)`` found it.
    package struct Signer: Codable, Equatable, Sendable {
        /// The pinned root's id.
        package var rootID: String
        /// The certificate the manifest carries, checked against the root; nil when the root itself signed.
        package var certificate: KeyCertificate.Statement?
        /// The id of the key that signed the manifest: the certified online key, or the root.
        package var keyID: String { certificate?.keyID ?? rootID }
        /// The certificate's version, 0 for a manifest the root signed itself.
        package var version: Int { certificate?.version ?? 0 }

        /// The chain in words, e.g. `key 1a2b… (certificate version 2 of root 9f8e…, until 2027-03-01T00:00:00Z)`.
        package var chain: String {
            guard let certificate else { return "signed by the pinned key \(rootID) itself" }
            return
                "signed by key \(certificate.keyID), certified by root \(rootID) (certificate version \(certificate.version), until \(certificate.expires.formatted(.iso8601)))"
        }
    }

    /// Checks a signature file's text against `manifest` bytes and the pinned `root` key: a
    /// signature by `root` itself holds (an app that pins the key CI signs with, as before
    /// certificates); otherwise the manifest must carry a ``KeyCertificate`` that `root` signed,
    /// unexpired at `now` (nil: not checked), and be signed by the key it certifies.
    /// The certificate is read from the manifest's bytes before they are trusted: a bounded read of
    /// one field, which decides only which key the signature is checked with.
    package static func check(_ manifest: Data, signature text: String?, root: Data, at now: Date?) throws(BundleProblem) -> Signer {
        guard let text else { throw .unsigned }
        guard let signature = try? decode(text, kind: "ed25519") else { throw .badSignature }
        func holds(_ key: Data) -> Bool {
            (try? Curve25519.Signing.PublicKey(rawRepresentation: key))?.isValidSignature(signature, for: manifest) ?? false
        }
        var signer = Signer(rootID: keyID(root))
        if holds(root) { return signer }
        guard let certificate = (try? JSONDecoder().decode(CertificateProbe.self, from: manifest))?.certificate else { throw .badSignature }
        let statement = try certificate.verified(root: root, at: now)
        signer.certificate = statement
        guard holds(Data(base64Encoded: statement.key) ?? Data()) else { throw .badSignatureOfCertifiedKey(signer.keyID) }
        return signer
    }

    /// A manifest as far as its certificate goes.
    private struct CertificateProbe: Decodable { var certificate: KeyCertificate? }

    /// A key's id: the first 16 hex digits of the SHA-256 of its 32 raw bytes, as `keygen`,
    /// `certify` and `verify` print it.
    package static func keyID(_ raw: Data) -> String { String(sha256Hex(raw).prefix(16)) }

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
