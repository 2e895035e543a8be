// Expectations: first principles against the simulator's originals: each cached file is its
// original or the bundle's object for its variant, a refused bundle leaves the snapshot tree byte
// for byte, a no-op run decodes nothing (docs/ios-launch-cache.md §7). The refusal reasons are the
// applier's named cases; the bundles are splashgen's build of campaigns/double11.yaml.
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// Originals are never lost, bad bundles change nothing, and nothing to do costs next to nothing.
@Suite struct ApplierSafetyTests {
    let during = date("2026-11-11T09:00:00+08:00")
    let after = date("2026-11-12T03:00:00+08:00")

    func applier(_ sim: SandboxSimulator, bundle: URL?, now: Date, decoder: any SnapshotPixelDecoder = SnapshotDecoder()) throws -> SnapshotApplier {
        let model = try sim.model()
        return SnapshotApplier(
            container: sim.container, bundle: bundle, appVersion: model.version, appBuild: model.build,
            osVersion: OSVersion(model.ios)!, decoder: decoder, trust: .acceptingUnsignedBundles, clock: { now })
    }

    /// Every cached file is its original or the campaign's snapshot for its variant.
    func checkInvariant(_ sim: SandboxSimulator, originals: [String: Data], bundle: URL, _ label: String) throws {
        let model = try sim.model()
        for (name, data) in try sim.cachedFiles() {
            let allowed = [sha256Hex(originals[name]!), try object(in: bundle, model.variants[name]!, pixels: iPhone15)]
            #expect(allowed.contains(sha256Hex(data)), "\(label): \(name) is neither original nor replacement")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: try sim.snapshotFolder(model).path).filter {
            !$0.hasSuffix(".ktx") && !$0.hasPrefix("sceneID:")
        }
        #expect(leftovers.allSatisfy { $0.hasSuffix(".splashgen-partial") }, "\(label): \(leftovers)")
    }

    static let badBundles: [(name: String, damage: @Sendable (URL) throws -> Void, expected: @Sendable (BundleProblem) -> Bool)] = [
        ("hash mismatch", { bundle in try flipLastByte(of: firstObject(bundle)) }, { if case .hashMismatch = $0 { true } else { false } }),
        (
            "truncated object",
            { bundle in
                let url = try firstObject(bundle); try Data(contentsOf: url).prefix(1000).write(to: url)
            },
            { if case .sizeMismatch(_, _, 1000) = $0 { true } else { false } }
        ),
        ("wrong pixel size", { bundle in try swapInObjectOfAnotherSize(bundle) }, { if case .wrongPixelSize = $0 { true } else { false } }),
        (
            // The OS could not decode it: a KTX of the right screen marked Compression_APPLE whose
            // level, after its 8-byte lead, is not an LZFSE stream.
            "undecodable payload",
            { bundle in
                var file = KTXFile(appleCompressedASTC4x4Width: 1179, height: 2556, blocks: Data(count: KTXFile.astc4x4ByteCount(width: 1179, height: 2556)))
                file.levelData = file.levelData.prefix(8) + Data(repeating: 0x41, count: 4096)
                try swapInObject(bundle, file.serialized())
            },
            { if case .unreadableObject = $0 { true } else { false } }
        ),
        (
            "newer schema", { bundle in try editManifest(bundle) { $0.replacingOccurrences(of: "\"schema\" : 3", with: "\"schema\" : 7") } },
            { $0 == .newerSchema(found: 7, supported: Manifest.currentSchema) }
        ),
        ("malformed JSON", { bundle in try editManifest(bundle) { String($0.prefix(200)) } }, { if case .malformedManifest = $0 { true } else { false } }),
        (
            "path traversal",
            { bundle in
                let first = try firstObject(bundle).lastPathComponent
                try editManifest(bundle) { $0.replacingOccurrences(of: first, with: "../../../../etc/passwd") }
            }, { $0 == .notAnObjectName("../../../../etc/passwd") }
        ),
        ("missing object", { bundle in try FileManager.default.removeItem(at: firstObject(bundle)) }, { if case .missingObject = $0 { true } else { false } }),
    ]

