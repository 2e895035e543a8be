import Foundation
import SplashApplier
import SplashFormat
import SplashTestSupport
import Testing

/// `ApplyPlanner.plan` against a small reference model, over every small state, as swift-collections
/// checks `Deque` against `Array`. The model is the rule the planner serves (docs/architecture.md,
/// "The applier", step 10), written here per file, independently of the planner's code:
///
/// - with no campaign in force, or restoring, a file goes back to its original;
/// - with campaigns in force, a file of unknown appearance is left as it is; any other shows the
///   highest-priority campaign in force with a snapshot of its screen, orientation and appearance
///   (a higher one lacking it hides nothing), or its original when none has one;
/// - a snapshot goes in only in the original's container: kept when the file already shows it;
///   the file left as it is when its original is lost; the original kept when its container cannot
///   be written again;
/// - an original that is the OS's black render never comes back: the app's own screen goes there
///   in the same way, and where it cannot (no such snapshot, an unwritable container) the file is
///   removed for iOS to render again.
///
/// All files share one screen, 8×16 px, in its four variants (portrait and landscape, light and
/// dark). Two campaigns are in force, `high` (priority 11) over `low` (10), and the bundle also
/// holds the app's own screen (`own`, not in force) in every variant but landscape dark. Which of
/// `high` and `low` has each variant runs through every pairing: in bundle `k`, variant `v` is in
/// neither, `high` only, `low` only or both as `(v + k) % 4` is 0, 1, 2 or 3, so within one bundle
/// files that share the screen never share what the campaigns have of it.
@Suite struct ApplyPlannerModelTests {
    enum Kind: CaseIterable { case original, showsHigh, showsLow, unknown }
    /// Where the file's original stands: read whole, lost, or in a container splashgen cannot write
    /// again (a PNG).
    enum Original: CaseIterable { case readable, lost, unframable }
    enum Mode: CaseIterable { case campaigns, none, restoring, status }
    enum Campaign: String, CaseIterable { case high, low, own }

    /// One file of the state: what it holds, its variant (an index of `variants`), where its original
    /// stands, and whether that original is a black render.
    struct File: CustomStringConvertible {
        var kind: Kind
        var variant: Int
        var original: Original = .readable
        var black = false
        var description: String { "\(kind) \(ApplyPlannerModelTests.variants[variant]) \(original)\(black ? " black" : "")" }
    }

    static let variants: [(orientation: Orientation, appearance: Appearance)] = [
        (.portrait, .light), (.portrait, .dark), (.landscape, .light), (.landscape, .dark),
    ]
    static func pixels(_ variant: Int) -> Manifest.Size {
        variants[variant].orientation == .portrait ? Manifest.Size(width: 8, height: 16) : Manifest.Size(width: 16, height: 8)
    }
    static func name(_ index: Int) -> String { "file\(index).ktx" }

    /// Whether `campaign` has a snapshot of `variant` in bundle `bundle` (the pairing above).
    static func has(_ campaign: Campaign, _ variant: Int, in bundle: Int) -> Bool {
        switch campaign {
        case .high: return [1, 3].contains((variant + bundle) % 4)
        case .low: return [2, 3].contains((variant + bundle) % 4)
        case .own: return variant != 3
        }
    }

    /// The object bytes of `campaign`'s snapshot of `variant`: ATX blocks of a byte its own.
    static func objectBytes(_ campaign: Campaign, _ variant: Int) -> Data {
        let size = pixels(variant), fill = UInt8(1 + 4 * (Campaign.allCases.firstIndex(of: campaign) ?? 0) + variant)
        return ATXFile(astc4x4Width: size.width, height: size.height, blocks: Data(repeating: fill, count: size.width * size.height)).serialized()
    }
    static func object(_ campaign: Campaign, _ variant: Int) -> String { sha256Hex(objectBytes(campaign, variant)) }

