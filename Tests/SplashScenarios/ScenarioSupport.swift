// Expectations: none here; test support: sandboxes, bundles, Apple's reference LZFSE (pyliblzfse).
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashSimulator
import SplashTestSupport

package enum Repo {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    package static func campaign(_ name: String) -> URL { root.appendingPathComponent("campaigns/" + name) }
    /// A storyboard stand-in (``Storyboard``, JSON) from this suite's fixtures.
    package static func storyboard(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/storyboards/" + name)
    }
    /// A campaign file from this suite's fixtures.
    package static func fixtureCampaign(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/campaigns/" + name)
    }
    /// The simulator's shipped storyboard stand-in: the app's own screen, as campaigns/default.yaml draws it.
    package static var ownStoryboard: URL { get throws { try SandboxSimulator.defaultLaunchScreen } }
}

package func date(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

/// A bundle of one campaign file, rendered for one device only, its Display Zoom screen included
/// (what a device would download).
package func buildBundle(_ file: String, device: String = "iPhone 15", edit: (inout Campaign) -> Void = { _ in }) throws -> URL {
    let catalogue = try DeviceCatalogue.bundled()
    var campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: Repo.campaign(file))
    campaign.screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named(device)])))
    edit(&campaign)
    return try BundleBuilder(outputRoot: temporaryFolder("bundle")).build(campaign).bundle
}

package enum Bundles {
    package static let double11 = Result { try buildBundle("double11.yaml") }
    package static let double11OldPhone = Result { try buildBundle("double11.yaml", device: "iPhone 8") }
    package static let mourning = Result {
        try buildBundle("double11.yaml") {
            $0.name = "grey-day"; $0.grey = true
            $0.schedule = Manifest.Schedule(start: date("2026-12-04T00:00:00+08:00"), end: date("2026-12-05T00:00:00+08:00"))
        }
    }
    package static let repair = Result { try buildBundle("default.yaml") { $0.name = "repair" } }
    /// double11 with the app's own screen (campaigns/default.yaml, `own_screen: true`) beside it as a
    /// reference only: its schedule ended long before, so it is never in force.
    package static let double11WithOwnScreen = Result {
        try buildSeason("double11.yaml", "default.yaml") {
            $0[1].schedule = Manifest.Schedule(start: date("2025-01-01T00:00:00+08:00"), end: date("2025-01-02T00:00:00+08:00"))
        }
    }
}

/// A season bundle of campaign files for one device, each campaign edited first.
package func buildSeason(_ files: String..., device: String = "iPhone 15", edit: (inout [Campaign]) -> Void) throws -> URL {
    try buildSeason(at: files.map(Repo.campaign), device: device, edit: edit)
}

/// A season bundle of the campaign files at `urls` for one device, each campaign edited first.
package func buildSeason(at urls: [URL], device: String = "iPhone 15", edit: (inout [Campaign]) -> Void = { _ in }) throws -> URL {
    let catalogue = try DeviceCatalogue.bundled()
    let loader = CampaignLoader(catalogue: catalogue)
    let screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named(device)])))
    var campaigns = try urls.map { url in
        var campaign = try loader.load(contentsOf: url)
        campaign.screens = screens
        return campaign
    }
    edit(&campaigns)
    return try BundleBuilder(outputRoot: temporaryFolder("bundle")).build(Season(name: "season", campaigns: campaigns)).bundle
}

package enum Installed {
    package static let iPhone15 = Result { try install(ios: "17.0") }
    package static let iPhone15Colourful = Result { try install(launchScreen: Repo.storyboard("colourful.json"), ios: "17.0") }

    package static let iPhone15Brand = Result { try install(launchScreen: Repo.storyboard("brand.json"), ios: "17.0") }

    /// A fresh sandbox; the app's launch screen is the simulator's own storyboard stand-in unless one is named.
    package static func install(
        launchScreen: URL? = nil, device: String = "iPhone 15", ios: String, zoomed: Bool = false,
        blackRender: Bool = false, leftovers: URL? = nil, cacheFormat: CacheFormat? = nil
    ) throws -> URL {
        let root = temporaryFolder("installed")
        _ = try SandboxSimulator(root: root).install(
            launchScreen: try launchScreen ?? Repo.ownStoryboard, version: "5.2", build: "100", device: device, ios: ios,
            zoomed: zoomed, blackRender: blackRender, leftovers: leftovers, cacheFormat: cacheFormat)
        return root
    }
}