    @Test(arguments: badBundles.indices)
    func aBadBundleIsRefusedWithANamedReasonAndNothingChanges(_ index: Int) throws {
        let bad = Self.badBundles[index]
        let bundle = temporaryFolder("bad").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
        try bad.damage(bundle)
        let sim = try sandbox(Installed.iPhone15)
        let before = try sim.snapshotTree()
        do {
            _ = try applier(sim, bundle: bundle, now: during).apply()
            Issue.record("\(bad.name): applied")
        } catch let ApplierError.badBundle(problem) {
            #expect(bad.expected(problem), "\(bad.name): \(problem)")
            // The error a person reads carries the problem's own sentence, not just its kind.
            #expect(ApplierError.badBundle(problem).description == "bad bundle: \(problem)", "\(bad.name)")
        }
        #expect(try sim.snapshotTree() == before, "\(bad.name): the cache changed")
        let support = sim.container.appendingPathComponent("Library/Application Support/splashgen")
        #expect(!FileManager.default.fileExists(atPath: support.appendingPathComponent("state.json").path))
        #expect(!FileManager.default.fileExists(atPath: support.appendingPathComponent("backups").path))
    }

    /// Where the OS cached nothing (the report of a scene-based app's empty cache, docs/ios-launch-cache.md
    /// §10), the run says so, naming the folder it looked in, for a missing folder and for an empty one,
    /// and never claims the app was not launched: it runs inside the app.
    @Test func anEmptyOrMissingLaunchFolderIsNoLaunchSnapshotsNamingTheFolder() throws {
        let sim = try sandbox(Installed.iPhone15)
        let folder = try sim.snapshotFolder(try sim.model())
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        let relative = "Library/SplashBoard/Snapshots/com.example.shop - {DEFAULT GROUP}"
        let empty = try applier(sim, bundle: try Bundles.double11.get(), now: during).apply()
        #expect(empty.problems.map(\.code) == [.noLaunchSnapshots])
        #expect(empty.problems.first?.message.hasPrefix("no launch snapshot in \(relative) (the folder holds no file named as one)") == true)
        try FileManager.default.removeItem(at: folder)
        let missing = try applier(sim, bundle: try Bundles.double11.get(), now: during).apply()
        #expect(missing.problems.map(\.code) == [.noLaunchSnapshots])
        #expect(missing.problems.first?.message.hasPrefix("no launch snapshots: \(relative) does not exist") == true)
        #expect(!(missing.problems.first?.message.contains("since install") ?? true))
    }

