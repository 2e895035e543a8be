import Foundation
import SplashApplier
import SplashCore
@testable import SplashSimulator

enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    static func campaign(_ name: String) -> URL { root.appendingPathComponent("campaigns/" + name) }
}

func temporaryFolder(_ label: String = "sim") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashgen-\(label)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func date(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

/// A bundle of one campaign file, rendered for one device only (what a device would download).
func buildBundle(_ file: String, device: String = "iPhone 15", edit: (inout Campaign) -> Void = { _ in }) throws -> URL {
    let catalogue = try DeviceCatalogue.bundled()
    var campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: Repo.campaign(file))
    campaign.screens = DeviceCatalogue.screens(of: [catalogue.device(named: device)!])
    edit(&campaign)
    return try BundleBuilder(outputRoot: temporaryFolder("bundle")).build(campaign).bundle
}

enum Bundles {
    static let double11 = Result { try buildBundle("double11.yaml") }
    static let double11OldPhone = Result { try buildBundle("double11.yaml", device: "iPhone 8") }
    static let mourning = Result { try buildBundle("double11.yaml") { $0.name = "grey-day"; $0.grey = true
        $0.schedule = Manifest.Schedule(start: date("2026-12-04T00:00:00+08:00"), end: date("2026-12-05T00:00:00+08:00")) } }
    static let repair = Result { try buildBundle("default.yaml") { $0.name = "repair" } }
}

/// Installed sandboxes, copied for each test instead of rendering the launch screen again.
enum Installed {
    static let iPhone15 = Result { try install(ios: "17.0") }
    static let iPhone15Colourful = Result { try install(launchScreen: "double11.yaml", ios: "17.0") }

    static func install(launchScreen: String = "default.yaml", device: String = "iPhone 15", ios: String,
                        blackRender: Bool = false) throws -> URL {
        let root = temporaryFolder("installed")
        _ = try SandboxSimulator(root: root).install(launchScreen: Repo.campaign(launchScreen), version: "5.2", build: "100",
                                                     device: device, ios: ios, blackRender: blackRender)
        return root
    }
}

/// A private copy of an installed sandbox.
func sandbox(_ installed: Result<URL, any Error>) throws -> SandboxSimulator {
    let copy = temporaryFolder("sandbox").appendingPathComponent("s")
    try FileManager.default.copyItem(at: try installed.get(), to: copy)
    return SandboxSimulator(root: copy)
}

extension SandboxSimulator {
    /// name → bytes of every cached launch image.
    func cachedFiles() throws -> [String: Data] {
        let model = try model()
        var files: [String: Data] = [:]
        for name in model.variants.keys { files[name] = try Data(contentsOf: try snapshotFolder(model).appendingPathComponent(name)) }
        return files
    }

    /// name → bytes of everything below the snapshot folder (app-switcher folders included).
    func snapshotTree() throws -> [String: Data] {
        let folder = try snapshotFolder(try model())
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
func object(in bundle: URL, _ variant: SpringBoardModel.Variant, pixels: Manifest.Size) throws -> String {
    let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
    let portrait = Manifest.Size(width: min(pixels.width, pixels.height), height: max(pixels.width, pixels.height))
    let size = variant.orientation == .portrait ? portrait : Manifest.Size(width: portrait.height, height: portrait.width)
    return manifest.campaigns[0].snapshots.first { $0.pixels == size && $0.appearance == variant.appearance }!.object
}

let iPhone15 = Manifest.Size(width: 1179, height: 2556)
let portraitLight = SpringBoardModel.Variant(orientation: .portrait, appearance: .light)

/// A decoder that counts its calls, to prove the no-op path decodes nothing.
final class CountingDecoder: SnapshotPixelDecoder, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }
    func decode(_ data: Data) throws -> RGBAImage {
        lock.withLock { count += 1 }
        return try SnapshotDecoder().decode(data)
    }
}
