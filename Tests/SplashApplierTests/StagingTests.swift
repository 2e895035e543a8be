// Expectations: first principles of crash safety (docs/ios-launch-cache.md §4: write beside, then
// rename): the recorded order write, flush, rename; state before files; folder syncs. SampleTests
// compares the sample of three containers of the same blocks, and its corner with the simulated
// OS's own astcenc decode of those blocks (OSCodecs).
import Foundation
@_spi(Testing) @_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// A file system that records every operation in order (flushes run on the executor's background
/// queue, so the log is locked), and carries each out on the real disk.
final class RecordingFileSystem: ApplierFileSystem, @unchecked Sendable {
    enum Operation: Equatable {
        case write(String, flush: Flush), overwrite(String, flush: Flush), rename(String, String), syncFolder(String), remove(String)
        case makeFolder(String), flush(String, Flush)
    }
    private let lock = NSLock()
    private var log: [Operation] = []
    private let real: POSIXFileSystem

    init(container: URL) {
        real = POSIXFileSystem(root: container)
    }

    var operations: [Operation] { lock.withLock { log } }
    private func note(_ operation: Operation) { lock.withLock { log.append(operation) } }

    func write(_ data: Data, to url: URL, flush: Flush) throws(ApplierError) {
        try real.write(data, to: url, flush: flush); note(.write(url.path, flush: flush))
    }
    func overwrite(_ data: Data, at url: URL, flush: Flush) throws(ApplierError) -> Bool {
        defer { note(.overwrite(url.path, flush: flush)) }
        return try real.overwrite(data, at: url, flush: flush)
    }
    func rename(_ source: URL, to target: URL) throws(ApplierError) { try real.rename(source, to: target); note(.rename(source.path, target.path)) }
    func syncFolder(_ url: URL) throws(ApplierError) { try real.syncFolder(url); note(.syncFolder(url.path)) }
    func remove(_ url: URL) throws(ApplierError) { try real.remove(url); note(.remove(url.path)) }
    func makeFolder(_ url: URL) throws(ApplierError) { try real.makeFolder(url); note(.makeFolder(url.path)) }
    /// Slow on purpose, so a rename that did not wait for its flush would be logged before it.
    func flush(_ url: URL, _ flush: Flush) throws(ApplierError) { usleep(20_000); try real.flush(url, flush); note(.flush(url.path, flush)) }
}

/// Campaign objects are read once, verified and staged before anything else is written; a staged
/// object is renamed into place only once it is verified and flushed.
@Suite struct StagingTests {
    let before = date("2026-11-10T10:00:00+08:00")
    let during = date("2026-11-11T09:00:00+08:00")
    let after = date("2026-11-12T03:00:00+08:00")
    static let support = "Library/Application Support/splashgen"

    func applier(_ sim: SandboxSimulator, bundle: URL?, now: Date, fileSystem: (any ApplierFileSystem)? = nil) throws -> SnapshotApplier {
        let model = try sim.model()
        var applier = SnapshotApplier(
            container: sim.container, bundle: bundle, appVersion: model.version, appBuild: model.build,
            osVersion: OSVersion(model.ios) ?? OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { now })
        if let fileSystem { applier.fileSystem = fileSystem }
        return applier
    }

    func staging(_ sim: SandboxSimulator) -> URL { sim.container.appendingPathComponent(PlanExecutor.staging) }

    /// The cached file names in the order the executor stages them, with the object each gets.
    func objectsInStagingOrder(_ sim: SandboxSimulator, bundle: URL) throws -> [(name: String, object: String)] {
        let model = try sim.model()
        return try model.variants.keys.sorted().map { ($0, try object(in: bundle, model.variants[$0]!, pixels: iPhone15)) }
    }