    @Test func nothingToDoReadsOneStateFileAndDecodesNothing() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        _ = try applier(sim, bundle: bundle, now: during).apply()
        let counting = CountingDecoder()
        let report = try applier(sim, bundle: bundle, now: during.addingTimeInterval(60), decoder: counting).apply()
        #expect(report.nothingToDo && report.campaign?.hasPrefix("double11") == true)
        #expect(counting.calls == 0)
        // Crossing the schedule's end is not "nothing to do".
        #expect(try applier(sim, bundle: bundle, now: after, decoder: counting).apply().nothingToDo == false)
    }

    @Test func twoAppliersAtOnceLeaveOneConsistentResult() async throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        let a = try applier(sim, bundle: bundle, now: during), b = try applier(sim, bundle: bundle, now: during)
        async let first = Task.detached { try a.apply() }.value
        async let second = Task.detached { try b.apply() }.value
        let reports = try await [first, second]
        #expect(reports.filter { $0.files.contains { $0.action == .replaced } }.count == 1, "one did the work, the other found it done")
        try checkInvariant(sim, originals: originals, bundle: bundle, "concurrent")
        _ = try await applier(sim, bundle: bundle, now: during).restore()
        #expect(try sim.cachedFiles() == originals)
    }

    @Test func aSnapshotFolderThatIsASymbolicLinkIsRefused() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let folder = try sim.snapshotFolder(sim.model())
        let elsewhere = temporaryFolder("elsewhere").appendingPathComponent("real")
        try FileManager.default.moveItem(at: folder, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: elsewhere)
        #expect(throws: ApplierError.symbolicLink("Library/SplashBoard/Snapshots/com.example.shop - {DEFAULT GROUP}")) {
            _ = try applier(sim, bundle: bundle, now: during).apply()
        }
    }

    /// A link planted where the applier opens a file (its lock, the state, which it writes in
    /// place, a staged object) is refused: the run stops with a named error and the file the
    /// link points at keeps its bytes. Expectation from first principles: nothing is written through
    /// a link (`O_NOFOLLOW`).
    @Test(arguments: ["lock", "state.json", "swap-staging"])
    func aLinkPlantedWhereTheApplierOpensAFileIsRefusedAndItsTargetIsUntouched(_ name: String) throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let support = sim.container.appendingPathComponent("Library/Application Support/splashgen")
        _ = try applier(sim, bundle: bundle, now: date("2026-11-10T10:00:00+08:00")).apply()
        let target = temporaryFolder("elsewhere").appendingPathComponent("precious")
        let precious = Data("the user's own file".utf8)
        try precious.write(to: target)
        let planted = support.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: planted)
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: target)
        let cached = try sim.cachedFiles()
        #expect(throws: ApplierError.symbolicLink("Library/Application Support/splashgen/" + name)) {
            _ = try applier(sim, bundle: bundle, now: during).apply()
        }
        #expect(try Data(contentsOf: target) == precious, "\(name): the link's target keeps its bytes")
        #expect(try sim.cachedFiles() == cached, "\(name): nothing in the launch folder changed")
    }

    /// The container's lock is "busy" only while another applier holds it: a lock file that cannot
    /// be made (a folder in its place: `EISDIR`, POSIX's `open` on a directory for writing) is that
    /// failure with its error number, at once, and nothing changes.
    @Test func aLockThatCannotBeMadeSaysWhyAndIsNotBusy() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let lock = sim.container.appendingPathComponent("Library/Application Support/splashgen/lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let cached = try sim.cachedFiles()
        #expect(throws: ApplierError.fileSystem(FileSystemError(.create, path: lock.path, systemCall: "openat", errno: EISDIR))) {
            _ = try applier(sim, bundle: bundle, now: during).apply()
        }
        #expect(try sim.cachedFiles() == cached)
    }

    /// A run killed mid-write leaves `NAME.ktx.splashgen-partial` in the OS's folder; the next
    /// run that may write removes it, even when it has nothing else to do (the launch path).
    /// `status` writes nothing, so it leaves it.
    @Test func aKilledRunsPartialFileInTheLaunchFolderIsRemovedByTheNextRunWhateverItDoes() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        _ = try applier(sim, bundle: bundle, now: during).apply()
        let folder = try sim.snapshotFolder(sim.model())
        let cached = try sim.cachedFiles()
        let partial = folder.appendingPathComponent(cached.keys.sorted()[0] + ".splashgen-partial")
        try cached.values.first!.prefix(3000).write(to: partial)

        _ = try applier(sim, bundle: bundle, now: during).status()
        #expect(FileManager.default.fileExists(atPath: partial.path), "status changes nothing")
        let settled = try applier(sim, bundle: bundle, now: during).apply()
        #expect(settled.nothingToDo, "the launch path: nothing else to do")
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(try sim.cachedFiles() == cached)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasSuffix(".splashgen-partial") })
    }

    /// What is really wrong with a bundle file is named, by the applier, `verify` and `pack` alike:
    /// a manifest too large (not "missing"), an object that is a link (not "missing" or
    /// "truncated"), an object of 2 GiB (its size, not "missing"). Nothing changes.
    @Test func whatIsWrongWithABundleFileIsNamedAndNothingChanges() throws {
        let sim = try sandbox(Installed.iPhone15)
        let before = try sim.snapshotTree()
        func damaged(_ damage: (URL, URL) throws -> Void) throws -> URL {
            let bundle = temporaryFolder("named").appendingPathComponent("b")
            try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
            try damage(bundle, try firstObject(bundle))
            return bundle
        }
        let object = try firstObject(try Bundles.double11.get()).lastPathComponent
        let expected = try Manifest.decode(from: Data(contentsOf: try Bundles.double11.get().appendingPathComponent("manifest.json")))
            .campaigns[0].snapshots.first { $0.object == object }!.bytes
        let cases: [(String, URL, BundleProblem)] = [
            (
                "manifest over 8 MB",
                try damaged { bundle, _ in try Data(count: 9_000_000).write(to: bundle.appendingPathComponent("manifest.json")) },
                .manifestTooLarge(bytes: 9_000_000, limit: ReadLimits.manifestBytes)
            ),
            (
                "object that is a link",
                try damaged { bundle, url in
                    let copy = bundle.appendingPathComponent("elsewhere")
                    try FileManager.default.moveItem(at: url, to: copy)
                    try FileManager.default.createSymbolicLink(at: url, withDestinationURL: copy)
                },
                .notARegularFile("objects/" + object, kind: "a symbolic link")
            ),
            (
                "object of 2 GiB",
                try damaged { _, url in
                    let handle = try FileHandle(forWritingTo: url)
                    try handle.truncate(atOffset: 2 << 30)
                    try handle.close()
                },
                .sizeMismatch(object: object, expected: expected, found: 2 << 30)
            ),
        ]
        for (name, bundle, problem) in cases {
            #expect(throws: ApplierError.badBundle(problem), "\(name)") { _ = try applier(sim, bundle: bundle, now: during).apply() }
            #expect(BundleTools.verify(bundle, publicKey: nil).problems == [problem.description], "\(name)")
            #expect(throws: problem, "\(name)") { try BundleTools.contents(of: bundle) }
        }
        #expect(try sim.snapshotTree() == before)
    }

    @Test func statusSaysWhatApplyWouldDoAndChangesNothing() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let before = try sim.snapshotTree()
        let status = try applier(sim, bundle: bundle, now: during).status()
        #expect(status.campaign == "double11")
        #expect(status.files.count == 4 && status.files.allSatisfy { $0.action == .wouldChange && $0.decidedBy == .marker })
        #expect(Set(status.files.map { "\($0.orientation) \($0.appearance!)" }).count == 4)
        #expect(try sim.snapshotTree() == before)
        #expect(!FileManager.default.fileExists(atPath: sim.container.appendingPathComponent("Library/Application Support/splashgen/state.json").path))
    }
}

