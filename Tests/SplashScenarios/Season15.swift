// The fetcher's season: built by splashgen from campaigns/*.yaml, signed with a key of the test
// run's own, published into trees an nginx serves.
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashFormatWriting
import SplashSimulator
import SplashTestSupport
@_spi(Testing) import SplashUpdater

/// A season for the iPhone 15: the app's own screen all year
/// (no end, priority 0), Double 11 (priority 10), a day of mourning (priority 100).
package enum Season15 {
    package static let key = BundleSignature.makeKeyPair()
    package static var publicKey: Data { try! BundleSignature.publicKey(key.publicKey) }
    package static var trust: BundleTrust { .pinned(try! PinnedKey(key.publicKey)) }
    package static let output = temporaryFolder("season-build")

    package static func campaigns(
        _ files: [String] = ["default.yaml", "double11.yaml", "mourning.yaml"],
        edit: (inout Campaign) -> Void = { _ in }
    ) throws -> [Campaign] {
        let catalogue = try DeviceCatalogue.bundled()
        return try files.map { file in
            var campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: Repo.campaign(file))
            campaign.screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named("iPhone 15")])))
            edit(&campaign)
            return campaign
        }
    }

    package static func build(_ name: String, _ campaigns: [Campaign]) throws -> URL {
        try BundleBuilder(outputRoot: output).build(Season(name: name, campaigns: campaigns)).bundle
    }

    package static let full = Result { try build("season", try campaigns()) }
    /// The mourning day pulled (a kill switch).
    package static let withoutMourning = Result { try build("season-pulled", try campaigns(["default.yaml", "double11.yaml"])) }
    /// The sale and the mourning day, with no screen of the app's own: nothing else in force.
    package static let saleAndMourning = Result { try build("season-sale", try campaigns(["double11.yaml", "mourning.yaml"])) }
    /// The mourning day alone: the sale pulled.
    package static let mourningOnly = Result { try build("season-mourning", try campaigns(["mourning.yaml"])) }
    /// Double 11 turned grey: new objects for the same screen.
    package static let greySale = Result {
        try build("season-grey", try campaigns(["default.yaml", "double11.yaml"]) { if $0.name == "double11" { $0.grey = true } })
    }
    /// The app's own screen for the iPhone SE only: the iPhone 15's screen withdrawn.
    package static let otherScreen = Result {
        try build(
            "season-se",
            try campaigns(["default.yaml"]) { campaign in
                campaign.screens = DeviceCatalogue.screens(of: try! DeviceCatalogue.bundled().select(.some([.named("iPhone SE (3rd generation)")])))
            })
    }
    /// The same art for another app.
    package static let otherApp = Result { try build("other", try campaigns(["default.yaml"]) { $0.app.bundleID = "com.example.other" }) }

    /// Debian's nginx on 127.0.0.1 with the full season published at `season/` (served as it is,
    /// and from `/slow/`, `/late/`, … as the fixture's configuration says).
    package static func served() throws -> NginxServer {
        let server = try NginxServer()
        try publish(full, to: server.root.appendingPathComponent("season"))
        return server
    }

    /// Publishes with serial `serial`, or one more than the tree holds (1, 2, …): the numbering these
    /// tests read, where `publish` itself would take the clock's larger serial.
    package static func publish(_ bundle: Result<URL, any Error>, to tree: URL, serial: Int? = nil) throws {
        let next = try serial ?? Publisher.heldSerial(in: tree).serial + 1
        // Valid for ten years: these tests play dates of their own, never the expiry (KeyRotationTests
        // and ExpiryTests play that).
        _ = try Publisher.publish(bundle: try bundle.get(), to: tree, privateKey: key.privateKey, serial: next, validFor: 3650 * 86_400)
    }

    /// The iPhone 15 slice and its signature as `tree` holds them now, to serve again later (a replay).
    package static func slice(in tree: URL) throws -> (manifest: Data, signature: Data) {
        (
            try Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json")),
            try Data(contentsOf: tree.appendingPathComponent("screens/1179x2556.json.sig"))
        )
    }

    /// Puts a saved slice back in `tree`, as a stale cache or an attacker would serve it.
    package static func serve(_ slice: (manifest: Data, signature: Data), in tree: URL) throws {
        try slice.manifest.write(to: tree.appendingPathComponent("screens/1179x2556.json"))
        try slice.signature.write(to: tree.appendingPathComponent("screens/1179x2556.json.sig"))
    }

    /// The fetcher an iPhone 15 app runs against `path` on `server`.
    package static func fetcher(_ server: NginxServer, _ path: String, into folder: URL = temporaryFolder("downloads")) -> BundleFetcher {
        var fetcher = BundleFetcher(
            base: server.base.appendingPathComponent(path), folder: folder, screen: iPhone15,
            trust: trust, bundleID: "com.example.shop")
        fetcher.backoff = 0.2
        fetcher.timeout = 10
        // The whole fetch's deadline (120 s in an app) is the subject of its own test; here the test
        // process's other suites can keep its few threads busy for minutes on two cores.
        fetcher.deadline = 900
        return fetcher
    }

    /// A phone that installed the full season from `server`'s `season/` into a downloads folder,
    /// and the tree since republished with Double 11 turned grey (new objects to download, write and
    /// install): the folder and its installed bundle's files.
    package static func installedThenGreySale(_ server: NginxServer) async throws -> (folder: URL, installed: [String: Data]) {
        let tree = server.root.appendingPathComponent("season")
        try publish(full, to: tree)
        let folder = temporaryFolder("downloads")
        _ = try await fetcher(server, "season", into: folder).fetch()
        let installed = files(folder.appendingPathComponent("bundle"))
        try publish(greySale, to: tree)
        return (folder, installed)
    }

    /// name → bytes of every file below `folder`.
    package static func files(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return files }
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files[String(url.path.dropFirst(folder.path.count))] = try? Data(contentsOf: url)
        }
        return files
    }
}

/// A flag one task raises and another reads.
package final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    package init() {}
    package var isRaised: Bool { lock.withLock { raised } }
    package func raise() { lock.withLock { raised = true } }
}
