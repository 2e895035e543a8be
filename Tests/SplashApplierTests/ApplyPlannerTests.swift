import Foundation
import SplashApplier
import SplashFormat
import SplashTestSupport
import Testing

/// `ApplyPlanner`: hand-worked cases, records and a campaign in, the plan out. Every expectation is
/// worked out here from the rules the planner serves (docs/architecture.md, "The applier"): a file
/// takes the campaign snapshot of its exact screen, orientation and appearance (a file recording one
/// pixel more than its screen, within one ASTC 4×4 block, is that screen: docs/ios-launch-cache.md
/// §3); with no campaign, or restoring, every file goes back to its original; a file whose
/// appearance is unknown is left as it is; a missing snapshot is reported with its screen, never
/// filled with another. Screens are Apple's published sizes (iPhone 11: 414x896 pt @2x; iPhone 15:
/// 393x852 pt @3x; iPhone XR zoomed: 375x812 pt @2x).
@Suite struct ApplyPlannerTests {
    /// A record of a cached file: `original` and `current` are hashes (any object names will do).
    static func record(
        _ width: Int, _ height: Int, _ appearance: Appearance?, by decidedBy: Classification = .marker,
        original: String = hash("original"), current: String? = nil
    ) -> ApplierState.FileRecord {
        ApplierState.FileRecord(
            width: width, height: height, appearance: appearance, decidedBy: decidedBy, original: original, current: current ?? original)
    }

    static func hash(_ text: String) -> String { sha256Hex(Data(text.utf8)) }

    /// Every file's original, as the planner reads it to learn its container: ATX in the launch
    /// layout (the bytes' hash is the executor's business, not the planner's).
    static func launchOriginal(_ name: String) -> Data? { ATXFile(astc4x4Width: 4, height: 4, blocks: Data(count: 16)).serialized() }

    static func state(_ files: [String: ApplierState.FileRecord]) -> ApplierState {
        ApplierState(
            key: .init(version: "5.2", build: "100", fingerprint: hash("names")), bundleID: "com.example.shop",
            folder: "Library/SplashBoard/Snapshots/com.example.shop - {DEFAULT GROUP}", backup: "backup", files: files)
    }