func firstObject(_ bundle: URL) throws -> URL {
    let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
    let portrait = manifest.campaigns[0].snapshots.first { $0.orientation == .portrait && $0.appearance == .light }!
    return bundle.appendingPathComponent("objects/" + portrait.object)
}

func flipLastByte(of url: URL) throws {
    var data = try Data(contentsOf: url)
    data[data.count - 1] ^= 0xFF
    try data.write(to: url)
}

func editManifest(_ bundle: URL, _ edit: (String) -> String) throws {
    let url = bundle.appendingPathComponent("manifest.json")
    try Data(edit(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
}

/// Puts another screen's object under the portrait-light entry, with the manifest's hash and size
/// updated to match, so only the pixel-size check can catch it.
func swapInObjectOfAnotherSize(_ bundle: URL) throws {
    try swapInObject(bundle, try Data(contentsOf: firstObject(try Bundles.double11OldPhone.get())))
}

/// Puts `other` under the portrait-light entry, with the manifest's hash and size updated to match.
func swapInObject(_ bundle: URL, _ other: Data) throws {
    let url = bundle.appendingPathComponent("manifest.json")
    var manifest = try Manifest.decode(from: Data(contentsOf: url))
    let index = manifest.campaigns[0].snapshots.firstIndex { $0.orientation == .portrait && $0.appearance == .light }!
    manifest.campaigns[0].snapshots[index].object = sha256Hex(other)
    manifest.campaigns[0].snapshots[index].bytes = other.count
    try other.write(to: bundle.appendingPathComponent("objects/" + sha256Hex(other)))
    try manifest.encoded().write(to: url)
}

@Suite struct ClassificationTests {
    @Test func whenTheMarkerDoesNotDecideTheLightDoesAndTheReportSaysSo() throws {
        // The storyboard's marker is white/black; this bundle expects magenta/green, so no file matches.
        let bundle = try buildBundle("double11.yaml") {
            $0.marker = Campaign.Marker(light: RGBAColor(r: 255, g: 0, b: 255), dark: RGBAColor(r: 0, g: 255, b: 0), size: 2)
        }
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        let status = try SnapshotApplier(
            container: sim.container, bundle: bundle, appVersion: "5.2", appBuild: "100",
            osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles,
            clock: { date("2026-11-11T09:00:00+08:00") }
        ).status()
        #expect(status.files.count == 4)
        for file in status.files {
            #expect(file.decidedBy == .luminance)
            #expect(file.appearance == model.variants[file.name]?.appearance, "\(file.name)")
            #expect(file.orientation == model.variants[file.name]?.orientation)
        }
    }
}
