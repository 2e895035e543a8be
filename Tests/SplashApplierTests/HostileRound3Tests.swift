// Expectations: each case of the third hostile round (issue 27) as written there: what a user had is
// never lost, and no wrong answer is given with exit 0.
import Foundation
@_spi(Testing) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

extension HostileInputTests {
    /// N1: a cached file whose header records one pixel more than its screen (1180×2556 for
    /// 1179×2556, as real PosterBoard files do; docs/ios-launch-cache.md §3) gets the 1179 screen's
    /// object like the others; `status` and `apply` agree, and restore gives it back byte for byte.
    @Test func aFileRecordingOnePixelMoreGetsItsScreensObject() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        let folder = try sim.snapshotFolder(model)
        let name = try #require(model.variants.first { $0.value == portraitLight }?.key)
        var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
        // HEAD's word 6 (the width) is at byte 16 + 6 × 4.
        #expect(bytes[40..<44].elementsEqual([0x9B, 0x04, 0, 0]), "1179")
        bytes[40] = 0x9C
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        let originals = try sim.cachedFiles()

        let status = try applier(sim, bundle: bundle, now: during).status()
        #expect(status.files.allSatisfy { $0.action == .wouldChange }, "\(status.files.map(\.action))")
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.problems == [])
        #expect(report.files.allSatisfy { $0.action == .replaced }, "\(report.files.map(\.action))")
        let held = try #require(try sim.cachedFiles()[name])
        #expect(try SnapshotHeader.pixelSize(of: held).width == 1180, "the original's header is kept")
        #expect(try SnapshotHeader.astcBlocks(of: held).blocks == (try objectBlocks(in: bundle, portraitLight, pixels: iPhone15)))
        _ = try applier(sim, bundle: nil, now: during).restore()
        #expect(try sim.cachedFiles() == originals)
    }
}

extension HostileInputTests {
    /// N8: a file in the launch folder whose name the OS never gives a launch snapshot (§2: a UUID,
    /// `@<scale>x`, an extension), here one too long for the applier's temporary sibling (238–255
    /// bytes) with a copy of a snapshot's bytes, is not a snapshot (issue 36): never read, recorded
    /// or changed; the rest is applied and restored.
    @Test func aFileNotNamedAsALaunchSnapshotIsLeftAlone() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let folder = try sim.snapshotFolder(try sim.model())
        let (name, data) = try #require(try sim.cachedFiles().first)
        let long = String(repeating: "L", count: 240) + "@3x.ktx"
        try data.write(to: folder.appendingPathComponent(long))
        let originals = try sim.cachedFiles()
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.problems == [], "\(report.problems)")
        #expect(report.files.map(\.name).sorted() == originals.keys.sorted())
        #expect(report.files.allSatisfy { $0.action == .replaced })
        #expect(try Data(contentsOf: folder.appendingPathComponent(long)) == data, "left as it is")
        #expect(try sim.cachedFiles()[name] != originals[name])
        let restored = try applier(sim, bundle: nil, now: during).restore()
        #expect(restored.problems == [])
        #expect(try sim.cachedFiles() == originals)
        #expect(try Data(contentsOf: folder.appendingPathComponent(long)) == data)
    }

    /// N9: `restore` with `Library` (or a folder below it) a symbolic link names the link, as
    /// `status` and `apply` do, rather than saying the app was never launched.
    @Test(arguments: ["Library", "Library/SplashBoard", "Library/SplashBoard/Snapshots"])
    func restoreNamesALinkOnTheWayToTheLaunchFolder(_ linked: String) throws {
        let sim = try sandbox(Installed.iPhone15)
        let path = sim.container.appendingPathComponent(linked)
        let moved = temporaryFolder("elsewhere").appendingPathComponent("moved")
        try FileManager.default.moveItem(at: path, to: moved)
        try FileManager.default.createSymbolicLink(at: path, withDestinationURL: moved)
        for run in [
            { try self.applier(sim, bundle: nil, now: self.during).restore() },
            { try self.applier(sim, bundle: nil, now: self.during).restore(fromBackups: true) },
        ] {
            #expect(throws: ApplierError.symbolicLink(linked)) { _ = try run() }
        }
    }

    /// N10: on the iOS 12 layout, a kill at any point of `restore` followed by `apply` leaves no
    /// temporary file of the applier's in the launch folder.
    @Test func aKilledRestoreOnIOS12LeavesNoTemporaryFileBehindTheNextApply() throws {
        let prepared = SandboxSimulator(root: try Installed.install(device: "iPhone 8", ios: "12.4"))
        _ = try CrashMatrixTests.applier(prepared, now: during).apply()
        var kills = 0
        for n in 0..<200 {
            let sim = try CrashMatrixTests.copy(prepared)
            var killed = try CrashMatrixTests.applier(sim, now: during)
            killed.fileSystem = FaultInjectingFileSystem(failAfter: n, inside: true, container: sim.container)
            let outcome = Result { () throws(ApplierError) in try killed.restore() }
            if case .success = outcome { break }
            #expect(throws: FaultInjectingFileSystem.kill) { try outcome.get() }
            kills += 1
            _ = try CrashMatrixTests.applier(sim, now: during).apply()
            let root = try sim.snapshotFolder(try sim.model()).deletingLastPathComponent()
            let left = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".splashgen-partial") }
            #expect(left == [], "killed after \(n) operations of restore, then apply: \(left ?? [])")
        }
        #expect(kills >= 3)
    }
}

