import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
// Expectations: the unpacked archive must apply exactly as its bundle folder does (the folder run
// is the oracle: the code under test against itself); the pinned-key refusals are the applier's
// named cases, and a refused bundle leaves the snapshot tree byte for byte.
import SplashFormatWriting
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// build → pack → unpack → verify → apply, with a pinned key, through the simulator.
@Suite struct ShippingTests {
    let during = date("2026-11-11T09:00:00+08:00")
    static let keys = BundleSignature.makeKeyPair()

    func applier(_ sim: SandboxSimulator, bundle: URL, key: String?) throws -> SnapshotApplier {
        let model = try sim.model()
        var applier = SnapshotApplier(
            container: sim.container, bundle: bundle, appVersion: model.version, appBuild: model.build,
            osVersion: OSVersion(model.ios)!, decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { [during] in during })
        applier.trust = try key.map { .pinned(try PinnedKey($0)) } ?? .acceptingUnsignedBundles
        return applier
    }

    @Test func anUnpackedArchiveAppliesExactlyLikeTheFolderItCameFrom() throws {
        let folder = temporaryFolder("ship")
        let archive = folder.appendingPathComponent("double11.zip")
        try BundleArchive.write(try BundleTools.contents(of: try Bundles.double11.get(), privateKey: Self.keys.privateKey), to: archive)
        let unpacked = try BundleTools.unpack(archive, outputRoot: folder, name: "double11")
        #expect(BundleTools.verify(unpacked, publicKey: try BundleSignature.publicKey(Self.keys.publicKey)).problems.isEmpty)

        let fromFolder = try sandbox(Installed.iPhone15), fromArchive = try sandbox(Installed.iPhone15)
        let a = try applier(fromFolder, bundle: try Bundles.double11.get(), key: nil).apply()
        let b = try applier(fromArchive, bundle: unpacked, key: Self.keys.publicKey).apply()
        #expect(a.files.map(\.action) == b.files.map(\.action))
        #expect(try fromFolder.cachedFiles().values.map(sha256Hex).sorted() == fromArchive.cachedFiles().values.map(sha256Hex).sorted())
        let shown = try fromArchive.launch(bundle: unpacked, now: during, runApp: false)
        #expect(shown.contentHash == (try object(in: unpacked, portraitLight, pixels: iPhone15)))
    }

    @Test func aPinnedKeyRefusesUnsignedTamperedAndForeignBundlesAndChangesNothing() throws {
        let signed = temporaryFolder("signed").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: signed)
        let sim = try sandbox(Installed.iPhone15)
        let before = try sim.snapshotTree()
        #expect(throws: ApplierError.badBundle(.unsigned)) { try applier(sim, bundle: signed, key: Self.keys.publicKey).apply() }

        try BundleTools.sign(bundle: signed, privateKey: BundleSignature.makeKeyPair().privateKey)
        #expect(throws: ApplierError.badBundle(.badSignature)) { try applier(sim, bundle: signed, key: Self.keys.publicKey).apply() }

        try BundleTools.sign(bundle: signed, privateKey: Self.keys.privateKey)
        let manifest = signed.appendingPathComponent("manifest.json")
        let original = try Data(contentsOf: manifest)
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"grey\" : false", with: "\"grey\" : true ").utf8).write(to: manifest)
        #expect(throws: ApplierError.badBundle(.badSignature)) { try applier(sim, bundle: signed, key: Self.keys.publicKey).apply() }
        #expect(try sim.snapshotTree() == before)

        try original.write(to: manifest)
        let report = try applier(sim, bundle: signed, key: Self.keys.publicKey).apply()
        #expect(report.files.allSatisfy { $0.action == .replaced })
    }
}