    /// A bundle on disk with one object per snapshot (bytes named by their hash, as a build writes
    /// them), and its campaign: `variants` are (portrait pixels, orientation, appearance).
    static func bundle(_ variants: [(Manifest.Size, Orientation, Appearance)]) throws -> (SnapshotBundle, Manifest.Campaign) {
        let root = temporaryFolder("planner")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("objects"), withIntermediateDirectories: true)
        var snapshots: [Manifest.Snapshot] = []
        for (portrait, orientation, appearance) in variants {
            let bytes = Data("\(portrait.width)x\(portrait.height) \(orientation) \(appearance)".utf8)
            let object = sha256Hex(bytes)
            try bytes.write(to: root.appendingPathComponent("objects/" + object))
            let pixels = orientation == .portrait ? portrait : Manifest.Size(width: portrait.height, height: portrait.width)
            snapshots.append(
                Manifest.Snapshot(
                    points: pixels, scale: 1, pixels: pixels, orientation: orientation, appearance: appearance, family: "iphone",
                    devices: ["a phone"], object: object, bytes: bytes.count))
        }
        let campaign = Manifest.Campaign(
            id: "sale", schedule: .init(start: Date(timeIntervalSince1970: 0), end: nil), grey: false, encoding: .atx, snapshots: snapshots)
        let manifest = Manifest(
            generator: "test", app: .init(bundleID: "com.example.shop", marker: .init(light: "#FFFFFF", dark: "#000000", size: 3)), campaigns: [campaign])
        try manifest.encoded().write(to: root.appendingPathComponent("manifest.json"))
        return (try SnapshotBundle(root: root), campaign)
    }

    static let phone = Manifest.Size(width: 828, height: 1792)

    @Test func aFileTakesItsOwnScreensSnapshotAndNothingElse() throws {
        let (bundle, campaign) = try Self.bundle([(Self.phone, .portrait, .light), (Self.phone, .landscape, .dark)])
        let light = campaign.snapshots[0].object, dark = campaign.snapshots[1].object
        let plan = try ApplyPlanner.plan(
            Self.state([
                "a": Self.record(828, 1792, .light),  // replaced
                "b": Self.record(1792, 828, .dark),  // replaced by the landscape dark one
                "c": Self.record(828, 1792, .light, current: light),  // already right: no change
            ]), campaign: campaign, bundle: bundle, restoring: false, original: Self.launchOriginal)
        #expect(plan.changes.map(\.name) == ["a", "b"])
        #expect(plan.changes.map(\.target) == [light, dark])
        #expect(plan.changes.map { $0.snapshot?.object } == [light, dark])
        #expect(plan.problems.isEmpty && plan.notShown.isEmpty)
        #expect(plan.state.files["a"]?.current == light && plan.state.files["a"]?.original == Self.hash("original"))
    }

    @Test func restoringOrNoCampaignPutsEveryOriginalBack() throws {
        let (bundle, campaign) = try Self.bundle([(Self.phone, .portrait, .light)])
        let replaced = Self.record(828, 1792, .light, current: campaign.snapshots[0].object)
        for (inForce, restoring) in [(campaign, true), (nil, false)] as [(Manifest.Campaign?, Bool)] {
            let plan = try ApplyPlanner.plan(
                Self.state(["a": replaced]), campaign: inForce, bundle: bundle, restoring: restoring, original: Self.launchOriginal)
            #expect(plan.changes.map(\.name) == ["a"])
            #expect(plan.changes.first?.target == Self.hash("original"))
            #expect(plan.changes.first?.snapshot == nil, "an original comes from the backup, not the bundle")
        }
    }

    @Test func missingSnapshotsAreNamedWithTheirScreenAndWhy() throws {
        let (bundle, campaign) = try Self.bundle([(Self.phone, .portrait, .light)])
        let plan = try ApplyPlanner.plan(
            Self.state([
                "dark": Self.record(828, 1792, .dark),  // the screen, not the appearance
                "land": Self.record(1792, 828, .light),  // the screen, not the orientation
                "zoom": Self.record(750, 1624, .light),  // another screen: iPhone XR zoomed
            ]), campaign: campaign, bundle: bundle, restoring: false, screenScale: 2, original: Self.launchOriginal)
        #expect(plan.changes.isEmpty, "no file gets another screen's snapshot")
        #expect(plan.problems.map(\.code) == [.missingSnapshot, .missingSnapshot, .missingSnapshot])
        #expect(plan.problems.map(\.file) == ["dark", "land", "zoom"])
        let screens = plan.problems.compactMap(\.screen)
        #expect(screens.map(\.pixels) == [Self.phone, Self.phone, Manifest.Size(width: 750, height: 1624)])
        #expect(
            screens.map(\.points) == [Manifest.Size(width: 414, height: 896), Manifest.Size(width: 414, height: 896), Manifest.Size(width: 375, height: 812)])
        #expect(plan.notShown.map(\.reason) == [.appearanceMissing, .orientationMissing, .screenMissing])
        #expect(plan.notShown.allSatisfy { $0.campaign == "sale" })
    }

    @Test func anUnknownAppearanceIsLeftAsItIsAndAGuessIsSaid() throws {
        let (bundle, campaign) = try Self.bundle([(Self.phone, .portrait, .light)])
        let plan = try ApplyPlanner.plan(
            Self.state([
                "guess": Self.record(828, 1792, .light, by: .luminance),
                "lost": Self.record(828, 1792, nil, by: .undecodable, current: Self.hash("something else")),
                "odd": Self.record(828, 1792, nil, by: .luminance),
            ]), campaign: campaign, bundle: bundle, restoring: false, original: Self.launchOriginal)
        #expect(plan.changes.map(\.name) == ["guess"], "a guess still applies; an unknown file keeps what it holds, original or not")
        #expect(plan.problems.map(\.code) == [.appearanceGuessed, .undecodable, .appearanceUnknown])
        #expect(plan.notes["lost"] != nil && plan.notes["odd"] != nil)
    }

    @Test func aFileOnePixelWiderWithinItsBlockIsItsScreen() throws {
        // 1180 recorded for a 1179-pixel screen: (1180 + 3) / 4 == (1179 + 3) / 4 == 295 blocks, so
        // it is that screen; 1181 is two pixels wider, never the screen.
        let screen = Manifest.Size(width: 1179, height: 2556)
        let (bundle, campaign) = try Self.bundle([(screen, .portrait, .light)])
        let plan = try ApplyPlanner.plan(
            Self.state(["wide": Self.record(1180, 2556, .light), "wider": Self.record(1181, 2556, .light)]),
            campaign: campaign, bundle: bundle, restoring: false, original: Self.launchOriginal)
        #expect(plan.changes.map(\.name) == ["wide"])
        #expect(plan.state.files["wide"]?.width == 1179, "the record takes the screen's size")
        #expect(plan.problems.map(\.file) == ["wider"])
    }

    @Test func aMissingOrMissizedObjectStopsThePlan() throws {
        let (bundle, campaign) = try Self.bundle([(Self.phone, .portrait, .light)])
        let object = bundle.root.appendingPathComponent("objects/" + campaign.snapshots[0].object)
        try Data("short".utf8).write(to: object)
        #expect(throws: ApplierError.self) {
            try ApplyPlanner.plan(
                Self.state(["a": Self.record(828, 1792, .light)]), campaign: campaign, bundle: bundle, restoring: false, original: Self.launchOriginal)
        }
        try FileManager.default.removeItem(at: object)
        #expect(throws: ApplierError.self) {
            try ApplyPlanner.plan(
                Self.state(["a": Self.record(828, 1792, .light)]), campaign: campaign, bundle: bundle, restoring: false, original: Self.launchOriginal)
        }
    }

    /// Why each other campaign is not shown: version range (the bundle's, then its own), then the
    /// window (start inclusive, end exclusive), then priority.
    @Test(arguments: [
        ("1.0", "2026-11-11T00:00:00Z", "version-below-range", "app version 1.0 is below the bundle's min_version 2.0"),
        ("9.1", "2026-11-11T00:00:00Z", "version-above-range", "app version 9.1 is above its max_version 9.0"),
        ("5.0", "2026-11-09T23:59:59Z", "not-started", "starts 2026-11-10T00:00:00Z"),
        ("5.0", "2026-11-12T00:00:00Z", "ended", "ended 2026-11-12T00:00:00Z"),
        ("5.0", "2026-11-11T00:00:00Z", "outranked", "in force, but top (priority 9) outranks it (priority 1)"),
    ])
    func whyACampaignIsNotShown(version: String, now: String, reason: String, message: String) throws {
        let schedule = Manifest.Schedule(start: try #require(ScheduleTime.date("2026-11-10T00:00:00Z")), end: ScheduleTime.date("2026-11-12T00:00:00Z"))
        let marker = Manifest.Marker(light: "#FFFFFF", dark: "#000000", size: 3)
        let sale = Manifest.Campaign(id: "sale", schedule: schedule, grey: false, encoding: .atx, snapshots: [], priority: 1, maxVersion: "9.0")
        let top = Manifest.Campaign(id: "top", schedule: schedule, grey: false, encoding: .atx, snapshots: [], priority: 9)
        let manifest = Manifest(generator: "test", app: .init(bundleID: "com.example.shop", minVersion: "2.0", marker: marker), campaigns: [sale, top])
        let date = try #require(ScheduleTime.date(now))
        let inForce = manifest.campaign(inForceAt: date, appVersion: version)
        let why = ApplyPlanner.notShown(manifest, inForce: inForce, at: date, appVersion: version).first { $0.campaign == "sale" }
        #expect(why?.reason.rawValue == reason)
        #expect(why?.message == message)
    }

    /// A replacement takes its original's container, read from the original (issue 25): an original
    /// splashgen cannot write again exactly keeps the file as it is, or brings the original back, and
    /// is reported by name; one that cannot be read leaves the file as it is; a file already holding
    /// the object (recorded) is not changed again.
    @Test func aReplacementTakesItsOriginalsContainerOrTheFileIsLeftTheOSs() throws {
        let (bundle, campaign) = try Self.bundle([(Self.phone, .portrait, .light)])
        let object = campaign.snapshots[0].object
        let framed = Self.hash("the object in the original's container")
        var showing = Self.record(828, 1792, .light, current: framed)
        showing.object = object
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40))
        let originals: [String: Data] = [
            "atx": ATXFile(astc4x4Width: 4, height: 4, blocks: Data(count: 16)).serialized(),
            "ktx": KTXFile(astc4x4Width: 4, height: 4, blocks: Data(count: 16)).serialized(),
            "png": png, "old": png,
        ]
        let plan = try ApplyPlanner.plan(
            Self.state([
                "atx": Self.record(828, 1792, .light), "ktx": Self.record(828, 1792, .light),
                "png": Self.record(828, 1792, .light),  // the OS's own PNG: kept
                "old": Self.record(828, 1792, .light, current: object),  // an older applier's ATX over it: the original comes back
                "lost": Self.record(828, 1792, .light, current: Self.hash("something")),  // no original to read
                "showing": showing,  // already holds the object, framed
            ]), campaign: campaign, bundle: bundle, restoring: false, original: { originals[$0] ?? ($0 == "showing" ? originals["atx"] : nil) })
        #expect(plan.changes.map(\.name) == ["atx", "ktx", "old"])
        #expect(plan.changes.map { $0.snapshot?.object } == [object, object, nil])
        #expect(
            plan.changes.map(\.framing) == [
                .atx(head: ATXFile.launchHead(width: 4, height: 4), payload: "LZFS"), .ktx(try KTXFile(parsing: originals["ktx"]!, includingLevel: false)), nil,
            ])
        #expect(plan.changes.last?.target == Self.hash("original"), "the original comes back over a container it never had")
        #expect(plan.problems.map(\.code) == [.originalLost, .containerUnsupported, .containerUnsupported])
        #expect(plan.problems.map(\.file) == ["lost", "old", "png"])
        #expect(plan.problems[2].message == "the original holds PNG, a container splashgen cannot write again exactly; left as the OS wrote it")
        #expect(plan.notes["png"] != nil && plan.notes["lost"] != nil && plan.notes["old"] == nil)
    }
}
