import Foundation
@_spi(Testing) @_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
// Expectations: what Publisher wrote to the tree, read back as plain JSON (not through Manifest);
// nginx's access log (304s, only .deflate objects); schedules and priorities in campaigns/*.yaml
// for which campaign shows when; the simulator's originals byte for byte; RFC 1951 §3.2.4 for
// stored blocks. The serial rules and FetchError cases are the fetcher's own spec.
import SplashFormatWriting
import SplashScenarios
import SplashSimulator
import SplashTestSupport
@_spi(Testing) import SplashUpdater
import Testing

/// The published season on a real server (Debian's nginx on 127.0.0.1), fetched as the app does,
/// and every fault of the issue: nothing half-installed, the installed bundle kept.
@Suite(.serialized) struct FetcherTests {
    /// What a published slice names for this screen, read as plain JSON (not through Manifest).
    func sliceObjects(_ tree: URL) throws -> Set<String> {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json"))) as! [String: Any]
        let campaigns = json["campaigns"] as! [[String: Any]]
        return Set(campaigns.flatMap { ($0["snapshots"] as! [[String: Any]]).map { $0["object"] as! String } })
    }

    @Test func firstFetchInstallsTheScreensObjectsAndARevalidationIsOne304() async throws {
        let server = try Season15.served()
        let tree = server.root.appendingPathComponent("season")
        let fetcher = Season15.fetcher(server, "season")
        #expect(fetcher.current == nil, "nothing to apply before a fetch has completed")

        let first = try await fetcher.fetch()
        #expect(fetcher.current == fetcher.installed)
        let expected = try sliceObjects(tree)
        #expect(first.installedNew && first.signatureChecked && first.serial == 1)
        #expect(first.campaigns == ["default", "double11", "mourning"])
        #expect(first.objectsDownloaded == expected.count)
        let installed = Set(try FileManager.default.contentsOfDirectory(atPath: fetcher.installed.appendingPathComponent("objects").path))
        #expect(installed == expected)
        for name in installed {
            #expect(sha256Hex(try Data(contentsOf: fetcher.installed.appendingPathComponent("objects/" + name))) == name)
        }
        #expect(
            try Data(contentsOf: fetcher.installed.appendingPathComponent("manifest.json"))
                == Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json")))
        // The applier trusts it with the pinned key.
        _ = try SnapshotBundle(root: fetcher.installed, trustedKey: Season15.publicKey)
        // Only .deflate objects went over the wire, never the raw ones.
        #expect(!server.accessLog.split(separator: "\n").contains { $0.contains("/objects/") && !$0.contains(".deflate") })

        let again = try await fetcher.fetch()
        #expect(again.notModified && again.requests == 1 && again.bytesReceived == 0)
        // nginx logs a request after answering it: wait for the line rather than race it.
        #expect(await server.waitForLog("/season/screens/1179x2556.json 304 "), "\(server.accessLog)")
    }

    @Test func aNewSerialFetchesOnlyNewObjectsAndAnOldOneReplayedIsRefused() async throws {
        let server = try Season15.served()
        let tree = server.root.appendingPathComponent("season")
        let old = try Season15.slice(in: tree)
        let fetcher = Season15.fetcher(server, "season")
        _ = try await fetcher.fetch()

        #expect(throws: PublishError.serialNotGreater(requested: 1, held: 1)) { try Season15.publish(Season15.withoutMourning, to: tree, serial: 1) }
        try Season15.publish(Season15.withoutMourning, to: tree)
        let second = try await fetcher.fetch()
        #expect(second.installedNew && second.serial == 2 && second.campaigns == ["default", "double11"])
        #expect(second.objectsDownloaded == 0, "every object of serial 2 was already installed")

        // An attacker (or a stale cache) serves serial 1 again: refused, serial 2 stays.
        let installed = Season15.files(fetcher.installed)
        try Season15.serve(old, in: tree)
        await #expect(throws: FetchError.replayed(serial: 1, held: 2)) { try await fetcher.fetch() }
        #expect(Season15.files(fetcher.installed) == installed)
    }

