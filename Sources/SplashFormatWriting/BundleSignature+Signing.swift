import Foundation
import SplashFormat

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

// Making keys and signing are the generator's alone: an app only verifies (SplashFormat's
// `BundleSignature.verify`).
extension BundleSignature {
    /// A new signing key: the private key's file text and the public key's.
    package static func makeKeyPair() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (
            "ed25519-private " + key.rawRepresentation.base64EncodedString() + "\n",
            "ed25519-public " + key.publicKey.rawRepresentation.base64EncodedString() + "\n"
        )
    }

    /// The signature file's text for `manifest` bytes, signed with a private key file's text.
    package static func sign(_ manifest: Data, privateKey text: String) throws(SignatureError) -> String {
        let key: Curve25519.Signing.PrivateKey
        do { key = try Curve25519.Signing.PrivateKey(rawRepresentation: try decode(text, kind: "ed25519-private")) } catch {
            throw .badKey("not an ed25519 private key file")
        }
        guard let signature = try? key.signature(for: manifest) else { throw .badKey("signing failed") }
        return "ed25519 " + signature.base64EncodedString() + "\n"
    }

    /// The raw public key of a private key file's text: what the tree's own signatures verify with.
    package static func publicKey(ofPrivateKey text: String) throws(SignatureError) -> Data {
        do { return try Curve25519.Signing.PrivateKey(rawRepresentation: try decode(text, kind: "ed25519-private")).publicKey.rawRepresentation } catch {
            throw .badKey("not an ed25519 private key file")
        }
    }
}

extension KeyCertificate {
    /// The root's certificate (`splashgen certify`) of the online key `key` (raw), signed with the
    /// root's private key file's text.
    package static func certify(key: Data, rootPrivateKey text: String, version: Int, issued: Date, expires: Date) throws(SignatureError) -> KeyCertificate {
        let root: Curve25519.Signing.PrivateKey
        do { root = try Curve25519.Signing.PrivateKey(rawRepresentation: try BundleSignature.decode(text, kind: "ed25519-private")) } catch {
            throw .badKey("the root key is not an ed25519 private key file")
        }
        let statement = Statement(root: root.publicKey.rawRepresentation, key: key, version: version, issued: issued, expires: expires)
        guard let bytes = try? encoder.encode(statement), let signature = try? root.signature(for: domain + bytes) else {
            throw .badKey("signing the certificate failed")
        }
        return KeyCertificate(statement: bytes.base64EncodedString(), signature: "ed25519 " + signature.base64EncodedString())
    }
}

/// What signs a manifest: a private key file's text and, for an online key, the root's certificate
/// of it, which goes inside every manifest it signs (``Manifest/certificate``).
package struct SigningKey: Sendable, CustomStringConvertible, CustomReflectable {
    /// The private key file's text.
    package let privateKey: String
    /// The root's certificate of this key; nil when the key is itself the one apps pin.
    package let certificate: KeyCertificate?
    /// The key's raw public key.
    package let publicKey: Data

    /// A signing key; a certificate that names another key, or does not read, is refused by name.
    package init(privateKey: String, certificate: KeyCertificate? = nil) throws(SignatureError) {
        publicKey = try BundleSignature.publicKey(ofPrivateKey: privateKey)
        if let certificate {
            guard let statement = certificate.unverifiedStatement else { throw .badKey("the certificate's statement does not read") }
            guard Data(base64Encoded: statement.key) == publicKey else {
                throw .badKey(
                    "the certificate certifies key \(statement.keyID), not this private key's \(BundleSignature.keyID(publicKey)): sign with the key it names, or certify this one"
                )
            }
            guard let root = Data(base64Encoded: statement.root), (try? certificate.verified(root: root, at: nil)) != nil else {
                throw .badKey("the certificate is not signed by the root it names")
            }
        }
        (self.privateKey, self.certificate) = (privateKey, certificate)
    }

    /// The key apps pin for what this signs: the certificate's root, or this key itself.
    package var root: Data { certificate?.unverifiedStatement.flatMap { Data(base64Encoded: $0.root) } ?? publicKey }
    /// The certificate's version (0 without one): what phones rank seasons by before their serial.
    package var version: Int { certificate?.unverifiedStatement?.version ?? 0 }
    /// This key's id.
    package var keyID: String { BundleSignature.keyID(publicKey) }

    /// The key's id and certificate version, never its private half (a failed test or a log line
    /// that prints a report stays free of it).
    package var description: String { "SigningKey(\(keyID), certificate version \(version))" }
    package var customMirror: Mirror { Mirror(self, children: ["keyID": keyID, "version": version]) }

    /// `manifest` with this key's certificate in it (none without one), encoded, and its signature
    /// file's text. `bytes`, when given, are the manifest's bytes as read: kept as they are when the
    /// certificate is already the one it carries.
    package func sign(_ manifest: Manifest, bytes: Data? = nil) throws(SignatureError) -> (manifest: Data, signature: String) {
        var manifest = manifest
        let data: Data
        if let bytes, manifest.certificate == certificate {
            data = bytes
        } else {
            manifest.certificate = certificate
            data = manifest.encoded()
        }
        return (data, try BundleSignature.sign(data, privateKey: privateKey))
    }
}
