import Foundation
import SplashApplier
import SplashFormat
import SplashTestSupport
import Testing

/// `CacheSurvey`: hand-worked cases, a container on disk in, the survey and its records out. The
/// expectations follow from the rules the survey serves (docs/architecture.md, "The applier"; the
/// folder and file names of docs/ios-launch-cache.md §2): only regular files with an extension the OS
/// reads are snapshots; the applier's own `*.splashgen-partial` files are listed apart; PNG bytes in
/// a `.ktx` name, or a campaign's object with no original behind it, are another library's
/// leftovers (§9); a replacement this applier wrote keeps the original its backup holds, and says
/// so when that backup is gone. The files are KTX headers made here with `KTXFile`, read by the
/// survey only for their pixel size; the app declares a light interface, so no pixel is decoded.
@Suite struct CacheSurveyTests {
    static let os = OSVersion(major: 17)
    static let bundleID = "com.example.shop"

    /// A launch snapshot of `width`×`height` pixels whose blocks are filled with `seed`.
    static func snapshot(_ width: Int, _ height: Int, seed: UInt8) -> Data {
        KTXFile(astc4x4Width: width, height: height, blocks: Data(repeating: seed, count: KTXFile.astc4x4ByteCount(width: width, height: height)))
            .serialized()
    }

