import Foundation
import SplashCore
import SplashFormat
// Expectations: round trips: packing twice gives the same bytes, unpacking gives the built bundle
// back plus its signature, verify accepts it; sign and verify both go through BundleSignature (no
// outside Ed25519 oracle). Hostile archives are written here with ZIPFoundation; the refusals and
// problem wording are the code's own named cases.
import SplashFormatWriting
import SplashTestSupport
import Testing
import ZIPFoundation

/// Packing, unpacking, signing and verifying bundles; archives treated as hostile.
@Suite struct BundleArchiveTests {
    /// double11 for the iPhone 15 alone: four objects, quick to build.
    static let bundle = Result { () throws -> URL in
        var campaign = try loadCampaign(Fixtures.campaigns.appendingPathComponent("double11.yaml"))
        let catalogue = try DeviceCatalogue.bundled()
        campaign.screens = DeviceCatalogue.screens(of: [catalogue.device(named: "iPhone 15")!])
        return try BundleBuilder(outputRoot: temporaryFolder()).build(campaign).bundle
    }
    static let keys = BundleSignature.makeKeyPair()
    static let otherKeys = BundleSignature.makeKeyPair()

    @Test func packingIsDeterministicAndUnpackingGivesTheSameBundle() throws {
        let bundle = try Self.bundle.get()
        let folder = temporaryFolder()
        let contents = try BundleTools.contents(of: bundle, privateKey: Self.keys.privateKey)
        try BundleArchive.write(contents, to: folder.appendingPathComponent("a.zip"))
        try BundleArchive.write(try BundleTools.contents(of: bundle, privateKey: Self.keys.privateKey), to: folder.appendingPathComponent("b.zip"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.zip")) == Data(contentsOf: folder.appendingPathComponent("b.zip")))

        let unpacked = try BundleTools.unpack(folder.appendingPathComponent("a.zip"), outputRoot: folder, name: "unpacked")
        var original = try tree(bundle)
        original["/manifest.sig"] = Data(contents.signature!.utf8)
        #expect(try tree(unpacked) == original)
        let report = BundleTools.verify(unpacked, publicKey: try BundleSignature.publicKey(Self.keys.publicKey))
        #expect(report.problems.isEmpty && report.signatureChecked && report.objects == 4)
    }

    @Test func aSliceHoldsOneScreenAndIsSignedAnew() throws {
        let built = try Built.double11.get()
        let contents = try BundleTools.contents(of: built.report.bundle, slice: ScreenSlice("iPhone 15"), privateKey: Self.keys.privateKey)
        let manifest = try Manifest.decode(from: contents.manifest)
        #expect(manifest.campaigns[0].snapshots.count == 4 && contents.objects.count == 4)
        #expect(manifest.campaigns[0].snapshots.allSatisfy { $0.devices.contains("iPhone 15") })
        #expect(throws: Never.self) {
            try BundleSignature.check(contents.manifest, signature: contents.signature, root: try BundleSignature.publicKey(Self.keys.publicKey), at: nil)
        }
        let byPixels = try BundleTools.contents(of: built.report.bundle, slice: ScreenSlice("2556x1179"))
        #expect(Set(byPixels.objects.keys) == Set(contents.objects.keys))
        #expect(throws: SliceError.noSnapshots("iPhone 99")) { try BundleTools.contents(of: built.report.bundle, slice: ScreenSlice("iPhone 99")) }
    }

    @Test func theWrongKeyAndATamperedManifestAreNamed() throws {
        let folder = temporaryFolder().appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Self.bundle.get(), to: folder)
        let key = try BundleSignature.publicKey(Self.keys.publicKey)
        #expect(BundleTools.verify(folder, publicKey: key).problems == ["the bundle is not signed, and a key is pinned"])
        try BundleTools.sign(bundle: folder, privateKey: Self.otherKeys.privateKey)
        #expect(
            BundleTools.verify(folder, publicKey: key).problems
                == ["the manifest's signature does not verify with the pinned key (tampered, or signed by another key)"])
        try BundleTools.sign(bundle: folder, privateKey: Self.keys.privateKey)
        #expect(BundleTools.verify(folder, publicKey: key).problems.isEmpty)
        // Change one byte of the signed manifest: a later schedule end.
        let url = folder.appendingPathComponent("manifest.json")
        try Data(String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "2026-11-11T18:00:00Z", with: "2026-12-11T18:00:00Z").utf8).write(to: url)
        #expect(BundleTools.verify(folder, publicKey: key).problems.first?.contains("does not verify") == true)
    }

    @Test func verifyListsEveryDamagedObject() throws {
        let folder = temporaryFolder().appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Self.bundle.get(), to: folder)
        let objects = folder.appendingPathComponent("objects")
        let names = try FileManager.default.contentsOfDirectory(atPath: objects.path).sorted()
        try FileManager.default.removeItem(at: objects.appendingPathComponent(names[0]))
        let second = objects.appendingPathComponent(names[1])
        try Data(contentsOf: second).prefix(100).write(to: second)
        try Data("stray".utf8).write(to: objects.appendingPathComponent("stray"))
        let problems = BundleTools.verify(folder, publicKey: nil).problems
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains("object \(names[0]) is missing"))
        #expect(problems.contains { $0.hasPrefix("object \(names[1]) holds 100 bytes") && $0.hasSuffix("(truncated)") })
        #expect(problems.contains("objects/stray is not named by the manifest"))
    }

    /// An archive whose manifest names an object it does not hold is refused and writes nothing:
    /// `unpack` never leaves a bundle that `verify` refuses.
    @Test func anArchiveMissingAnObjectIsNotUnpacked() throws {
        let folder = temporaryFolder()
        let url = folder.appendingPathComponent("short.zip")
        let archive = try Archive(url: url, accessMode: .create)
        let contents = try BundleTools.contents(of: try Self.bundle.get())
        try Self.add(archive, "manifest.json", contents.manifest)
        let kept = contents.objects.keys.sorted().dropFirst()
        for name in kept { try Self.add(archive, "objects/" + name, contents.objects[name]!) }
        #expect(throws: BundleTools.IncompleteArchive(problems: ["object \(Self.firstObject) is missing"])) {
            try BundleTools.unpack(url, outputRoot: folder.appendingPathComponent("Output"), name: "b")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Output").path))
        #expect(BundleTools.verify(url, publicKey: nil).problems == ["object \(Self.firstObject) is missing"])
    }

    /// Archives made to attack the reader, each refused with its reason before anything is written.
    static let hostile: [(name: String, problem: ArchiveProblem, build: @Sendable (Archive, BundleArchive.Contents) throws -> Void)] = [
        (
            "parent path", .unsafePath("../escape"),
            { archive, contents in
                try add(archive, "manifest.json", contents.manifest)
                try add(archive, "../escape", Data("x".utf8))
            }
        ),
        (
            "absolute path", .unsafePath("/tmp/escape"),
            { archive, contents in
                try add(archive, "manifest.json", contents.manifest)
                try add(archive, "/tmp/escape", Data("x".utf8))
            }
        ),
        (
            "symbolic link", .symbolicLink("objects/" + String(repeating: "a", count: 64)),
            { archive, contents in
                try add(archive, "manifest.json", contents.manifest)
                try archive.addEntry(
                    with: "objects/" + String(repeating: "a", count: 64), type: .symlink, uncompressedSize: Int64(11),
                    provider: { _, _ in Data("/etc/passwd".utf8) })
            }
        ),
        (
            "duplicate name", .duplicateEntry("manifest.json"),
            { archive, contents in
                try add(archive, "manifest.json", contents.manifest)
                try add(archive, "manifest.json", contents.manifest)
            }
        ),
        (
            "size disagrees with the manifest", .sizeMismatch(BundleArchiveTests.firstObject, declared: 0, entry: 10),
            { archive, contents in
                try add(archive, "manifest.json", contents.manifest)
                try add(archive, "objects/" + BundleArchiveTests.firstObject, Data(count: 10))
            }
        ),
        (
            "far larger than declared", .tooLarge(archive: 0, declared: 0),
            { archive, contents in
                // A manifest that declares no objects, carrying 300 KB it has no use for.
                var manifest = try Manifest.decode(from: contents.manifest)
                manifest.campaigns[0].snapshots = []
                try add(archive, "manifest.json", manifest.encoded())
                try add(archive, "manifest.sig", Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }), compress: false)
            }
        ),
        (
            "an entry that is not part of a bundle", .unexpectedEntry("notes.txt"),
            { archive, contents in
                try add(archive, "manifest.json", contents.manifest)
                try add(archive, "notes.txt", Data("x".utf8))
            }
        ),
    ]

    static let firstObject: String = {
        let contents = try! BundleTools.contents(of: try! bundle.get())
        return contents.objects.keys.sorted()[0]
    }()

    static func add(_ archive: Archive, _ path: String, _ data: Data, compress: Bool = true) throws {
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(data.count),
            compressionMethod: compress ? .deflate : .none
        ) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    @Test(arguments: hostile.indices)
    func hostileArchivesAreRefusedBeforeAnythingIsWritten(_ index: Int) throws {
        let attack = Self.hostile[index]
        let folder = temporaryFolder()
        let url = folder.appendingPathComponent("hostile.zip")
        let archive = try Archive(url: url, accessMode: .create)
        try attack.build(archive, try BundleTools.contents(of: try Self.bundle.get()))
        do {
            _ = try BundleTools.unpack(url, outputRoot: folder.appendingPathComponent("Output"), name: "b")
            Issue.record("\(attack.name): unpacked")
        } catch let problem as ArchiveProblem {
            switch (problem, attack.problem) {
            case (.tooLarge, .tooLarge): break
            case (.sizeMismatch(let a, _, let b), .sizeMismatch(let c, _, let d)): #expect(a == "objects/" + c || a == c); #expect(b == d)
            default: #expect(problem == attack.problem, "\(attack.name)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Output").path), "\(attack.name): wrote something")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape").path))
        #expect(BundleTools.verify(url, publicKey: nil).problems.count == 1)
    }
}
