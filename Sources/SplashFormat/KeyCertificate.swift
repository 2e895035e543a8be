import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The root key's word that an online key may sign seasons until a date (docs/reliability.md,
/// "Keys"). The app pins the root, which stays offline; CI signs with the online key, and every
/// manifest it signs carries this certificate inside the signed bytes (`"certificate"`), so a
/// manifest and the certificate it is checked with always travel together.
///
/// The certified statement is kept as the exact bytes the root signed (base64 in ``statement``):
/// nothing is re-encoded before a check, so no canonical JSON is needed. The root signs
/// ``domain`` followed by those bytes, so a root signature can never be taken for a manifest's.
package struct KeyCertificate: Codable, Equatable, Sendable {
    /// The statement's JSON bytes, in base64.
    package var statement: String
    /// `ed25519 <base64>`: the root's signature over ``domain`` + the statement's bytes.
    package var signature: String

    /// What the root signs before the statement's bytes.
    package static let domain = Data("splashgen online-key certificate 1\n".utf8)
    /// The statement's `kind`.
    package static let kind = "splashgen-online-key"

    /// What the root certifies.
    package struct Statement: Codable, Equatable, Sendable {
        /// Always ``KeyCertificate/kind``.
        package var kind: String
        /// The root's raw public key, base64: the key an app pins.
        package var root: String
        /// The online key's raw public key, base64: the key manifests are signed with.
        package var key: String
        /// Grows with each certificate the root makes. A phone that has installed a season under
        /// version N refuses every season under a lower version: the keys those certified are retired.
        package var version: Int
        /// When the certificate was made.
        package var issued: Date
        /// The first instant the certificate no longer holds.
        package var expires: Date

        package init(root: Data, key: Data, version: Int, issued: Date, expires: Date) {
            self.kind = KeyCertificate.kind
            self.root = root.base64EncodedString()
            self.key = key.base64EncodedString()
            (self.version, self.issued, self.expires) = (version, issued, expires)
        }

        /// The certified key's id (``BundleSignature/keyID(_:)``).
        package var keyID: String { BundleSignature.keyID(Data(base64Encoded: key) ?? Data()) }
        /// The root's id.
        package var rootID: String { BundleSignature.keyID(Data(base64Encoded: root) ?? Data()) }
    }

    package init(statement: String, signature: String) {
        (self.statement, self.signature) = (statement, signature)
    }

    /// The statement, read without any check (to show a certificate, or to rank an unverified one).
    package var unverifiedStatement: Statement? {
        guard let bytes = Data(base64Encoded: statement) else { return nil }
        return try? Self.decoder.decode(Statement.self, from: bytes)
    }

    /// The statement, when the root `root` signed it, it is a statement of this kind for that root,
    /// and (with `now`) it has not expired.
    package func verified(root: Data, at now: Date?) throws(BundleProblem) -> Statement {
        let rootID = BundleSignature.keyID(root)
        guard let bytes = Data(base64Encoded: statement), let signature = try? BundleSignature.decode(signature, kind: "ed25519"),
            let rootKey = try? Curve25519.Signing.PublicKey(rawRepresentation: root),
            rootKey.isValidSignature(signature, for: Self.domain + bytes)
        else { throw .certificateNotFromRoot(root: rootID) }
        let statement: Statement
        do { statement = try Self.decoder.decode(Statement.self, from: bytes) } catch {
            throw .badCertificate("the statement does not read: \(error)")
        }
        guard statement.kind == Self.kind, statement.root == root.base64EncodedString() else {
            throw .badCertificate("not a certificate of an online key by root \(rootID)")
        }
        guard let key = Data(base64Encoded: statement.key), (try? Curve25519.Signing.PublicKey(rawRepresentation: key)) != nil else {
            throw .badCertificate("the certified key is not an ed25519 public key")
        }
        if let now, now >= statement.expires {
            throw .certificateExpired(key: statement.keyID, version: statement.version, expires: statement.expires)
        }
        return statement
    }

    /// The certificate file's text (`splashgen certify`'s output): this value as JSON, one line.
    package var fileText: String {
        String(decoding: (try? Self.encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// Reads a certificate file's text.
    package static func read(_ text: String) throws(SignatureError) -> KeyCertificate {
        guard let certificate = try? JSONDecoder().decode(KeyCertificate.self, from: Data(text.utf8)), certificate.unverifiedStatement != nil else {
            throw .badKey("not a certificate file from splashgen certify")
        }
        return certificate
    }

    /// Statements' dates are ISO 8601.
    package static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Keys sorted, dates ISO 8601: one statement, one text.
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension Manifest {
    /// The version of the key certificate the manifest carries, 0 without one: phones rank seasons
    /// by it before their serial.
    package var keyVersion: Int { certificate?.unverifiedStatement?.version ?? 0 }

    /// The first instant the manifest no longer holds: its own `expires`, or its key certificate's,
    /// whichever comes first; nil when neither is set.
    package var validUntil: Date? {
        [expires, certificate?.unverifiedStatement?.expires].compactMap { $0 }.min()
    }
}