    /// A container with the launch folder holding `files` (name → bytes), and its paths.
    static func container(_ files: [String: Data]) throws -> ApplierPaths {
        let container = temporaryFolder("survey")
        let paths = try ApplierPaths(container: container, bundleID: bundleID, os: os)
        try FileManager.default.createDirectory(at: paths.folderURL, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: paths.url(ApplierPaths.support), withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: paths.folderURL.appendingPathComponent(name)) }
        return paths
    }

    static let classifier = SnapshotClassifier(decoder: NoDecoder(), cue: nil, interfaceStyle: .light)
    static let key = ApplierState.Key(version: "5.2", build: "100", fingerprint: String(repeating: "0", count: 64))

    @Test func onlyRegularFilesTheOSReadsAreSnapshotsAndPartialsAreListedApart() throws {
        let a = Self.snapshot(40, 80, seed: 1)
        let (b, lower, c, d) = (
            "0000000B-0000-4000-8000-000000000000@2x.ktx", "0000000a-0000-4000-8000-00000000000a@2x.KTX",
            "0000000C-0000-4000-8000-000000000000.png", "0000000D-0000-4000-8000-000000000000.jpeg"
        )
        // Names the OS never gives a launch snapshot (§2): no UUID, a scale of two digits, a UUID cut short.
        let others = ["B@2x.ktx", "notes.txt", "0000000B-0000-4000-8000-000000000000@10x.ktx", "0000000B-0000-4000-8000-00000000000@2x.ktx"]
        var files = [b: a, lower: a, c: a, d: a, "0000000E-0000-4000-8000-000000000000@2x.ktx.splashgen-partial": a]
        for name in others { files[name] = a }
        let paths = try Self.container(files)
        try FileManager.default.createDirectory(at: paths.folderURL.appendingPathComponent("downscaled"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: paths.folderURL.appendingPathComponent("0000000F-0000-4000-8000-000000000000@2x.ktx"),
            withDestinationURL: paths.folderURL.appendingPathComponent(b))
        let survey = try CacheSurvey(paths: paths)
        #expect(survey.folderExists)
        #expect(survey.names == [b, c, d, lower], "sorted by byte order, as the state key's fingerprint needs")
        #expect(survey.partials == ["0000000E-0000-4000-8000-000000000000@2x.ktx.splashgen-partial"])
        #expect(survey.saved == nil && survey.stateProblem == nil, "no state yet is no problem")
        #expect(!survey.editingFolderExists && !survey.clearingFolderExists)
    }

    @Test func anOriginalIsRecordedALeftoverIsSetApartAndNothingIsWritten() throws {
        let original = Self.snapshot(40, 80, seed: 1), object = Self.snapshot(80, 40, seed: 2)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0, count: 64)
        let paths = try Self.container([
            "0000000A-0000-4000-8000-000000000000@2x.ktx": original, "00000000-0000-4000-8000-0000000000D0@2x.ktx": png,
            "00000000-0000-4000-8000-0000000000C0@2x.ktx": object,
        ])
        // The manifest names `object` as a campaign snapshot: a file holding it with no original
        // behind it is a leftover of a run whose state was lost.
        let manifest = Manifest(
            generator: "test", app: .init(bundleID: Self.bundleID, marker: .init(light: "#FFFFFF", dark: "#000000", size: 3)),
            campaigns: [
                Manifest.Campaign(
                    id: "sale", schedule: .init(start: Date(timeIntervalSince1970: 0), end: nil), grey: false, encoding: .ktx,
                    snapshots: [
                        Manifest.Snapshot(
                            points: .init(width: 80, height: 40), scale: 1, pixels: .init(width: 80, height: 40), orientation: .landscape,
                            appearance: .light, family: "iphone", devices: ["a phone"], object: sha256Hex(object), bytes: object.count)
                    ])
            ])
        let before = try FileManager.default.subpathsOfDirectory(atPath: paths.container.path).sorted()
        let rekeyed = try CacheSurvey(paths: paths).rekey(key: Self.key, manifest: manifest, classifier: Self.classifier, fromBackupsOnly: false)
        #expect(rekeyed.state.files.keys.sorted() == ["0000000A-0000-4000-8000-000000000000@2x.ktx"])
        let record = try #require(rekeyed.state.files["0000000A-0000-4000-8000-000000000000@2x.ktx"])
        #expect((record.width, record.height) == (40, 80))
        #expect(record.appearance == .light && record.decidedBy == .interfaceStyle)
        #expect(record.original == sha256Hex(original) && record.current == record.original)
        #expect(
            rekeyed.originals["0000000A-0000-4000-8000-000000000000@2x.ktx"]
                == BackupSource(path: paths.folder + "/0000000A-0000-4000-8000-000000000000@2x.ktx", hash: sha256Hex(original)))
        #expect(
            rekeyed.leftovers == [
                "00000000-0000-4000-8000-0000000000C0@2x.ktx", "00000000-0000-4000-8000-0000000000D0@2x.ktx",
            ])
        #expect(rekeyed.lostOriginals.isEmpty && rekeyed.rebuiltFromBackup.isEmpty && rekeyed.unreadable.isEmpty)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: paths.container.path).sorted() == before, "a survey never writes")
    }

    /// A trusted state says `A` holds a replacement whose original is in the old key's backup (with
    /// `killedMidSwap`, the file holds the change a killed run had only marked pending).
    static func replaced(backupHolds copy: Data?, killedMidSwap: Bool = false) throws -> (ApplierPaths, original: Data, replacement: Data) {
        let original = Self.snapshot(40, 80, seed: 1), replacement = Self.snapshot(40, 80, seed: 9)
        let paths = try Self.container(["0000000A-0000-4000-8000-000000000000@2x.ktx": replacement])
        let oldKey = ApplierState.Key(version: "5.1", build: "99", fingerprint: String(repeating: "1", count: 64))
        let backup = ApplierPaths.backupFolder(for: oldKey, folder: paths.folder)
        try FileManager.default.createDirectory(at: paths.url(backup), withIntermediateDirectories: true)
        if let copy { try copy.write(to: paths.url(backup).appendingPathComponent("0000000A-0000-4000-8000-000000000000@2x.ktx")) }
        let state = ApplierState(
            key: oldKey, bundleID: Self.bundleID, folder: paths.folder, backup: backup,
            files: [
                "0000000A-0000-4000-8000-000000000000@2x.ktx": .init(
                    width: 40, height: 80, appearance: .light, decidedBy: .interfaceStyle, original: sha256Hex(original),
                    current: killedMidSwap ? sha256Hex(Data("the replacement before".utf8)) : sha256Hex(replacement), pending: sha256Hex(replacement))
            ], campaign: "sale")
        try state.encoded().write(to: paths.stateURL)
        return (paths, original, replacement)
    }

    @Test func aReplacementCarriesOverWithTheOriginalItsBackupHolds() throws {
        let (paths, original, replacement) = try Self.replaced(backupHolds: Self.snapshot(40, 80, seed: 1))
        let survey = try CacheSurvey(paths: paths)
        #expect(survey.saved != nil && survey.stateProblem == nil)
        let rekeyed = survey.rekey(key: Self.key, manifest: nil, classifier: Self.classifier, fromBackupsOnly: false)
        let record = try #require(rekeyed.state.files["0000000A-0000-4000-8000-000000000000@2x.ktx"])
        #expect(record.original == sha256Hex(original) && record.current == sha256Hex(replacement))
        #expect(record.pending == nil, "the pending mark of the old key is resolved: the file holds its target")
        #expect(rekeyed.originals["0000000A-0000-4000-8000-000000000000@2x.ktx"]?.hash == sha256Hex(original))
        #expect(
            rekeyed.originals["0000000A-0000-4000-8000-000000000000@2x.ktx"]?.path
                == survey.saved?.backup.appending("/0000000A-0000-4000-8000-000000000000@2x.ktx"))
        #expect(rekeyed.lostOriginals.isEmpty)
    }

    /// A run killed after a rename it had marked pending, then the key changed: the file holds the
    /// pending change, still this applier's replacement (never taken for a new original), and the
    /// object it shows is not known.
    @Test func aReplacementAKilledRunMadeCarriesOverToo() throws {
        let (paths, original, replacement) = try Self.replaced(backupHolds: Self.snapshot(40, 80, seed: 1), killedMidSwap: true)
        let rekeyed = try CacheSurvey(paths: paths).rekey(key: Self.key, manifest: nil, classifier: Self.classifier, fromBackupsOnly: false)
        let record = try #require(rekeyed.state.files["0000000A-0000-4000-8000-000000000000@2x.ktx"])
        #expect(record.original == sha256Hex(original) && record.current == sha256Hex(replacement) && record.object == nil && record.pending == nil)
        #expect(rekeyed.originals["0000000A-0000-4000-8000-000000000000@2x.ktx"]?.hash == sha256Hex(original), "its original is the old key's backup")
    }

    @Test func aReplacementWhoseBackupIsGoneOrDamagedIsALostOriginal() throws {
        for copy in [nil, Self.snapshot(40, 80, seed: 7)] {
            let (paths, _, _) = try Self.replaced(backupHolds: copy)
            let rekeyed = try CacheSurvey(paths: paths).rekey(key: Self.key, manifest: nil, classifier: Self.classifier, fromBackupsOnly: false)
            #expect(rekeyed.lostOriginals == ["0000000A-0000-4000-8000-000000000000@2x.ktx"], "backup \(copy == nil ? "missing" : "damaged")")
            #expect(rekeyed.originals["0000000A-0000-4000-8000-000000000000@2x.ktx"] == nil, "a damaged copy is never taken for the original")
        }
    }

    /// The state is written in place (one full flush for a pending mark), so a kill or a power cut
    /// can leave it torn: a file whose seal does not match what follows it is not trusted, whether
    /// torn (a byte of the JSON changed, or the new first half over the old second half), or
    /// unsealed (the schema 2 file, plain JSON, an earlier applier wrote).
    @Test func aTornOrUnsealedStateIsNotTrusted() throws {
        let (paths, _, _) = try Self.replaced(backupHolds: Self.snapshot(40, 80, seed: 1))
        let sealed = try Data(contentsOf: paths.stateURL)
        #expect(try CacheSurvey(paths: paths).saved != nil, "as written, it is trusted")
        var flipped = sealed
        flipped[flipped.count - 10] ^= 0x01
        let json = try #require(ApplierState.unsealed(sealed))
        let older = Data(json.reversed())
        let halves = sealed.prefix(sealed.count / 2) + older.suffix(sealed.count - sealed.count / 2)
        for (kind, bytes) in [("a byte changed", flipped), ("torn halves", halves), ("unsealed JSON", json)] {
            try bytes.write(to: paths.stateURL)
            let survey = try CacheSurvey(paths: paths)
            #expect(survey.saved == nil, "\(kind)")
            #expect(survey.stateProblem == "state.json does not match its seal (torn by a kill or a power cut, or edited)", "\(kind)")
        }
    }

    @Test func withNoTrustedStateABackupThatDiffersFromTheFileIsItsOriginal() throws {
        let original = Self.snapshot(40, 80, seed: 1), replacement = Self.snapshot(40, 80, seed: 9)
        let paths = try Self.container(["0000000A-0000-4000-8000-000000000000@2x.ktx": replacement])
        try ApplierState.sealed(Data("{".utf8)).write(to: paths.stateURL)
        let backup = ApplierPaths.backupFolder(for: Self.key, folder: paths.folder)
        try FileManager.default.createDirectory(at: paths.url(backup), withIntermediateDirectories: true)
        try original.write(to: paths.url(backup).appendingPathComponent("0000000A-0000-4000-8000-000000000000@2x.ktx"))
        let survey = try CacheSurvey(paths: paths)
        #expect(survey.saved == nil && survey.stateProblem == "state.json does not decode")
        let rekeyed = survey.rekey(key: Self.key, manifest: nil, classifier: Self.classifier, fromBackupsOnly: false)
        #expect(rekeyed.rebuiltFromBackup == ["0000000A-0000-4000-8000-000000000000@2x.ktx"])
        #expect(rekeyed.state.files["0000000A-0000-4000-8000-000000000000@2x.ktx"]?.original == sha256Hex(original))
        #expect(rekeyed.state.files["0000000A-0000-4000-8000-000000000000@2x.ktx"]?.current == sha256Hex(replacement))
        #expect(
            rekeyed.originals["0000000A-0000-4000-8000-000000000000@2x.ktx"]
                == BackupSource(path: backup + "/0000000A-0000-4000-8000-000000000000@2x.ktx", hash: sha256Hex(original)))
    }

    @Test func aLinkOnTheWayIsRefused() throws {
        let paths = try Self.container([:])
        let support = paths.url(ApplierPaths.support)
        try FileManager.default.removeItem(at: support)
        try FileManager.default.createSymbolicLink(at: support, withDestinationURL: temporaryFolder("elsewhere"))
        #expect(throws: ApplierError.symbolicLink(ApplierPaths.support)) { try CacheSurvey(paths: paths) }
    }
}

/// A decoder the survey must never need (the app declares its style): any call is a failure.
struct NoDecoder: SnapshotPixelDecoder {
    func decode(_ data: Data) throws -> RGBAImage {
        Issue.record("no pixel is decoded when the app declares its interface style")
        return RGBAImage(width: 1, height: 1, fill: RGBAColor(r: 0, g: 0, b: 0))
    }
}