    @Test func aSeasonShowsTheRightCampaignAtEachInstantAndAPulledCampaignRestoresTheOriginals() async throws {
        let server = try Season15.served()
        let tree = server.root.appendingPathComponent("season")
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        let fetcher = try sim.fetcher(from: server.base.appendingPathComponent("season"), trust: Season15.trust)
        _ = try await fetcher.fetch()
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: fetcher.installed.appendingPathComponent("manifest.json"))) as! [String: Any]
        func shown(by campaign: String) -> Set<String> {
            let entry = (manifest["campaigns"] as! [[String: Any]]).first { $0["id"] as? String == campaign }!
            return Set((entry["snapshots"] as! [[String: Any]]).map { $0["object"] as! String })
        }
        // Each instant twice: the first launch applies, the second shows it.
        let instants: [(String, String?)] = [
            ("2025-12-31T12:00:00+08:00", nil), ("2026-06-01T12:00:00+08:00", "default"),
            ("2026-11-11T12:00:00+08:00", "double11"), ("2026-12-04T12:00:00+08:00", "mourning"),
            ("2026-12-10T12:00:00+08:00", "default"),
        ]
        for (instant, campaign) in instants {
            let applied = try sim.launch(bundle: fetcher.installed, now: date(instant))
            #expect(applied.appReport?.campaign == campaign, "\(instant)")
            let cached = Set(try sim.cachedFiles().values.map { sha256Hex($0) })
            if let campaign {
                #expect(cached.isSubset(of: shown(by: campaign)), "\(instant): every cached file is one of \(campaign)'s objects")
            } else {
                #expect(try sim.cachedFiles() == originals, "\(instant): before the season, the originals")
            }
        }

        // The mourning day is pulled (kill switch) while it is in force: the next apply restores
        // what is then in force (the app's own screen), and after the season's last end, the same.
        try Season15.publish(Season15.withoutMourning, to: tree)
        _ = try await fetcher.fetch()
        let pulled = try sim.launch(bundle: fetcher.installed, now: date("2026-12-04T12:00:00+08:00"))
        #expect(pulled.appReport?.campaign == "default")
        #expect(Set(try sim.cachedFiles().values.map { sha256Hex($0) }).isSubset(of: shown(by: "default")))
        let model = try sim.model()
        _ = try await SnapshotApplier(
            container: sim.container, bundle: fetcher.installed, appVersion: model.version, appBuild: model.build,
            osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles
        ).restore()
        #expect(try sim.cachedFiles() == originals, "restore gives the originals back byte for byte")
    }

    @Test func aCampaignPulledWhileInForceBringsTheOriginalsBackAtTheNextLaunch() async throws {
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("sale")
        try Season15.publish(Season15.saleAndMourning, to: tree)
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        let fetcher = try sim.fetcher(from: server.base.appendingPathComponent("sale"), trust: Season15.trust)
        let during = date("2026-11-11T12:00:00+08:00")
        _ = try await fetcher.fetch()
        #expect(try sim.launch(bundle: fetcher.installed, now: during).appReport?.campaign == "double11")
        #expect(try sim.cachedFiles() != originals)

        try Season15.publish(Season15.mourningOnly, to: tree)
        let pulled = try await fetcher.fetch()
        #expect(pulled.serial == 2 && pulled.campaigns == ["mourning"])
        let report = try #require(try sim.launch(bundle: fetcher.installed, now: during.addingTimeInterval(60)).appReport)
        #expect(report.campaign == nil && report.files.allSatisfy { $0.action == .restored })
        #expect(try sim.cachedFiles() == originals, "the originals, byte for byte")
    }

    /// An iPad Pro 13-inch (M5) caches side-layout windows beside its full screen
    /// (docs/ios-launch-cache.md §1): its slice carries them, its fetcher downloads them, its applier
    /// puts the campaign in all eight files; the slice needs the newer reader (schema 5), which an
    /// earlier applier refuses rather than stop at objects its fetcher never downloaded.
    @Test func anIPadFetchesItsSideLayoutWindowsAndShowsTheCampaignInThem() async throws {
        let server = try NginxServer()
        let bundle = Result { try buildBundle("double11.yaml", device: "iPad Pro 13-inch (M5)") }
        try Season15.publish(bundle, to: server.root.appendingPathComponent("ipad"))
        let slice = try Manifest.decode(from: Data(contentsOf: server.root.appendingPathComponent("ipad/screens/2064x2752.json")))
        #expect(slice.schema == 5 && slice.campaigns[0].snapshots.filter { $0.screen != nil }.count == 4)
        let sim = SandboxSimulator(root: temporaryFolder("ipad"))
        _ = try sim.install(launchScreen: try Repo.ownStoryboard, version: "5.2", build: "100", device: "iPad Pro 13-inch (M5)", ios: "26.1")
        let fetcher = try sim.fetcher(from: server.base.appendingPathComponent("ipad"), trust: Season15.trust)
        #expect(fetcher.screen == ScreenSize(width: 2064, height: 2752))
        _ = try await fetcher.fetch()
        let objects = try FileManager.default.contentsOfDirectory(atPath: fetcher.installed.appendingPathComponent("objects").path)
        #expect(objects.count == 8, "four full-screen objects and four of the side-layout window")
        let report = try #require(try sim.launch(bundle: fetcher.installed, now: date("2026-11-11T12:00:00+08:00")).appReport)
        #expect(report.files.count == 8 && report.files.allSatisfy { $0.action == .replaced }, "\(report.problems)")
    }

    @Test func anObjectCutOffMidBodyInstallsNothingAndTheNextFetchGoesOnFromWhatWasVerified() async throws {
        let server = try Season15.served()
        let folder = temporaryFolder("downloads")
        var slow = Season15.fetcher(server, "slow/season", into: folder)
        slow.attempts = 1
        slow.timeout = 60
        // The slice and the small objects come at full speed; past 24 KB a body trickles at 4 KB/s.
        // The moment an object's body has passed 24 KB, its transfer is under way and far from done:
        // the server's workers are killed then, and the connection drops mid-body (one attempt).
        let cut = Flag()
        slow.progress = { url, received in
            guard url.path.contains("/objects/"), received > 24 * 1024, !cut.isRaised else { return }
            cut.raise()
            server.killWorkers()
        }
        await #expect(throws: FetchError.self) { try await slow.fetch() }
        #expect(cut.isRaised, "an object's body was cut off under way")
        #expect(!FileManager.default.fileExists(atPath: slow.installed.path), "nothing installed")
        let staged = folder.appendingPathComponent("staging/objects")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: staged.path)) ?? []
        // The objects before the cut one came whole: the next fetch must go on from them.
        #expect(!kept.isEmpty, "objects verified before the cut are kept")
        for name in kept { #expect(sha256Hex(try Data(contentsOf: staged.appendingPathComponent(name))) == name, "only whole, verified objects stay") }

        let resumed = try await Season15.fetcher(server, "season", into: folder).fetch()
        #expect(resumed.installedNew)
        let all = try sliceObjects(server.root.appendingPathComponent("season"))
        #expect(resumed.objectsKept == kept.count && resumed.objectsDownloaded == all.count - kept.count)
    }

    @Test func a503IsRetriedWithBackOffThenSucceeds() async throws {
        let server = try Season15.served()
        let flag = server.root.appendingPathComponent("fail-next")
        try Data().write(to: flag)
        var fetcher = Season15.fetcher(server, "season")
        fetcher.backoff = 0.5
        fetcher.attempts = 5
        let task = Task { try await fetcher.fetch() }
        #expect(await server.waitForRequests { $0.contains { $0.status == 503 } })
        try FileManager.default.removeItem(at: flag)
        let report = try await task.value
        #expect(report.installedNew && report.retries >= 1)
    }

    @Test func aServerTooSlowTimesOutAndInstallsNothing() async throws {
        let server = try Season15.served()
        var fetcher = Season15.fetcher(server, "slow/season")
        fetcher.timeout = 1
        fetcher.attempts = 2
        fetcher.backoff = 0.05
        await #expect(throws: FetchError.self) { try await fetcher.fetch() }
        do { _ = try await fetcher.fetch() } catch { #expect(error.description.contains("no complete answer within 1.0 s")) }
        #expect(!FileManager.default.fileExists(atPath: fetcher.installed.path))
    }

    /// The deadline, not a try's share of it, is what a fetch cut by its deadline names: a body
    /// trickling in at 4 KB/s is under way when 1.5 s have passed.
    @Test func aRequestCutByTheDeadlineNamesTheDeadline() async throws {
        let server = try Season15.served()
        var fetcher = Season15.fetcher(server, "slow/season")
        fetcher.deadline = 1.5
        do {
            _ = try await fetcher.fetch()
            Issue.record("a trickling season was fetched within 1.5 s")
        } catch {
            guard case .timedOut(_, let seconds) = error else { Issue.record("\(error)"); return }
            #expect(seconds == 1.5, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: fetcher.installed.path))
    }

    /// A try may be given less than a second (the deadline's remainder, or a short timeout): it has
    /// all of it, here to wait for answers nginx holds back (Foundation on Linux counts URLSession's
    /// timeouts in whole seconds, rounded down: handed 0.9 s, it timed out after 1 ms without an
    /// answer). One try each: a machine too busy to answer within 0.9 s may time out, but not sooner.
    @Test func aTryGivenLessThanASecondHasAllOfIt() async throws {
        let server = try Season15.served()
        var fetcher = Season15.fetcher(server, "late/season")
        fetcher.timeout = 0.9
        fetcher.attempts = 1
        let start = ContinuousClock.now
        do {
            #expect(try await fetcher.fetch().installedNew)
        } catch {
            guard case .timedOut = error else { throw error }
            #expect(ContinuousClock.now - start > .milliseconds(850), "timed out \(ContinuousClock.now - start) in: \(error)")
        }
        #expect(await server.waitForLog("DELAYED", seconds: 10), "nginx held an answer back")
    }

    @Test func aManifestForAnotherAppOrWithABadSignatureIsRefused() async throws {
        let server = try NginxServer()
        try Season15.publish(Season15.otherApp, to: server.root.appendingPathComponent("other"))
        let fetcher = Season15.fetcher(server, "other")
        await #expect(throws: FetchError.badBundle(.otherApp(expected: "com.example.shop", found: "com.example.other"))) { try await fetcher.fetch() }
        #expect(!FileManager.default.fileExists(atPath: fetcher.installed.path))

        var stranger = Season15.fetcher(server, "other")
        stranger.trust = .pinned(try PinnedKey(BundleSignature.makeKeyPair().publicKey))
        await #expect(throws: FetchError.badBundle(.badSignature)) { try await stranger.fetch() }
    }

    /// A slice is signed for its screen: another screen's slice, validly signed with a higher
    /// serial, or the whole manifest, served at this screen's path is refused, on a first fetch and
    /// over an installed bundle, which stays.
    @Test func aSliceSignedForAnotherScreenIsRefusedAndTheInstalledBundleStays() async throws {
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("season")
        let elsewhere = temporaryFolder("se-tree")
        try Season15.publish(Season15.otherScreen, to: elsewhere, serial: 5)
        let seSlice = (
            try Data(contentsOf: elsewhere.appendingPathComponent("screens/750x1334.json")),
            try Data(contentsOf: elsewhere.appendingPathComponent("screens/750x1334.json.sig"))
        )
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try Season15.serve(seSlice, in: tree)
        let fetcher = Season15.fetcher(server, "season")
        await #expect(throws: FetchError.badBundle(.otherScreen(expected: "1179x2556", found: "750x1334"))) { try await fetcher.fetch() }
        #expect(!FileManager.default.fileExists(atPath: fetcher.installed.path))

        try Season15.publish(Season15.full, to: tree, serial: 1)
        #expect(try await fetcher.fetch().installedNew)
        let installed = try Data(contentsOf: fetcher.installed.appendingPathComponent("manifest.json"))
        try Season15.serve(seSlice, in: tree)
        await #expect(throws: FetchError.badBundle(.otherScreen(expected: "1179x2556", found: "750x1334"))) { try await fetcher.fetch() }
        let whole = (
            try Data(contentsOf: tree.appendingPathComponent("manifest.json")), try Data(contentsOf: tree.appendingPathComponent("manifest.sig"))
        )
        try Season15.serve(whole, in: tree)
        await #expect(throws: FetchError.badBundle(.otherScreen(expected: "1179x2556", found: "no one screen (a whole manifest)"))) {
            try await fetcher.fetch()
        }
        #expect(try Data(contentsOf: fetcher.installed.appendingPathComponent("manifest.json")) == installed)
    }

    /// CI publishes each commit into a fresh folder, keeping nothing between runs, and uploads it
    /// over the live tree: the serial comes from the commit's time (`SOURCE_DATE_EPOCH`, which
    /// `make bundles` sets), so a phone takes each publication in turn, and refuses the older one
    /// served again.
    @Test func publicationsIntoFreshFoldersTheWayCIMakesThemAreTakenInOrder() async throws {
        let server = try NginxServer()
        let live = server.root.appendingPathComponent("season")
        func upload(_ bundle: Result<URL, any Error>, commitTime: Int) throws -> Int {
            let fresh = temporaryFolder("ci-run").appendingPathComponent("cdn")
            let environment = ["SOURCE_DATE_EPOCH": String(commitTime)]
            let report = try Publisher.publish(
                bundle: try bundle.get(), to: fresh, privateKey: Season15.key.privateKey, clock: try Publisher.clockSerial(environment: environment))
            try? FileManager.default.removeItem(at: live)
            try FileManager.default.copyItem(at: fresh, to: live)
            return report.serial
        }
        let fetcher = Season15.fetcher(server, "season")
        #expect(try upload(Season15.withoutMourning, commitTime: 1_800_000_000) == 1_800_000_000)
        let first = try await fetcher.fetch()
        #expect(first.installedNew && first.serial == 1_800_000_000 && first.campaigns == ["default", "double11"])
        let older = try Season15.slice(in: live)
        #expect(try upload(Season15.full, commitTime: 1_800_000_600) == 1_800_000_600)
        let second = try await fetcher.fetch()
        #expect(second.installedNew && second.serial == 1_800_000_600 && second.campaigns == ["default", "double11", "mourning"])
        try Season15.serve(older, in: live)
        await #expect(throws: FetchError.replayed(serial: 1_800_000_000, held: 1_800_000_600)) { try await fetcher.fetch() }
    }

    @Test func aTamperedObjectIsRefusedAndTheInstalledBundleStays() async throws {
        let server = try Season15.served()
        let tree = server.root.appendingPathComponent("season")
        let fetcher = Season15.fetcher(server, "season")
        _ = try await fetcher.fetch()
        let installed = Season15.files(fetcher.installed)

        // Serial 2 turns the sale grey; one of its new objects is damaged on the server.
        try Season15.publish(Season15.greySale, to: tree)
        let fresh = try sliceObjects(tree).subtracting(
            try FileManager.default.contentsOfDirectory(atPath: fetcher.installed.appendingPathComponent("objects").path))
        let victim = tree.appendingPathComponent("objects/\(try #require(fresh.sorted().first)).deflate")
        var bytes = try Data(contentsOf: victim)
        bytes[bytes.count / 2] ^= 0x55
        try bytes.write(to: victim)
        await #expect(throws: FetchError.self) { try await fetcher.fetch() }
        #expect(Season15.files(fetcher.installed) == installed, "the installed bundle is untouched")
    }

    @Test func aLinkInTheDownloadFolderIsRefusedAndWhatItPointsAtIsUntouched() async throws {
        let server = try Season15.served()
        let folder = temporaryFolder("downloads")
        let elsewhere = temporaryFolder("elsewhere")
        try Data("keep me".utf8).write(to: elsewhere.appendingPathComponent("precious.txt"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("staging"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("staging/objects"), withDestinationURL: elsewhere)
        await #expect(throws: FetchError.symbolicLink(folder.appendingPathComponent("staging/objects").path)) {
            try await Season15.fetcher(server, "season", into: folder).fetch()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["precious.txt"])
    }

    /// A link planted where the fetcher opens a file (its lock, the serial it keeps, the temporary
    /// sibling of that serial) is refused, and the file it points at keeps its bytes: nothing is
    /// opened through a link (`O_NOFOLLOW`). First principles, like the applier's twin test.
    @Test(arguments: ["lock", "serial", "serial.splashgen-partial"])
    func aLinkPlantedWhereTheFetcherOpensAFileIsRefusedAndItsTargetIsUntouched(_ name: String) async throws {
        let server = try Season15.served()
        let folder = temporaryFolder("downloads")
        let target = temporaryFolder("elsewhere").appendingPathComponent("precious")
        let precious = Data("the user's own file".utf8)
        try precious.write(to: target)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: target)
        await #expect(throws: FetchError.self) { try await Season15.fetcher(server, "season", into: folder).fetch() }
        #expect(try Data(contentsOf: target) == precious, "\(name): the link's target keeps its bytes")
    }

    /// The fetcher's lock is "busy" only while another fetch holds it: a link planted there is named
    /// as a link, and a lock file that cannot be made (a folder in its place: `EISDIR`, POSIX's
    /// `open` on a directory for writing) is that failure with its error number, at once.
    @Test func aLockThatCannotBeTakenSaysWhyAndIsNotBusy() async throws {
        let server = try Season15.served()
        let linked = temporaryFolder("downloads")
        try FileManager.default.createSymbolicLink(at: linked.appendingPathComponent("lock"), withDestinationURL: temporaryFolder("elsewhere"))
        await #expect(throws: FetchError.symbolicLink(linked.appendingPathComponent("lock").path)) {
            try await Season15.fetcher(server, "season", into: linked).fetch()
        }
        let blocked = temporaryFolder("downloads")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("lock"), withIntermediateDirectories: true)
        await #expect(
            throws: FetchError.fileSystem(FileSystemError(.create, path: blocked.appendingPathComponent("lock").path, systemCall: "openat", errno: EISDIR))
        ) {
            try await Season15.fetcher(server, "season", into: blocked).fetch()
        }
    }

    /// A fetch waits for another fetch's lock no longer than its deadline allows: busy when the
    /// deadline comes, not after the 60 s a request may take.
    @Test func aLockHeldByAnotherFetchIsWaitedForWithinTheDeadline() async throws {
        let folder = temporaryFolder("downloads")
        let held = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        #expect(flock(held, LOCK_EX) == 0)
        defer { close(held) }
        var fetcher = BundleFetcher(
            base: URL(string: "http://127.0.0.1:9/")!, folder: folder, screen: iPhone15, trust: .acceptingUnsignedBundles, bundleID: nil)
        fetcher.timeout = 60
        fetcher.deadline = 1
        let start = ContinuousClock.now
        await #expect(throws: FetchError.busy(folder.path)) { try await fetcher.fetch() }
        // Waited (not refused at once), and far less than 60 s; the bound leaves room for a loaded machine.
        let waited = ContinuousClock.now - start
        #expect(waited > .milliseconds(900) && waited < .seconds(10), "waited \(waited)")
    }

    @Test func theHighestSerialIsRememberedOutsideTheBundleAndOtherAppearancesAreFetchedAnew() async throws {
        let server = try Season15.served()
        let tree = server.root.appendingPathComponent("season")
        let old = try Season15.slice(in: tree)
        var lightOnly = Season15.fetcher(server, "season")
        lightOnly.appearances = [.light]
        let first = try await lightOnly.fetch()
        // The app now follows the system's style: the same serial, fetched anew for dark too.
        var both = Season15.fetcher(server, "season", into: lightOnly.folder)
        both.appearances = [.light, .dark]
        let second = try await both.fetch()
        #expect(second.installedNew && !second.notModified && second.serial == 1)
        #expect(second.objectsKept == first.objectsDownloaded && second.objectsDownloaded > 0)

        try Season15.publish(Season15.withoutMourning, to: tree)
        #expect(try await both.fetch().serial == 2)
        // The bundle is lost, and serial 1 is served again: still refused.
        try FileManager.default.removeItem(at: both.installed)
        try Season15.serve(old, in: tree)
        await #expect(throws: FetchError.replayed(serial: 1, held: 2)) { try await both.fetch() }
    }

    @Test func aScreenNoLongerServedGetsASliceWithNoCampaign() throws {
        let tree = temporaryFolder("tree")
        try Season15.publish(Season15.full, to: tree)
        try Season15.publish(Season15.otherScreen, to: tree)
        let slice = try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json")))
        #expect(slice.serial == 2 && slice.campaigns.isEmpty)
        #expect(throws: Never.self) {
            try BundleSignature.check(
                try Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json")),
                signature: try String(contentsOf: tree.appendingPathComponent("screens/1179x2556.json.sig"), encoding: .utf8),
                root: Season15.publicKey, at: nil)
        }
        #expect(try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("screens/750x1334.json"))).campaigns.map(\.id) == ["default"])
    }

    /// Raw DEFLATE in stored blocks (RFC 1951 §3.2.4): another valid stream of the same bytes.
    func storedDeflate(_ data: Data) -> Data {
        var out = Data()
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            out.append(offset + length == data.count ? 1 : 0)
            out.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
            out.append(data[data.startIndex + offset..<data.startIndex + offset + length])
            offset += length
        } while offset < data.count
        return out
    }

    @Test func aDeflatedObjectAnEarlierPublicationWroteIsKeptSoACachedURLNeverChanges() throws {
        let tree = temporaryFolder("tree")
        try Season15.publish(Season15.withoutMourning, to: tree)
        let object = try #require(
            try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json"))).campaigns.first?.snapshots.first?.object)
        let earlier = storedDeflate(try Data(contentsOf: tree.appendingPathComponent("objects/" + object)))
        try earlier.write(to: tree.appendingPathComponent("objects/\(object).deflate"))

        try Season15.publish(Season15.full, to: tree)
        #expect(try Data(contentsOf: tree.appendingPathComponent("objects/\(object).deflate")) == earlier)
        let slice = try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json")))
        #expect(slice.campaigns.flatMap(\.snapshots).filter { $0.object == object }.allSatisfy { $0.deflated == earlier.count })
    }

    @Test func theCommandLineFetchesAndTheSimulatedAppFetchesThenApplies() throws {
        let server = try Season15.served()
        let keyFile = temporaryFolder("key").appendingPathComponent("key.pub")
        try Season15.key.publicKey.write(to: keyFile, atomically: true, encoding: .utf8)
        let url = server.base.appendingPathComponent("season").absoluteString
        let into = temporaryFolder("cli-fetch")

        let fetch = try splashgen("fetch", url, "--into", into.path, "--device", "iPhone 15", "--public-key", keyFile.path, "--bundle-id", "com.example.shop")
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(fetch.stdout.hasPrefix("\(into.path)/bundle: installed serial 1: default, double11, mourning\n"))
        let wrongApp = try splashgen("fetch", url, "--into", into.path, "--screen", "1179x2556", "--bundle-id", "com.example.other")
        #expect(wrongApp.status == 1 && wrongApp.stderr.contains("the bundle is for com.example.shop, not com.example.other"))

        let sim = try sandbox(Installed.iPhone15)
        let first = try splashgen(
            "sim", "launch", "--sandbox", sim.root.path, "--from", url, "--public-key", keyFile.path, "--now", "2026-11-11T12:00:00+08:00")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("installed serial 1: default, double11, mourning") && first.stdout.contains("campaign   double11"))
        let second = try splashgen(
            "sim", "launch", "--sandbox", sim.root.path, "--from", url, "--public-key", keyFile.path, "--now", "2026-11-11T12:05:00+08:00")
        #expect(second.stdout.contains("nothing new (serial 1)"))
        let double11 = try sliceObjectsOf(campaign: "double11", tree: server.root.appendingPathComponent("season"))
        #expect(Set(try sim.cachedFiles().values.map { sha256Hex($0) }).isSubset(of: double11))

        // B5: a tree replaying serial 1 with other bytes is refused, and the installed bundle is applied
        // all the same: done as far as it could go, with a problem named (exit 3, not 1).
        try Season15.publish(Season15.withoutMourning, to: server.root.appendingPathComponent("replay"), serial: 1)
        let replay = try splashgen(
            "sim", "launch", "--sandbox", sim.root.path, "--from", server.base.appendingPathComponent("replay").absoluteString, "--public-key", keyFile.path,
            "--now", "2026-11-11T12:10:00+08:00")
        #expect(replay.status == 3, "\(replay.stderr)")
        #expect(
            replay.stderr.contains("an older manifest replayed, refused") && replay.stdout.contains("campaign   double11"), "\(replay.stdout)\(replay.stderr)")
    }

    /// The simulated app pins its key as an app does (issue 38): `sim install --public-key` gives it the key,
    /// and every launch checks the bundle it applies against it, also when the fetch found nothing new
    /// (a `304`). A bundle in its container signed by another key is refused by the apply (exit 1,
    /// the signature named) and the cache keeps what it showed; before, the simulated app applied
    /// whatever was installed.
    @Test func theSimulatedAppChecksItsPinnedKeyAtEveryLaunchA304Included() throws {
        let server = try Season15.served()
        let keyFile = temporaryFolder("key").appendingPathComponent("key.pub")
        try Season15.key.publicKey.write(to: keyFile, atomically: true, encoding: .utf8)
        let url = server.base.appendingPathComponent("season").absoluteString
        let root = temporaryFolder("pinned-sim").appendingPathComponent("s")
        let install = try splashgen("sim", "install", "--sandbox", root.path, "--app-version", "5.2", "--app-build", "100", "--public-key", keyFile.path)
        #expect(install.status == 0, "\(install.stderr)")
        let first = try splashgen("sim", "launch", "--sandbox", root.path, "--from", url, "--now", "2026-11-11T12:00:00+08:00")
        #expect(first.status == 0 && first.stdout.contains("campaign   double11"), "\(first.stdout)\(first.stderr)")
        let sim = SandboxSimulator(root: root)
        let shown = try sim.cachedFiles()

        // The installed bundle, signed again by another key: the server's tree is unchanged, so the
        // next fetch is a 304.
        let installed = sim.container.appendingPathComponent("Library/Application Support/splashgen/downloads/bundle")
        try BundleTools.sign(bundle: installed, privateKey: BundleSignature.makeKeyPair().privateKey)
        let second = try splashgen("sim", "launch", "--sandbox", root.path, "--from", url, "--now", "2026-11-12T12:00:00+08:00")
        #expect(second.stdout.contains("nothing new (serial 1)"), "\(second.stdout)")
        #expect(second.status == 1 && second.stderr.contains("signature"), "\(second.stdout)\(second.stderr)")
        #expect(try sim.cachedFiles() == shown, "nothing changed")
    }

    func sliceObjectsOf(campaign: String, tree: URL) throws -> Set<String> {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json"))) as! [String: Any]
        let entry = (json["campaigns"] as! [[String: Any]]).first { $0["id"] as? String == campaign }!
        return Set((entry["snapshots"] as! [[String: Any]]).map { $0["object"] as! String })
    }

}
