// Expectations: cases of the fourth hostile round (issue 36) as written there, worked out by hand:
// D10 from the Morton layout of docs/ios-launch-cache.md §3, D13 from the file names iOS writes (§2)
// and the applier's read limit for its state (ReadLimits.state), and the planner's case from the rule
// of docs/architecture.md (step 10): a file shows the highest-priority campaign in force that has
// its snapshot.
import Foundation
@_spi(Testing) @_spi(UnsignedBundles) import SplashApplier
import SplashFormat
import SplashTestSupport
import Testing

@Suite struct HostileRound4BoundsTests {
    /// D10: a picture uniform inside every 32×32-block tile (a checkerboard of 128 px squares) at
    /// 1536×2048, stored raw in Morton tiles. Both interleavings read every tile the same, so the
    /// tiles' seams cannot say which is right, and row order fits the length too: nothing decides,
    /// and the file is refused by name, never decoded in the wrong order.
    @Test func aTileUniformPictureInRawTilesIsRefusedAsUndecided() throws {
        let (width, height) = (1536, 2048)
        let tilesAcross = width / 128, tilesDown = height / 128
        // Tiles in row order, each 1024 blocks of one colour: 12 × 16 tiles.
        var payload = Data()
        for tile in 0..<(tilesAcross * tilesDown) {
            let dark = (tile % tilesAcross + tile / tilesAcross) % 2 == 1
            payload += Data(repeating: dark ? 0x11 : 0xEE, count: 1024 * 16)
        }
        #expect(payload.count == KTXFile.astc4x4ByteCount(width: width, height: height), "rows fit the length too")
        let file = ATXFile(head: ATXFile.launchHead(width: width, height: height), rowOrderBlocks: payload, tag: "ASTC")
        let parsed = try ATXFile(parsing: file.serialized())
        #expect(throws: SnapshotFormatError.undecidedRawLayout) { try parsed.rowOrderBlocks() }
        #expect(throws: SnapshotFormatError.undecidedRawLayout) { try SnapshotHeader.astcBlocks(of: file.serialized()) }
    }
}

extension HostileRound4BoundsTests {
    /// An iPad-only campaign at priority 11 over an iPhone-only one at 10: an iPhone's files show the
    /// iPhone campaign, the report says so per file, and the iPad campaign is named as lacking the
    /// screen, not as hiding it. With neither having a screen, the advice names both and asks for the
    /// screen in the campaign meant to show there. (iPhone 11: 414x896 pt @2x; iPad: 768x1024 @2x.)
    @Test func aHigherCampaignWithoutThisScreenHidesNothing() throws {
        let phone = Manifest.Size(width: 828, height: 1792), pad = Manifest.Size(width: 1536, height: 2048)
        let (bundle, both) = try ApplyPlannerTests.bundle([(phone, .portrait, .light), (pad, .portrait, .light)])
        var iphone = both, ipad = both
        (iphone.id, iphone.priority, iphone.snapshots) = ("iphone", 10, [both.snapshots[0]])
        (ipad.id, ipad.priority, ipad.snapshots) = ("ipad", 11, [both.snapshots[1]])
        let state = ApplyPlannerTests.state([
            "light": ApplyPlannerTests.record(828, 1792, .light), "dark": ApplyPlannerTests.record(828, 1792, .dark),
        ])
        let plan = try ApplyPlanner.plan(
            state, campaigns: [ipad, iphone], bundle: bundle, restoring: false, screenScale: 2, original: ApplyPlannerTests.launchOriginal)
        #expect(plan.changes.map(\.name) == ["light"])
        #expect(plan.changes.first?.snapshot?.object == both.snapshots[0].object)
        #expect(plan.state.files["light"]?.campaign == "iphone", "the report names the campaign the file shows")
        #expect(plan.problems.map(\.code) == [.missingSnapshot] && plan.problems.first?.file == "dark")
        #expect(
            plan.problems.first?.message
                == "no campaign in force (ipad, iphone) has a dark snapshot of this screen, 828x1792 px = 414x896 pt @2x: add the screen to the campaign meant to show on it (a device in devices:, or a catalogue: entry) and build again"
        )
        // Files in name order: "dark" (no campaign has it), then "light".
        #expect(
            plan.notShown == [
                .init("ipad", .screenMissing, "no snapshot of 828x1792 px = 414x896 pt @2x: its files show the original"),
                .init(
                    "iphone", .appearanceMissing,
                    "no dark snapshot of 828x1792 px = 414x896 pt @2x, portrait: those files show the original"),
                .init("ipad", .screenMissing, "no snapshot of 828x1792 px = 414x896 pt @2x: its files show iphone (priority 10)"),
            ])
        let outranked = ApplyReport.NotShown("iphone", .outranked, "in force, but ipad (priority 11) outranks it (priority 10)")
        #expect(plan.notShown(besides: [outranked]) == plan.notShown, "shown on a file, it is not outranked")
    }

    /// D13: a state never passes what the applier reads back (ReadLimits.stateBytes, 4 MiB). Records
    /// are bounded by CacheSurvey.mostSnapshots; the list of objects checked whole is not, and a
    /// manifest of 8 MiB can name about 100,000 objects: 70,000 names of 64 hex digits (and quotes,
    /// a comma, the indentation: over 70 bytes each, 4.9 MB) are dropped rather than written.
    @Test func aStateNeverPassesWhatTheApplierReadsBack() throws {
        var state = ApplyPlannerTests.state([:])
        for index in 0..<CacheSurvey.mostSnapshots {
            state.files[String(repeating: "N", count: 200) + "\(index)@3x.ktx"] = ApplyPlannerTests.record(1179, 2556, .light)
        }
        state.verified = (0..<70_000).map { ApplyPlannerTests.hash("object \($0)") }
        let data = try state.encoded()
        #expect(data.count <= ReadLimits.stateBytes, "\(data.count) bytes")
        state.verified = nil
        #expect(try state.encoded() == data, "the records are kept whole; only the checked list goes")
    }

    /// D13: a launch folder of 10,000 files with the OS's names (`<UUID>@3x.ktx`, §2) is not the
    /// cache iOS renders (1 to 4 files on an iPhone, §1): named, nothing read, changed or recorded, at
    /// the cost of one listing; and the state of the files before it is left as it was.
    @Test func aFolderOfTenThousandSnapshotsIsNamedAndLeftAsItIs() throws {
        let container = temporaryFolder("ten-thousand")
        let paths = try ApplierPaths(container: container, bundleID: "com.example.shop", os: OSVersion(major: 17))
        try FileManager.default.createDirectory(at: paths.folderURL, withIntermediateDirectories: true)
        for index in 0..<10_000 {
            try Data([UInt8(index % 251)]).write(to: paths.folderURL.appendingPathComponent(UUID().uuidString + "@3x.ktx"))
        }
        let applier = SnapshotApplier(
            container: container, bundle: nil, appVersion: "5.2", appBuild: "100", osVersion: OSVersion(major: 17),
            decoder: NoDecoder(), trust: .acceptingUnsignedBundles)
        let started = Date()
        let report = try applier.apply()
        let seconds = Date().timeIntervalSince(started)
        #expect(report.problems.map(\.code) == [.tooManySnapshots], "\(report.problems)")
        #expect(report.problems.first?.message.contains("holds 10000 snapshot files, more than the 256") == true)
        #expect(report.files.isEmpty && report.nothingToDo)
        #expect(!FileManager.default.fileExists(atPath: paths.stateURL.path), "nothing recorded")
        #expect(seconds < 10, "one listing: \(seconds) s")
    }
}
