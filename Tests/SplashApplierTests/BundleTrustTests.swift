import Foundation
import SplashFormat
import Testing

@testable import SplashApplier

/// A pinned key that does not read is refused when it is made, never taken as "accept unsigned"
/// (the old `Data(base64Encoded:)` returned nil for the README's own placeholder, which meant
/// exactly that). Expectations: Ed25519 public keys are 32 bytes (RFC 8032), the `KEY.pub` text is
/// `ed25519-public BASE64` (`splashgen keygen`).
@Suite struct BundleTrustTests {
    @Test func aKeyThatDoesNotReadIsRefusedWhenItIsMade() {
        for text in ["PASTE-THE-TEXT-OF-KEY.pub", "", "ed25519-public", "ed25519-public !!!!", Data(count: 31).base64EncodedString()] {
            #expect(throws: SignatureError.self, "\(text)") { try PinnedKey(text) }
        }
        #expect(throws: SignatureError.self) { try PinnedKey(rawRepresentation: Data(count: 33)) }
        #expect(throws: SignatureError.self) { try PinnedKey(rawRepresentation: Data()) }
    }

    @Test func aKeyFromKeygenReadsAsTextAsBareBase64AndAsRawBytes() throws {
        let pair = BundleSignature.makeKeyPair()
        let fromText = try PinnedKey(pair.publicKey)
        #expect(fromText.rawRepresentation.count == 32)
        let bare = try #require(pair.publicKey.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try PinnedKey(bare) == fromText)
        #expect(try PinnedKey(rawRepresentation: fromText.rawRepresentation) == fromText)
        #expect(BundleTrust.pinned(fromText).key == fromText.rawRepresentation)
        #expect(BundleTrust.acceptingUnsignedBundles.key == nil)
    }
}