/// A private copy of an installed sandbox.
package func sandbox(_ installed: Result<URL, any Error>) throws -> SandboxSimulator {
    let copy = temporaryFolder("sandbox").appendingPathComponent("s")
    try FileManager.default.copyItem(at: try installed.get(), to: copy)
    return SandboxSimulator(root: copy)
}

extension SandboxSimulator {
    /// name → bytes of every cached launch image.
    package func cachedFiles() throws -> [String: Data] {
        let model = try model()
        var files: [String: Data] = [:]
        for name in model.variants.keys { files[name] = try Data(contentsOf: try snapshotFolder(model).appendingPathComponent(name)) }
        return files
    }

    /// name → bytes of everything below the folder that holds the launch folder (the app-switcher
    /// folder beside it included).
    package func snapshotTree() throws -> [String: Data] {
        let folder = try snapshotFolder(try model()).deletingLastPathComponent()
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)! where !url.hasDirectoryPath {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
            }
        }
        return files
    }
}

/// The object a bundle holds for a variant on a screen of `pixels`.
package func object(in bundle: URL, _ variant: SpringBoardModel.Variant, pixels: Manifest.Size) throws -> String {
    let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
    let portrait = Manifest.Size(width: min(pixels.width, pixels.height), height: max(pixels.width, pixels.height))
    let size = variant.orientation == .portrait ? portrait : Manifest.Size(width: portrait.height, height: portrait.width)
    return manifest.campaigns[0].snapshots.first { $0.pixels == size && $0.appearance == variant.appearance }!.object
}

/// The ASTC 4×4 blocks of the campaign object `object(in:_:pixels:)` names: the picture a replacement
/// must carry, whatever container it is framed in.
package func objectBlocks(in bundle: URL, _ variant: SpringBoardModel.Variant, pixels: Manifest.Size) throws -> Data {
    let name = try object(in: bundle, variant, pixels: pixels)
    return try SnapshotHeader.astcBlocks(of: Data(contentsOf: bundle.appendingPathComponent("objects/" + name))).blocks
}

package let iPhone15 = Manifest.Size(width: 1179, height: 2556)
package let portraitLight = SpringBoardModel.Variant(orientation: .portrait, appearance: .light)

/// A decoder that counts its calls, to prove the no-op path decodes nothing.
package final class CountingDecoder: SnapshotPixelDecoder, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    package init() {}
    package var calls: Int { lock.withLock { count } }
    package func decode(_ data: Data) throws -> RGBAImage {
        lock.withLock { count += 1 }
        return try SnapshotDecoder().decode(data)
    }
}

/// Apple's reference LZFSE decoder (pyliblzfse, which `make deps` installs) run on `stream`: an
/// oracle for what splashgen's LZFSE writes.
package func referenceLZFSEDecompress(_ stream: Data) throws -> Data {
    guard let decoded = try ReferenceLZFSE.decompress([stream])[0] else { throw ReferenceLZFSE.ReferenceError(description: "the reference refused the stream") }
    return decoded
}

/// Runs the built `splashgen` binary (beside the test bundle) from the repository's root.
package func splashgen(_ arguments: [String]) throws -> ProcessRun {
    try runProcess(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("splashgen"), arguments, in: Repo.root)
}

/// ``splashgen(_:)`` with its arguments listed.
package func splashgen(_ arguments: String...) throws -> ProcessRun { try splashgen(arguments) }

/// The applier's state file (`state.json`, sealed: ``ApplierState/sealed(_:)``), read as its JSON
/// and written back sealed, for tests that look into it or edit it.
package enum StateFile {
    package static func url(in container: URL) -> URL {
        container.appendingPathComponent("Library/Application Support/splashgen/state.json")
    }

    /// The JSON inside the state file; an error when the file is missing or its seal does not match.
    package static func json(in container: URL) throws -> Data {
        guard let json = ApplierState.unsealed(try Data(contentsOf: url(in: container))) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url(in: container).path])
        }
        return json
    }

    /// Writes `json` as the state file, sealed.
    package static func write(json: Data, in container: URL) throws {
        try ApplierState.sealed(json).write(to: url(in: container))
    }
}
