// Expectations: first principles: nothing outside the container is touched, refused input leaves
// the snapshot tree as it was, the simulator's originals come back byte for byte; a guess is never
// a marker reading and a declared style decides (docs/ios-launch-cache.md §6). The refusal reasons
// are the applier's own named cases.
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// The cases a hostile-input and fault-injection run found against the first applier, each refused
/// or handled with a named reason.
@Suite struct HostileInputTests {
    let before = date("2026-11-10T10:00:00+08:00")
    let during = date("2026-11-11T09:00:00+08:00")
    let after = date("2026-11-12T03:00:00+08:00")

    func applier(_ sim: SandboxSimulator, bundle: URL?, now: Date) throws -> SnapshotApplier {
        let model = try sim.model()
        return SnapshotApplier(
            container: sim.container, bundle: bundle, appVersion: model.version, appBuild: model.build,
            osVersion: OSVersion(model.ios) ?? OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { now })
    }

    var support: String { "Library/Application Support/splashgen" }

    @Test func deletedBackupsAreTakenAgainBeforeAnyOriginalIsReplaced() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        _ = try applier(sim, bundle: bundle, now: before).apply()
        try FileManager.default.removeItem(at: sim.container.appendingPathComponent(support + "/backups"))
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.files.allSatisfy { $0.action == .replaced } && report.problems.isEmpty)
        _ = try applier(sim, bundle: bundle, now: after).apply()
        #expect(try sim.cachedFiles() == originals)
    }

    @Test func aStateWhoseBackupPathLeavesTheContainerIsNotTrustedAndNothingOutsideIsTouched() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        _ = try applier(sim, bundle: bundle, now: during).apply()
        let outside = temporaryFolder("outside")
        try Data("precious".utf8).write(to: outside.appendingPathComponent("keep"))
        var state = try #require(try JSONSerialization.jsonObject(with: StateFile.json(in: sim.container)) as? [String: Any])
        state["backup"] = "../../../../../../../../.." + outside.path
        try StateFile.write(json: JSONSerialization.data(withJSONObject: state), in: sim.container)
        _ = try sim.update(version: "5.3", build: "200")
        let report = try applier(sim, bundle: bundle, now: after).apply()
        #expect(report.problems.map(\.code).contains(.stateRebuilt))
        #expect(try String(contentsOf: outside.appendingPathComponent("keep"), encoding: .utf8) == "precious")
    }

    @Test func aBundleWhoseAppIdIsAPathIsRefusedBeforeAnythingIsWritten() throws {
        let bundle = temporaryFolder("bad").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
        try editManifest(bundle) { $0.replacingOccurrences(of: "com.example.shop", with: "../../../../x") }
        let sim = try sandbox(Installed.iPhone15)
        let before = try sim.snapshotTree()
        #expect(throws: ApplierError.badBundle(.malformedManifest("app.bundle_id \"../../../../x\" is not a bundle identifier"))) {
            _ = try applier(sim, bundle: bundle, now: during).apply()
        }
        #expect(try sim.snapshotTree() == before)
        #expect(!BundleTools.verify(bundle, publicKey: nil).problems.isEmpty, "verify no longer calls it ok")
    }

    @Test func aBundleForAnotherAppIsRefused() throws {
        let bundle = temporaryFolder("other").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
        try editManifest(bundle) { $0.replacingOccurrences(of: "com.example.shop", with: "com.example.other") }
        let sim = try sandbox(Installed.iPhone15)
        #expect(throws: ApplierError.badBundle(.otherApp(expected: "com.example.shop", found: "com.example.other"))) {
            _ = try applier(sim, bundle: bundle, now: during).apply()
        }
    }

    @Test func aMissingContainerIsAnErrorNotCreated() throws {
        let missing = temporaryFolder("gone").appendingPathComponent("container")
        let applier = SnapshotApplier(
            container: missing, bundle: try Bundles.double11.get(), appVersion: "5.2", appBuild: "100",
            osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { date("2026-11-11T09:00:00+08:00") })
        #expect(throws: ApplierError.noContainer(missing.path)) { _ = try applier.apply() }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test(arguments: ["Library/SplashBoard", "Library/Application Support"])
    func aLinkAboveTheFoldersIsRefused(_ path: String) throws {
        let sim = try sandbox(Installed.iPhone15)
        let link = sim.container.appendingPathComponent(path)
        let elsewhere = temporaryFolder("elsewhere").appendingPathComponent("real")
        if FileManager.default.fileExists(atPath: link.path) {
            try FileManager.default.moveItem(at: link, to: elsewhere)
        } else {
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        #expect(throws: ApplierError.symbolicLink(path)) { _ = try applier(sim, bundle: try Bundles.double11.get(), now: during).apply() }
    }

    @Test func aCachedFileClaimingFourBillionSquaredPixelsIsReportedNotTrappedOn() throws {
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        let name = try #require(model.variants.first { $0.value == portraitLight }?.key)
        var head = ATXFile(astc4x4Width: 4, height: 4, blocks: Data(count: 16))
        head.head[6] = 0xFFFF_FFFF
        head.head[7] = 0xFFFF_FFFF
        try head.serialized().write(to: try sim.snapshotFolder(model).appendingPathComponent(name))
        let report = try applier(sim, bundle: try Bundles.double11.get(), now: during).apply()
        #expect(report.problems.contains { $0.code == .undecodable && $0.file == name })
        #expect(!report.complete)
        #expect(report.files.filter { $0.action == .replaced }.count == 3, "the other three still get the campaign")
    }

    @Test func manifestNumbersBeyondEveryScreenAreRefused() throws {
        for (field, value) in [("bytes", "-1"), ("bytes", "9223372036854775807"), ("width", "2000000000")] {
            let bundle = temporaryFolder("numbers").appendingPathComponent("b")
            try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
            try editManifest(bundle) { text in
                let pattern = field == "bytes" ? #""bytes" : [0-9]+"# : #""width" : [0-9]+"#
                guard let range = text.range(of: pattern, options: .regularExpression) else { return text }
                return text.replacingCharacters(in: range, with: "\"\(field)\" : \(value)")
            }
            #expect(throws: ManifestError.self, "\(field) \(value)") {
                _ = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
            }
            #expect(!BundleTools.verify(bundle, publicKey: nil).problems.isEmpty)
        }
    }

    @Test func aStateMissingAFileRecordIsRebuiltNotTrappedOn() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        _ = try applier(sim, bundle: bundle, now: during).apply()
        let object = try #require(try JSONSerialization.jsonObject(with: StateFile.json(in: sim.container)) as? [String: Any])
        var files = try #require(object["files"] as? [String: Any])
        files.removeValue(forKey: try #require(files.keys.sorted().first))
        var edited = object
        edited["files"] = files
        try StateFile.write(json: JSONSerialization.data(withJSONObject: edited), in: sim.container)
        let report = try applier(sim, bundle: bundle, now: during).apply()
        #expect(report.campaign == "double11")
        _ = try applier(sim, bundle: bundle, now: after).apply()
        #expect(try sim.cachedFiles() == originals)
    }

    @Test func aDamagedStateIsRebuiltFromTheBackupsAndRestoreFromBackupsWorks() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        _ = try applier(sim, bundle: bundle, now: during).apply()
        try Data("{ not json".utf8).write(to: sim.container.appendingPathComponent(support + "/state.json"))
        let status = try applier(sim, bundle: bundle, now: during).status()
        #expect(status.problems.map(\.code).contains(.stateRebuilt))
        #expect(status.files.allSatisfy { $0.showing == "double11" }, "the replacements are recognised by their backups")
        _ = try applier(sim, bundle: nil, now: during).restore(fromBackups: true)
        #expect(try sim.cachedFiles() == originals)
    }

    @Test func aNewBundleWithTheSameSizeAndTimeIsNoticed() throws {
        let sim = try sandbox(Installed.iPhone15)
        let folder = temporaryFolder("same").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: folder)
        let manifestURL = folder.appendingPathComponent("manifest.json")
        let stamp = try FileManager.default.attributesOfItem(atPath: manifestURL.path)[.modificationDate] as? Date
        _ = try applier(sim, bundle: folder, now: during).apply()
        // Same length, same modification time, other bytes: the campaign now ends an hour earlier.
        try editManifest(folder) { $0.replacingOccurrences(of: "2026-11-11T18:00:00Z", with: "2026-11-11T17:00:00Z") }
        try FileManager.default.setAttributes([.modificationDate: stamp as Any], ofItemAtPath: manifestURL.path)
        let report = try applier(sim, bundle: folder, now: date("2026-11-11T17:30:00Z")).apply()
        #expect(!report.nothingToDo && report.campaign == nil, "the new manifest ends the campaign")
    }

    @Test func aLightOnlyNavyScreenWithoutAMarkerIsAGuessUntilTheAppSaysItIsLightOnly() throws {
        let bundle = try Bundles.double11.get()
        let storyboard = Repo.storyboard("navy-light-only.json")
        let guessing = SandboxSimulator(root: try Installed.install(launchScreen: storyboard, ios: "17.0"))
        let first = try guessing.launch(bundle: bundle, now: during)
        #expect(first.appReport?.files.allSatisfy { $0.decidedBy == .luminance } == true, "never a marker reading")
        #expect(first.appReport?.problems.filter { $0.code == .appearanceGuessed }.count == 2)

        let root = temporaryFolder("light-only").appendingPathComponent("s")
        _ = try SandboxSimulator(root: root).install(
            launchScreen: storyboard, version: "5.2", build: "100", device: "iPhone 15",
            ios: "17.0", interfaceStyle: .light)
        let declared = SandboxSimulator(root: root)
        let told = try declared.launch(bundle: bundle, now: during)
        #expect(told.appReport?.files.allSatisfy { $0.decidedBy == .interfaceStyle && $0.appearance == .light } == true)
        #expect(told.appReport?.problems.isEmpty == true)
        #expect(try declared.launch(bundle: bundle, now: during).contentHash == (try object(in: bundle, portraitLight, pixels: iPhone15)))
    }

    @Test func simInstallRefusesAFolderThatIsNotItsSandbox() throws {
        let folder = temporaryFolder("precious")
        try Data("keep me".utf8).write(to: folder.appendingPathComponent("thesis.txt"))
        #expect(throws: SimulatorError.notASandbox(folder.path)) {
            _ = try SandboxSimulator(root: folder).install(
                launchScreen: try Repo.ownStoryboard, version: "1", build: "1",
                device: "iPhone 15", ios: "17.0")
        }
        #expect(try String(contentsOf: folder.appendingPathComponent("thesis.txt"), encoding: .utf8) == "keep me")
    }

    @Test func aDarkOnlyAppIsToldByItsDeclaredStyle() throws {
        let bundle = try Bundles.double11.get()
        let root = temporaryFolder("dark-only").appendingPathComponent("s")
        _ = try SandboxSimulator(root: root).install(
            launchScreen: try Repo.ownStoryboard, version: "5.2", build: "100",
            device: "iPhone 15", ios: "17.0", interfaceStyle: .dark)
        let sim = SandboxSimulator(root: root)
        #expect(try sim.model().variants.values.allSatisfy { $0.appearance == .dark }, "the OS renders only the declared style")
        let first = try sim.launch(bundle: bundle, now: during)
        #expect(first.appReport?.files.allSatisfy { $0.decidedBy == .interfaceStyle && $0.appearance == .dark } == true)
        let dark = SpringBoardModel.Variant(orientation: .portrait, appearance: .dark)
        #expect(try sim.launch(bundle: bundle, now: during).contentHash == (try object(in: bundle, dark, pixels: iPhone15)))
    }
}
