import Foundation
import SplashApplier
import SplashFormat
import SplashTestSupport
import Testing

/// `ApplyPlanner.plan` against a small reference model, over every state of one to three files, as
/// swift-collections checks `Deque` against `Array`: each file is an original, this campaign's
/// replacement, another campaign's replacement, or of unknown appearance; the campaign has its
/// snapshot or not; its original is readable or lost; and the run applies a campaign, applies none,
/// or restores. The model is the rule the planner serves (docs/architecture.md, "The applier"),
/// written here per file, independently of the planner's code: with no campaign, or restoring,
/// every file goes back to its original; with one, a file of known appearance takes its snapshot
/// (written in its original's container, so only where the original can be read), keeps what it
/// shows when that is already the snapshot, and goes back to its original when the campaign lacks
/// its screen; a file of unknown appearance is left as it is.
@Suite struct ApplyPlannerModelTests {
    enum Kind: CaseIterable { case original, thisCampaign, otherCampaign, unknown }
    enum Mode: CaseIterable { case campaign, none, restoring }

    /// One file of the state: what it holds, whether the campaign has its snapshot, whether its
    /// original can be read.
    struct File {
        var kind: Kind
        var snapshotPresent: Bool
        var originalReadable: Bool
    }

    /// File `index`'s screen: a size of its own, so each file's snapshot is there or not alone.
    static func screen(_ index: Int) -> Manifest.Size { Manifest.Size(width: 400 + 8 * index, height: 800 + 8 * index) }
    static func name(_ index: Int) -> String { "file\(index).ktx" }
    static let other = ApplyPlannerTests.hash("another campaign's object")

    /// The object of file `index`'s snapshot in a bundle whose campaign has it (the bundle helper
    /// names each object by the hash of bytes that say its screen and appearance).
    static func object(_ index: Int) -> String {
        let pixels = screen(index)
        return sha256Hex(Data("\(pixels.width)x\(pixels.height) portrait light".utf8))
    }

    /// The record of `file` at `index`.
    static func record(_ file: File, _ index: Int) -> ApplierState.FileRecord {
        let pixels = screen(index), original = ApplyPlannerTests.hash("original \(index)")
        switch file.kind {
        case .original:
            return ApplyPlannerTests.record(pixels.width, pixels.height, .light, original: original)
        case .thisCampaign:
            var record = ApplyPlannerTests.record(
                pixels.width, pixels.height, .light, original: original, current: ApplyPlannerTests.hash("framed \(object(index))"))
            record.object = object(index)
            return record
        case .otherCampaign:
            var record = ApplyPlannerTests.record(pixels.width, pixels.height, .light, original: original, current: ApplyPlannerTests.hash("framed other"))
            record.object = other
            return record
        case .unknown:
            return ApplyPlannerTests.record(pixels.width, pixels.height, nil, by: .luminance, original: original)
        }
    }

    /// The model: what file `index` holds after the run, and the object that goes in (nil: none).
    static func expected(_ file: File, _ index: Int, _ mode: Mode) -> (target: String, object: String?) {
        let record = record(file, index)
        guard mode == .campaign else { return (record.original, nil) }
        if file.kind == .unknown { return (record.current, record.object) }
        guard file.snapshotPresent else { return (record.original, nil) }
        if file.kind == .thisCampaign { return (record.current, record.object) }
        guard file.originalReadable else { return (record.current, record.object) }
        return (object(index), object(index))
    }

    /// Every combination of `count` values from `values`.
    static func combinations<T>(_ values: [T], _ count: Int) -> [[T]] {
        count == 0 ? [[]] : combinations(values, count - 1).flatMap { head in values.map { head + [$0] } }
    }

    @Test func thePlanIsTheModelsInEveryStateOfOneToThreeFiles() throws {
        let files = Kind.allCases.flatMap { kind in
            [false, true].flatMap { present in [false, true].map { File(kind: kind, snapshotPresent: present, originalReadable: $0) } }
        }
        var bundles: [[Bool]: (SnapshotBundle, Manifest.Campaign)] = [:]
        var checked = 0
        for count in 1...3 {
            for state in Self.combinations(files, count) {
                let present = state.map(\.snapshotPresent)
                if bundles[present] == nil {
                    let variants = present.indices.filter { present[$0] }.map { (Self.screen($0), Orientation.portrait, Appearance.light) }
                    bundles[present] = try ApplyPlannerTests.bundle(variants)
                }
                guard let (bundle, campaign) = bundles[present] else { continue }
                let records = Dictionary(uniqueKeysWithValues: state.indices.map { (Self.name($0), Self.record(state[$0], $0)) })
                for mode in Mode.allCases {
                    let plan = try ApplyPlanner.plan(
                        ApplyPlannerTests.state(records), campaign: mode == .none ? nil : campaign, bundle: bundle, restoring: mode == .restoring,
                        original: { name in
                            guard let index = state.indices.first(where: { Self.name($0) == name }), state[index].originalReadable else { return nil }
                            return ApplyPlannerTests.launchOriginal(name)
                        })
                    var changes: [String: (target: String, object: String?)] = [:]
                    for change in plan.changes { changes[change.name] = (change.target, change.snapshot?.object) }
                    for (index, file) in state.enumerated() {
                        let name = Self.name(index), want = Self.expected(file, index, mode), before = records[name]
                        let what = "\(file) in \(count) files, \(mode)"
                        #expect(plan.state.files[name]?.current == want.target, "\(what): holds")
                        #expect(plan.state.files[name]?.object == want.object, "\(what): its object")
                        if want.target == before?.current {
                            #expect(changes[name] == nil, "\(what): no change")
                        } else {
                            #expect(changes[name]?.target == want.target, "\(what): changed to")
                            #expect(changes[name]?.object == (want.target == before?.original ? nil : want.object), "\(what): what goes in")
                        }
                    }
                    #expect(plan.changes.map(\.name) == plan.changes.map(\.name).sorted(), "changes in name order")
                    checked += 1
                }
            }
        }
        #expect(checked == 3 * (16 + 16 * 16 + 16 * 16 * 16))
    }
}