    @Test(arguments: [false, true])
    func aBadObjectFoundWhileStagingChangesNothing(classifiedFirst: Bool) throws {
        let bundle = temporaryFolder("bad").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
        let sim = try sandbox(Installed.iPhone15)
        if classifiedFirst { _ = try applier(sim, bundle: bundle, now: before).apply() }
        // The last object staged is the bad one: three good ones are staged before it is read.
        let order = try objectsInStagingOrder(sim, bundle: bundle)
        #expect(Set(order.map(\.object)).count == 4)
        // The classification checked the four objects whole and recorded it, so staging them checks
        // their hashes only: the damaged one is still refused, by its hash.
        #expect(try verifiedObjects(sim) == (classifiedFirst ? Set(order.map(\.object)) : []))
        try flipLastByte(of: bundle.appendingPathComponent("objects/" + order[3].object))
        let tree = try sim.snapshotTree()
        let state = try? Data(contentsOf: sim.container.appendingPathComponent(Self.support + "/state.json"))
        let recorder = RecordingFileSystem(container: sim.container)
        #expect(
            throws: ApplierError.badBundle(
                .hashMismatch(object: order[3].object, actual: sha256Hex(try Data(contentsOf: bundle.appendingPathComponent("objects/" + order[3].object)))))
        ) {
            _ = try applier(sim, bundle: bundle, now: during, fileSystem: recorder).apply()
        }
        // The three good objects were written to the staging folder, each in its original's container
        // (the bad one's damaged END chunk does not parse, so nothing of it was framed or written),
        // none was renamed anywhere, and the staging folder is gone; nothing else was written.
        let stagingPath = staging(sim).path
        let writes = recorder.operations.compactMap { if case .write(let path, _) = $0 { path } else { nil } }
        #expect(writes.count == 3 && writes.allSatisfy { $0.hasPrefix(stagingPath + "/") }, "\(writes)")
        #expect(!recorder.operations.contains { if case .rename = $0 { true } else { false } })
        #expect(recorder.operations.last == .remove(stagingPath))
        #expect(try sim.snapshotTree() == tree)
        #expect(!FileManager.default.fileExists(atPath: staging(sim).path))
        #expect((try? Data(contentsOf: sim.container.appendingPathComponent(Self.support + "/state.json"))) == state)
        #expect(FileManager.default.fileExists(atPath: sim.container.appendingPathComponent(Self.support + "/backups").path) == classifiedFirst)
    }

    /// The objects state.json records as checked whole (``ApplierState/verified``).
    func verifiedObjects(_ sim: SandboxSimulator) throws -> Set<String> {
        guard let data = try? StateFile.json(in: sim.container) else { return [] }
        let state = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return Set(state?["verified"] as? [String] ?? [])
    }

    /// An object is decoded whole once per container: the record of it is by its hash, so another
    /// object (here an undecodable one with its right hash, in a new manifest) is still decoded
    /// when it is staged, and refused, though the container has objects checked already.
    @Test func anObjectIsTrustedAsCheckedOnlyUnderTheHashThatWasChecked() throws {
        let bundle = temporaryFolder("checked").appendingPathComponent("b")
        try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
        let sim = try sandbox(Installed.iPhone15)
        _ = try applier(sim, bundle: bundle, now: before).apply()
        let checked = try verifiedObjects(sim)
        #expect(checked.count == 4)
        _ = try applier(sim, bundle: bundle, now: during).apply()
        _ = try applier(sim, bundle: bundle, now: after).apply()
        #expect(try verifiedObjects(sim) == checked)
        var file = KTXFile(appleCompressedASTC4x4Width: 1179, height: 2556, blocks: Data(count: KTXFile.astc4x4ByteCount(width: 1179, height: 2556)))
        file.levelData = file.levelData.prefix(8) + Data(repeating: 0x41, count: 4096)
        try swapInObject(bundle, file.serialized())
        let tree = try sim.snapshotTree()
        #expect {
            _ = try applier(sim, bundle: bundle, now: during).apply()
        } throws: { error in
            if case .badBundle(.unreadableObject(let object, _)) = error as? ApplierError { object == sha256Hex(file.serialized()) } else { false }
        }
        #expect(try sim.snapshotTree() == tree)
    }

    @Test func aStagedObjectIsRenamedIntoPlaceOnlyAfterItIsFlushedAndThePendingMarkIsDurable() throws {
        // The order of docs/ios-launch-cache.md §4: each staged file handed to the drive, then the
        // pending mark written in place with a full flush (which covers them), then the renames,
        // then the launch folder's sync: two full flushes.
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        _ = try applier(sim, bundle: bundle, now: before).apply()
        let recorder = RecordingFileSystem(container: sim.container)
        let report = try applier(sim, bundle: bundle, now: during, fileSystem: recorder).apply()
        #expect(report.files.filter { $0.action == .replaced }.count == 4)
        let log = recorder.operations
        let stagingPath = staging(sim).path
        let state = sim.container.appendingPathComponent(Self.support + "/state.json").path
        let folder = try sim.snapshotFolder(sim.model()).path
        let renames = log.enumerated().filter { if case .rename(let source, _) = $0.element { source.hasPrefix(stagingPath + "/") } else { false } }
        #expect(renames.count == 4)
        for (_, operation) in renames {
            guard case .rename(let source, let target) = operation else { continue }
            #expect(target == folder + "/" + (source as NSString).lastPathComponent)
            // Written unflushed, then handed to the drive, both before the pending mark.
            let wrote = log.firstIndex(of: .write(source, flush: .none)), flushed = log.firstIndex(of: .flush(source, .toDrive))
            let mark = log.firstIndex(of: .overwrite(state, flush: .full))
            #expect(wrote != nil && flushed != nil && mark != nil && wrote! < flushed! && flushed! < mark!, "\(source)")
        }
        // The pending mark (the state written in place, fully flushed) comes before the first rename.
        let firstRename = renames.map(\.offset).min()!
        let marks = log.indices.filter { log[$0] == .overwrite(state, flush: .full) }
        #expect(marks.count == 1 && marks[0] < firstRename)
        // Nothing else is fully flushed but the launch folder, once, after the renames; the state
        // settles in place, unflushed.
        let full = log.filter {
            switch $0 {
            case .write(_, .full), .overwrite(_, .full), .flush(_, .full), .syncFolder: true
            default: false
            }
        }
        #expect(full == [.overwrite(state, flush: .full), .syncFolder(folder)])
        #expect(log.last == .overwrite(state, flush: .none))
        // One sync of the launch folder after the renames makes them durable; nothing is left staged.
        let lastRename = renames.map(\.offset).max()!
        #expect(log[(lastRename + 1)...].contains(.syncFolder(folder)))
        #expect(!FileManager.default.fileExists(atPath: stagingPath))
        let model = try sim.model()
        for (name, data) in try sim.cachedFiles() {
            #expect(sha256Hex(data) == (try object(in: bundle, model.variants[name]!, pixels: iPhone15)), "\(name)")
        }
    }

    @Test func objectsStagedByAKilledRunAreClearedByTheNextRunWhateverItDoes() throws {
        let bundle = try Bundles.double11.get()
        let installed = try sandbox(Installed.iPhone15)
        _ = try applier(installed, bundle: bundle, now: before).apply()
        let originals = try installed.cachedFiles()
        // Kill the campaign start at each operation while objects are staged (up to its renames).
        var killedWithStaged = 0
        for n in 1..<12 {
            let sim = try CrashMatrixTests.copy(installed)
            #expect(throws: FaultInjectingFileSystem.kill) {
                _ = try applier(sim, bundle: bundle, now: during, fileSystem: FaultInjectingFileSystem(failAfter: n, container: sim.container)).apply()
            }
            let staged = (try? FileManager.default.contentsOfDirectory(atPath: staging(sim).path)) ?? []
            guard !staged.isEmpty else { continue }
            killedWithStaged += 1
            // The next run comes after the campaign's end: it stages nothing, and still clears the leftovers.
            let report = try applier(sim, bundle: bundle, now: after).apply()
            #expect(report.complete)
            #expect(!FileManager.default.fileExists(atPath: staging(sim).path), "killed after \(n) operations")
            #expect(try sim.cachedFiles() == originals)
        }
        #expect(killedWithStaged >= 3)
    }

    @Test func aMissingOrMissizedObjectIsRefusedByThePlanSoStatusNamesIt() throws {
        let sim = try sandbox(Installed.iPhone15)
        for (damage, expected) in [("missing", "missing"), ("truncated", "size")] {
            let bundle = temporaryFolder("bad").appendingPathComponent("b")
            try FileManager.default.copyItem(at: try Bundles.double11.get(), to: bundle)
            let url = try firstObject(bundle)
            if damage == "missing" { try FileManager.default.removeItem(at: url) } else { try Data(contentsOf: url).prefix(1000).write(to: url) }
            do {
                _ = try applier(sim, bundle: bundle, now: during).status()
                Issue.record("\(damage): status went ahead")
            } catch let ApplierError.badBundle(problem) {
                switch problem {
                case .missingObject(let name): #expect(expected == "missing" && name == url.lastPathComponent)
                case .sizeMismatch(let name, let size, 1000): #expect(expected == "size" && name == url.lastPathComponent && size > 1000)
                default: Issue.record("\(damage): \(problem)")
                }
            }
        }
    }
}

