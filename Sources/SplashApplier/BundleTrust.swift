import Foundation
import SplashFormat

/// Which bundles an app accepts. An app pins the public key it ships with, and every bundle must be
/// signed by it; accepting unsigned bundles is a choice named as such (behind its own SPI), for
/// development and tests, never what a missing or unreadable key falls back to.
public enum BundleTrust: Sendable, Equatable {
    /// Only bundles whose manifest this key signed are applied or installed.
    case pinned(PinnedKey)
    /// Unsigned bundles are accepted too, and no signature is read: for development and tests only.
    /// An app names this choice in its imports, `@_spi(UnsignedBundles) import SplashApplier`, so a
    /// review sees it; without that import the case does not exist for it.
    @_spi(UnsignedBundles) case acceptingUnsignedBundles

    /// The raw key to check signatures against, when one is pinned.
    package var key: Data? {
        guard case .pinned(let key) = self else { return nil }
        return key.rawRepresentation
    }
}

/// The Ed25519 public key an app pins: made from the text of `splashgen keygen`'s `KEY.pub`
/// (`ed25519-public BASE64`) or the bare base64, or from its 32 raw bytes. Anything else is refused
/// with a named error when the key is made, not when a bundle arrives.
public struct PinnedKey: Sendable, Equatable {
    /// The key's 32 bytes.
    public let rawRepresentation: Data

    /// The key in `KEY.pub`'s text, or its bare base64.
    public init(_ text: String) throws(SignatureError) {
        rawRepresentation = try BundleSignature.publicKey(text)
    }

    /// The key's 32 raw bytes.
    public init(rawRepresentation: Data) throws(SignatureError) {
        self.rawRepresentation = try BundleSignature.publicKey(rawRepresentation.base64EncodedString())
    }
}