extension HostileInputTests {
    /// N2: after a restore, whether the state was intact, deleted (rebuilt) or damaged (`--from-backups`),
    /// the next `apply` applies the campaign in force again, never "nothing to do". A restore given no
    /// bundle rebuilds records with no appearance (no marker to read): the next `apply` classifies
    /// them again (issue 36), and the run after has nothing to do with the campaign still shown.
    @Test(arguments: ["intact", "deleted", "damaged"], [true, false])
    func theCampaignInForceIsAppliedAgainAfterARestore(_ state: String, restoreWithBundle: Bool) throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        _ = try applier(sim, bundle: bundle, now: during).apply()
        let stateURL = sim.container.appendingPathComponent(support + "/state.json")
        if state == "deleted" { try FileManager.default.removeItem(at: stateURL) }
        if state == "damaged" { try Data("{ not json".utf8).write(to: stateURL) }
        _ = try applier(sim, bundle: restoreWithBundle ? bundle : nil, now: during).restore(fromBackups: state == "damaged")
        #expect(try sim.cachedFiles() == originals, "\(state)")
        let again = try applier(sim, bundle: bundle, now: during.addingTimeInterval(60)).apply()
        #expect(!again.nothingToDo && again.campaign == "double11", "\(state)")
        #expect(again.files.allSatisfy { $0.action == .replaced } && again.problems.isEmpty, "\(state): \(again.problems)")
        let next = try applier(sim, bundle: bundle, now: during.addingTimeInterval(120)).apply()
        #expect(next.problems.isEmpty && next.files.allSatisfy { $0.showing == "double11" }, "\(state): \(next.files.map(\.showing))")
        #expect(Set(try sim.cachedFiles().values).isDisjoint(with: Set(originals.values)), "\(state)")
    }

    /// N11: with the applier's support folder lost while the campaign's files are in the cache (here in
    /// KTX containers, so no file is an object byte for byte), no campaign file is ever taken for an
    /// original: each is reported `original-lost`, and the folder is cleared for the OS to render its
    /// originals again; after the campaign ends the user sees the OS's own render, not the campaign.
    @Test(arguments: [CacheFormat.ktx, .appleCompressedKTX])
    func aLostSupportFolderNeverMakesTheCampaignTheOriginal(_ format: CacheFormat) throws {
        let bundle = try Bundles.double11.get()
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", cacheFormat: format))
        let originals = try sim.cachedFiles()
        _ = try applier(sim, bundle: bundle, now: during).apply()
        let campaign = try sim.cachedFiles()
        #expect(Set(campaign.values).isDisjoint(with: Set(originals.values)))
        let objects = try Set(FileManager.default.contentsOfDirectory(atPath: bundle.path + "/objects"))
        #expect(Set(campaign.values.map(sha256Hex)).isDisjoint(with: objects), "framed: no file is an object byte for byte")
        try FileManager.default.removeItem(at: sim.container.appendingPathComponent(support))

        // Without the bundle nothing can tell them apart: nothing is taken for an original.
        let blind = try applier(sim, bundle: nil, now: during).restore()
        #expect(blind.problems.map(\.code) == [.cannotTellOriginals])
        #expect(try sim.cachedFiles() == campaign)
        #expect(!FileManager.default.fileExists(atPath: sim.container.appendingPathComponent(support + "/state.json").path))

        let restored = try applier(sim, bundle: bundle, now: during).restore()
        #expect(Set(restored.problems.filter { $0.code == .originalLost }.compactMap(\.file)) == Set(campaign.keys))
        #expect(restored.files.allSatisfy { $0.showing != "original" })
        let shown = try sim.launch(bundle: bundle, now: after)
        #expect(shown.regenerated != nil, "the OS renders its originals again")
        #expect(try sim.cachedFiles().values.allSatisfy { !campaign.values.contains($0) }, "no campaign file is left")
        #expect(shown.appReport?.campaign == nil && shown.appReport?.problems == [])
    }
}