/// The classifier's sample of a plain KTX file is read from the blocks where they lie in the file;
/// it must be exactly the sample the same blocks give when they have to be inflated first, and its
/// corner the pixels the simulated OS's own astcenc call decodes from those blocks.
@Suite struct SampleTests {
    @Test func aPlainKTXSampleEqualsTheSampleOfTheSameBlocksInflatedAndTheWholeImage() throws {
        let bundle = try Bundles.double11.get()
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        for snapshot in manifest.campaigns[0].snapshots {
            let atx = try Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object))
            #expect(SnapshotContent(sniffing: atx) == .atx)
            let (width, height, blocks) = try SnapshotHeader.astcBlocks(of: atx)
            let plain = KTXFile(astc4x4Width: width, height: height, blocks: blocks).serialized()
            let compressedKTX = KTXFile(appleCompressedASTC4x4Width: width, height: height, blocks: blocks).serialized()
            let decoder = SnapshotDecoder()
            let sample = try decoder.sample(plain)
            for other in [try decoder.sample(atx), try decoder.sample(compressedKTX)] {
                #expect(other.width == sample.width && other.height == sample.height && other.luma == sample.luma)
                #expect(other.corner == sample.corner)
            }
            // The corner's pixels are the whole image's, decoded apart from splashgen's decoder: by the
            // simulated OS's own call into astcenc (OSCodecs).
            let whole = SnapshotSample(image: try OSCodecs.pixels(astc: blocks, width: width, height: height))
            #expect(sample.width == width && sample.height == height && sample.corner.width >= 5 && sample.corner.height >= 5)
            for dy in 1...5 {
                for dx in 1...5 {
                    #expect(
                        sample.corner[sample.corner.width - dx, sample.corner.height - dy] == whole.corner[whole.corner.width - dx, whole.corner.height - dy])
                }
            }
        }
    }

    @Test func aPlainKTXWhoseLevelIsCutShortIsRefusedNotRead() throws {
        let bundle = try Bundles.double11.get()
        let plain = try Data(contentsOf: firstObject(bundle))
        #expect(throws: (any Error).self) { _ = try SnapshotDecoder().sample(plain.prefix(plain.count - 16)) }
    }
}
