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
