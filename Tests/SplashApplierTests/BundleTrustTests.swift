import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashFormat
import SplashFormatWriting
import SplashTestSupport
import Testing

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

    /// A signature file is read like every other byte the app reads: bounded and link-safe. One of
    /// 2 GiB (sparse: it costs no disk), or a link to a valid one, is a signature that fails, read
    /// without a byte of it in memory; a missing one is an unsigned bundle.
    @Test func aHugeOrLinkedSignatureFileIsRefusedUnread() throws {
        let pair = BundleSignature.makeKeyPair()
        let key = try BundleSignature.publicKey(pair.publicKey)
        let root = temporaryFolder("signature")
        let manifest = Manifest(
            generator: "test", app: .init(bundleID: "com.example.shop", marker: .init(light: "#FFFFFF", dark: "#000000", size: 3)), campaigns: []
        ).encoded()
        try manifest.write(to: root.appendingPathComponent("manifest.json"))
        let signature = root.appendingPathComponent(BundleSignature.fileName)
        #expect(throws: BundleProblem.unsigned) { try SnapshotBundle(root: root, trustedKey: key) }
        let valid = try BundleSignature.sign(manifest, privateKey: pair.privateKey)
        try Data(valid.utf8).write(to: signature)
        #expect(throws: Never.self) { try SnapshotBundle(root: root, trustedKey: key) }
        let elsewhere = temporaryFolder("elsewhere").appendingPathComponent("manifest.sig")
        try FileManager.default.moveItem(at: signature, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: signature, withDestinationURL: elsewhere)
        #expect(throws: BundleProblem.badSignature) { try SnapshotBundle(root: root, trustedKey: key) }
        try FileManager.default.removeItem(at: signature)
        #expect(FileManager.default.createFile(atPath: signature.path, contents: Data(valid.utf8)))
        let handle = try FileHandle(forWritingTo: signature)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        #expect(throws: BundleProblem.badSignature) { try SnapshotBundle(root: root, trustedKey: key) }
    }
}
