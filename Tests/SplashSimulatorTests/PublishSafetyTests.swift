import Foundation
import SplashCore
import SplashFormat
import SplashFormatWriting
import SplashScenarios
import SplashTestSupport
import Testing

/// `publish` writes only its own tree: never into a bundle, never over a file it did not write,
/// and never leaves an object it can restore damaged. Expectations from the cases themselves: the
/// bundle's bytes unchanged, the stranger's file unchanged, each object file matching its name.
@Suite struct PublishSafetyTests {
    /// Every file below `root` with its bytes.
    func files(_ root: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? FileManager.DirectoryEnumerator() {
            let url = root.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue { found[path] = try Data(contentsOf: url) }
        }
        return found
    }

    /// The clock's serial: SOURCE_DATE_EPOCH when it is set, now when it is not. Set but empty, as
    /// a CI job whose git refused its workspace leaves it, or not a positive whole number, is
    /// refused (issue 24): never the clock's serial in silence.
    @Test func theClocksSerialIsTheCommitTimeOrNowAndNeverAFallback() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000.7)
        #expect(try Publisher.clockSerial(environment: ["SOURCE_DATE_EPOCH": "1800000000"], now: now) == 1_800_000_000)
        for bad in ["", "0", "-5", "soon", "1e9"] {
            #expect(throws: PublishError.badSourceDateEpoch(bad), "\(bad)") {
                try Publisher.clockSerial(environment: ["SOURCE_DATE_EPOCH": bad], now: now)
            }
        }
        #expect(try Publisher.clockSerial(environment: [:], now: now) == 1_795_000_000)
        #expect(
            PublishError.badSourceDateEpoch("").description
                == "SOURCE_DATE_EPOCH is set but empty; the serial must be the commit's time (git log -1 --format=%ct), or unset SOURCE_DATE_EPOCH to publish at the clock's time"
        )
    }

    /// A fresh folder gets the clock's serial, a tree that holds a greater one the next after it.
    @Test func aFreshFolderTakesTheClocksSerialAndATreeAheadOfItTakesOneMore() throws {
        let tree = temporaryFolder("tree")
        let bundle = try Season15.full.get()
        #expect(try Publisher.publish(bundle: bundle, to: tree, privateKey: Season15.key.privateKey, clock: 1_800_000_000).serial == 1_800_000_000)
        #expect(try Publisher.publish(bundle: bundle, to: tree, privateKey: Season15.key.privateKey, clock: 1_700_000_000).serial == 1_800_000_001)
    }

    @Test func aTreeThatIsABundleOrInsideOneIsRefusedAndTheBundleIsUntouched() throws {
        let bundle = temporaryFolder("bundle").appendingPathComponent("season")
        try FileManager.default.copyItem(at: try Season15.full.get(), to: bundle)
        let before = try files(bundle)
        for tree in [bundle, bundle.appendingPathComponent("objects"), bundle.appendingPathComponent("cdn/live")] {
            #expect(throws: PublishError.insideBundle(tree: tree.path, bundle: bundle.path)) {
                try Publisher.publish(bundle: bundle, to: tree, privateKey: Season15.key.privateKey)
            }
        }
        #expect(try files(bundle) == before)
        #expect(BundleTools.verify(bundle, publicKey: nil).problems.isEmpty)
    }

    @Test func filesPublishDidNotWriteAreLeftAlone() throws {
        let tree = temporaryFolder("tree")
        try Season15.publish(Season15.full, to: tree)
        let screens = tree.appendingPathComponent("screens")
        // A stranger's notes, a look-alike slice signed by another key, and one with no signature.
        let stranger = BundleSignature.makeKeyPair()
        let lookAlike = try Data(contentsOf: screens.appendingPathComponent("1179x2556.json"))
        let planted: [String: Data] = [
            "README.json": Data("{\"note\": \"ours\"}".utf8),
            "9x9.json": lookAlike,
            "9x9.json.sig": Data(try BundleSignature.sign(lookAlike, privateKey: stranger.privateKey).utf8),
            "8x8.json": lookAlike,
        ]
        for (name, data) in planted { try data.write(to: screens.appendingPathComponent(name)) }

        let report = try Publisher.publish(bundle: try Season15.otherScreen.get(), to: tree, privateKey: Season15.key.privateKey)
        for (name, data) in planted { #expect(try Data(contentsOf: screens.appendingPathComponent(name)) == data, "\(name) untouched") }
        #expect(!FileManager.default.fileExists(atPath: screens.appendingPathComponent("README.json.sig").path))
        // The one slice publish wrote before and no longer serves is withdrawn, as before.
        #expect(report.withdrawnScreens == 1)
        #expect(try Manifest.decode(from: Data(contentsOf: screens.appendingPathComponent("1179x2556.json"))).campaigns.isEmpty)
    }

    @Test func damagedObjectsAreWrittenAnewAndOnesItCannotRestoreAreNamed() throws {
        let tree = temporaryFolder("tree")
        try Season15.publish(Season15.full, to: tree)
        let objects = tree.appendingPathComponent("objects")
        let names = try FileManager.default.contentsOfDirectory(atPath: objects.path).filter(isObjectName).sorted()
        for url in [objects.appendingPathComponent(names[0]), objects.appendingPathComponent(names[1] + ".deflate")] {
            var data = try Data(contentsOf: url)
            data[data.count / 2] ^= 0xFF
            try data.write(to: url)
        }
        let foreign = String(repeating: "0", count: 64)
        try Data("not the object".utf8).write(to: objects.appendingPathComponent(foreign))

        let report = try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey)
        #expect(report.repairedObjects == 2)
        #expect(report.damagedObjectsLeft == [foreign])
        for name in names {
            let raw = try Data(contentsOf: objects.appendingPathComponent(name))
            #expect(sha256Hex(raw) == name)
            #expect(try Deflate.inflate(Data(contentsOf: objects.appendingPathComponent(name + ".deflate")), expectedSize: raw.count) == raw)
        }
        #expect(try Data(contentsOf: objects.appendingPathComponent(foreign)) == Data("not the object".utf8))
    }

    /// D8 (issue 36): a link inside the tree (`T/objects -> ../mine`) is never written through: the
    /// publication is refused, naming it, before anything is written, and `mine` stays empty.
    @Test func aLinkInsideTheTreeIsNeverFollowed() throws {
        let folder = temporaryFolder("links")
        let tree = folder.appendingPathComponent("tree"), mine = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("objects").path, withDestinationPath: "../mine")
        #expect(throws: PublishError.linkInTree(tree.appendingPathComponent("objects").path)) {
            try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path) == ["objects"])
        #expect(
            PublishError.linkInTree("T/objects").description
                == "T/objects is a symbolic link inside the tree; publish follows no link in its tree (put the folder or file itself there, or publish into another tree)"
        )
    }

    /// D8 (issue 36): a user's file at the name of a slice this publication serves is not one publish
    /// wrote (docs/reliability.md: it replaces only slices it wrote, signed with the key publishing):
    /// refused by name, and the tree is left exactly as it was. A slice it wrote is still replaced.
    @Test func aFileAtASlicesNameThatPublishDidNotWriteIsNeverReplaced() throws {
        let tree = temporaryFolder("tree")
        try Season15.publish(Season15.full, to: tree)
        let slice = tree.appendingPathComponent("screens/1179x2556.json")
        let stranger = BundleSignature.makeKeyPair()
        let lookAlike = try Data(contentsOf: slice), ownSignature = try Data(contentsOf: slice.appendingPathExtension("sig"))
        let app = try Manifest.decode(from: lookAlike).app.bundleID
        for (planted, signature) in [
            (Data("{\"note\": \"ours\"}".utf8), nil), (lookAlike, try BundleSignature.sign(lookAlike, privateKey: stranger.privateKey)),
        ] {
            try planted.write(to: slice)
            if let signature { try Data(signature.utf8).write(to: slice.appendingPathExtension("sig")) }
            let before = try files(tree)
            #expect(
                throws: PublishError.notWrittenByPublish(slice.path, found: "not a slice of \(app) signed under this key's root (with its .sig)")
            ) {
                try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey)
            }
            #expect(try files(tree) == before, "nothing written")
        }
        try lookAlike.write(to: slice)
        try ownSignature.write(to: slice.appendingPathExtension("sig"))
        #expect(try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey).screens > 0)
    }
}