    /// Bundle `index` on disk: `high` and `low` with the variants the pairing gives them, and `own`.
    static func bundle(_ index: Int) throws -> SnapshotBundle {
        let root = temporaryFolder("planner-model")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("objects"), withIntermediateDirectories: true)
        let start = Manifest.Schedule(start: Date(timeIntervalSince1970: 0), end: nil)
        let campaigns = try Campaign.allCases.map { campaign in
            let snapshots = try variants.indices.filter { has(campaign, $0, in: index) }.map { variant in
                let bytes = objectBytes(campaign, variant)
                try bytes.write(to: root.appendingPathComponent("objects/" + sha256Hex(bytes)))
                return Manifest.Snapshot(
                    points: pixels(variant), scale: 1, pixels: pixels(variant), orientation: variants[variant].orientation,
                    appearance: variants[variant].appearance, family: "iphone", devices: ["a phone"], object: sha256Hex(bytes), bytes: bytes.count)
            }
            return Manifest.Campaign(
                id: campaign.rawValue, schedule: start, grey: false, encoding: .atx, snapshots: snapshots,
                priority: campaign == .high ? 11 : campaign == .low ? 10 : 0, ownScreen: campaign == .own)
        }
        let manifest = Manifest(
            generator: "test", app: .init(bundleID: "com.example.shop", marker: .init(light: "#FFFFFF", dark: "#000000", size: 3)), campaigns: campaigns)
        try manifest.encoded().write(to: root.appendingPathComponent("manifest.json"))
        return try SnapshotBundle(root: root)
    }

    /// The record of `file` at `index`.
    static func record(_ file: File, _ index: Int) -> ApplierState.FileRecord {
        let size = pixels(file.variant), original = ApplyPlannerTests.hash("original \(index)")
        let shown: Campaign? = file.kind == .showsHigh ? .high : file.kind == .showsLow ? .low : nil
        var record = ApplierState.FileRecord(
            width: size.width, height: size.height, appearance: file.kind == .unknown ? nil : variants[file.variant].appearance,
            decidedBy: file.kind == .unknown ? .luminance : .marker, original: original, current: original)
        if let shown {
            record.object = object(shown, file.variant)
            record.current = ApplyPlannerTests.hash("framed \(object(shown, file.variant))")
        }
        record.blackRender = file.black ? true : nil
        return record
    }

    /// The model: what file `index` holds after the run and the object in it; nil: removed.
    static func expected(_ file: File, _ index: Int, _ mode: Mode, bundle: Int) -> (target: String, object: String?)? {
        let record = record(file, index)
        // `object`'s picture in the original's container; nil when that container cannot be written.
        func put(_ object: String) -> (target: String, object: String?)? {
            if record.object == object, record.current != record.original { return (record.current, object) }
            switch file.original {
            case .readable: return (object, object)
            case .lost: return (record.current, record.object)
            case .unframable: return nil
            }
        }
        var result: (target: String, object: String?)? = (record.original, nil)
        if mode == .campaigns || mode == .status {
            if record.appearance == nil {
                result = (record.current, record.object)
            } else if let shown = [Campaign.high, .low].first(where: { has($0, file.variant, in: bundle) }) {
                result = put(object(shown, file.variant)) ?? (record.original, nil)
            }
        }
        guard file.black, result?.target == record.original else { return result }
        return record.appearance != nil && has(.own, file.variant, in: bundle) ? put(object(.own, file.variant)) : nil
    }

    /// The plan for `records` in `mode`, with the campaigns in force as the applier finds them.
    static func plan(
        _ records: [String: ApplierState.FileRecord], _ mode: Mode, bundle: SnapshotBundle, original: @escaping (String) -> Data?
    ) throws -> ApplyPlan {
        let inForce = mode == .campaigns || mode == .status ? bundle.manifest.campaigns(inForceAt: Date(), appVersion: nil).filter { $0.ownScreen != true } : []
        return try ApplyPlanner.plan(
            ApplyPlannerTests.state(records), campaigns: inForce, bundle: bundle, restoring: mode == .restoring,
            verifyingBytes: mode == .status, original: original)
    }

    /// Every combination of `count` values from `values`.
    static func combinations<T>(_ values: [T], _ count: Int) -> [[T]] {
        count == 0 ? [[]] : combinations(values, count - 1).flatMap { head in values.map { head + [$0] } }
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40))

    /// Every file alone (kind, variant, original, black render); every pair of such a file and a
    /// plain one (any kind and variant, its original read whole, not black), either first; every
    /// three plain files that are not of unknown appearance: 96 + 2,816 + 1,728 states, each with
    /// every bundle and mode, 74,240 plans. One test case a bundle and mode (16 of 4,640 plans), so
    /// that no case holds a test thread for long.
    @Test(arguments: 0..<16)
    func thePlanIsTheModelsInEveryStateOfOneToThreeFiles(_ bundleAndMode: Int) throws {
        let index = bundleAndMode / Mode.allCases.count, mode = Mode.allCases[bundleAndMode % Mode.allCases.count]
        let every: [File] = Kind.allCases.flatMap { kind in
            Self.variants.indices.flatMap { variant in
                Original.allCases.flatMap { original in [false, true].map { File(kind: kind, variant: variant, original: original, black: $0) } }
            }
        }
        let plain: [File] = Kind.allCases.flatMap { kind in Self.variants.indices.map { File(kind: kind, variant: $0) } }
        let pairs =
            every.flatMap { full in plain.map { [full, $0] } }
            + plain.flatMap { first in every.filter { $0.original != .readable || $0.black }.map { [first, $0] } }
        let known = plain.filter { $0.kind != .unknown }
        let bundle = try Self.bundle(index)
        var checked = 0, failing = 0
        for states in [Self.combinations(every, 1), pairs, Self.combinations(known, 3)] {
            for state in states {
                let records = Dictionary(uniqueKeysWithValues: state.indices.map { (Self.name($0), Self.record(state[$0], $0)) })
                let original = { (name: String) -> Data? in
                    guard let index = state.indices.first(where: { Self.name($0) == name }) else { return nil }
                    switch state[index].original {
                    case .readable: return ApplyPlannerTests.launchOriginal(name)
                    case .lost: return nil
                    case .unframable: return Self.png
                    }
                }
                let plan = try Self.plan(records, mode, bundle: bundle, original: original)
                var changes: [String: ApplyPlan.Change] = [:]
                for change in plan.changes { changes[change.name] = change }
                var wrong = false
                for (at, file) in state.enumerated() {
                    let name = Self.name(at), before = records[name], what = "\(file) of \(state.count), bundle \(index), \(mode)"
                    guard let want = Self.expected(file, at, mode, bundle: index) else {
                        wrong = wrong || plan.state.files[name] != nil || changes[name]?.remove != true
                        #expect(plan.state.files[name] == nil && changes[name]?.remove == true, "\(what): removed")
                        continue
                    }
                    let holds = plan.state.files[name]
                    wrong = wrong || holds?.current != want.target || holds?.object != want.object
                    #expect(holds?.current == want.target, "\(what): holds")
                    #expect(holds?.object == want.object, "\(what): its object")
                    if want.target == before?.current {
                        wrong = wrong || changes[name] != nil
                        #expect(changes[name] == nil, "\(what): no change")
                    } else {
                        let goesIn = want.target == before?.original ? nil : want.object
                        wrong = wrong || changes[name]?.target != want.target || changes[name]?.snapshot?.object != goesIn
                        #expect(changes[name]?.target == want.target, "\(what): changed to")
                        #expect(changes[name]?.snapshot?.object == goesIn, "\(what): what goes in")
                    }
                }
                #expect(plan.changes.map(\.name) == plan.changes.map(\.name).sorted(), "changes in name order")
                if wrong { failing += 1 }
                checked += 1
            }
        }
        #expect(checked == 96 + 2 * 96 * 16 - 16 * 16 + 12 * 12 * 12)
        #expect(failing == 0, "plans unlike the model's")
    }
}
