import Foundation
import SplashApplier
import SplashCore

/// An on-device-equivalent app container in a folder, and a small model of what SpringBoard does
/// to it: install and update (render the launch screen, cache it with fresh UUID names in the
/// folder for the iOS version), launch (show the cached file for the current orientation and
/// appearance, or reject it and regenerate, then run the app's code: the applier), appearance and
/// orientation changes, a language change, a cache purge, and the black-render bug.
public struct SandboxSimulator {
    /// The sandbox folder: `springboard.json`, `container/`.
    public let root: URL
    /// The app's data container.
    public var container: URL { root.appendingPathComponent("container") }
    private var modelURL: URL { root.appendingPathComponent("springboard.json") }

    /// A simulator over an existing or new sandbox folder.
    public init(root: URL) {
        self.root = root
    }

    /// SpringBoard's current model of the sandbox.
    public func model() throws -> SpringBoardModel {
        do { return try SpringBoardModel.load(modelURL) } catch {
            throw SimulatorError.noSandbox(root.path)
        }
    }

    /// The launch snapshot folder for the installed app and iOS version.
    public func snapshotFolder(_ model: SpringBoardModel) throws -> URL {
        guard let os = OSVersion(model.ios) else { throw SimulatorError.badOSVersion(model.ios) }
        return container.appendingPathComponent(os.snapshotFolder(bundleID: model.bundleID))
    }

    /// Installs the app afresh (an empty container), rendering and caching its launch screen.
    public func install(launchScreen: URL, version: String, build: String, device: String, ios: String,
                        blackRender: Bool = false) throws -> SpringBoardModel {
        guard OSVersion(ios) != nil else { throw SimulatorError.badOSVersion(ios) }
        let storyboard = try LaunchScreen(campaignAt: launchScreen, device: device)
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: container.appendingPathComponent("Library/Caches"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: container.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        var model = SpringBoardModel(bundleID: storyboard.campaign.app.bundleID, version: version, build: build,
                                     launchScreen: launchScreen.standardizedFileURL.path, device: device, ios: ios,
                                     appearance: .light, orientation: .portrait, blackRender: blackRender, variants: [:], launches: 0)
        try dropCache(&model)
        try render(&model, storyboard: storyboard, only: nil)
        try model.save(modelURL)
        return model
    }

    /// Updates (or reinstalls) the app: the container's data stays, the launch cache is rendered anew.
    public func update(version: String, build: String, blackRender: Bool? = nil) throws -> SpringBoardModel {
        var model = try model()
        model.version = version
        model.build = build
        if let blackRender { model.blackRender = blackRender }
        try dropCache(&model)
        try render(&model, storyboard: try LaunchScreen(campaignAt: URL(fileURLWithPath: model.launchScreen), device: model.device), only: nil)
        try model.save(modelURL)
        return model
    }

    /// Changes the interface style or orientation for the next launch.
    public func set(appearance: Appearance? = nil, orientation: Orientation? = nil) throws -> SpringBoardModel {
        var model = try model()
        if let appearance { model.appearance = appearance }
        if let orientation { model.orientation = orientation }
        try model.save(modelURL)
        return model
    }

    /// A system language change: the cache is dropped and only the current variant comes back.
    public func languageChange() throws -> SpringBoardModel {
        var model = try model()
        let storyboard = try LaunchScreen(campaignAt: URL(fileURLWithPath: model.launchScreen), device: model.device)
        try dropCache(&model)
        try render(&model, storyboard: storyboard, only: storyboard.variant(for: model))
        try model.save(modelURL)
        return model
    }

    /// Storage pressure: the OS deletes the cached launch images; the next launch renders them again.
    public func purge() throws -> SpringBoardModel {
        var model = try model()
        try dropCache(&model)
        try model.save(modelURL)
        return model
    }

    /// One launch: the OS shows the cached image for the current variant (rejecting a file of the wrong
    /// size or one that does not decode, and regenerating), then the app's code runs the applier with
    /// `bundle` unless `runApp` is false.
    public func launch(bundle: URL?, now: Date, runApp: Bool = true, screenshot: URL? = nil) throws -> LaunchResult {
        var model = try model()
        let storyboard = try LaunchScreen(campaignAt: URL(fileURLWithPath: model.launchScreen), device: model.device)
        let variant = storyboard.variant(for: model)
        let folder = try snapshotFolder(model)
        var regeneration: String?
        var shown: (name: String, data: Data, image: RGBAImage)?
        if let name = model.variants.first(where: { $0.value == variant })?.key {
            let data = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
            switch Self.check(data, name: name, expected: storyboard.pixels(variant)) {
            case .success(let image): shown = (name, data, image)
            case .failure(let reason): regeneration = "\(name) \(reason)"
            }
        } else {
            regeneration = "no cached image for \(variant.orientation.rawValue) \(variant.appearance.rawValue)"
        }
        if shown == nil {
            // A missing variant is rendered; a rejected file makes the OS render the whole cache again.
            let rejected = model.variants.values.contains(variant)
            if rejected { try dropCache(&model) }
            try render(&model, storyboard: storyboard, only: rejected ? nil : variant)
            let name = model.variants.first { $0.value == variant }!.key
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            shown = (name, data, try SnapshotDecoder().decode(data))
        }
        model.launches += 1
        try model.save(modelURL)
        if let screenshot { try PNGCodec.encode(shown!.image).write(to: screenshot, options: .atomic) }
        var report: ApplyReport?
        if runApp, let bundle {
            let applier = SnapshotApplier(container: container, bundle: bundle, appVersion: model.version, appBuild: model.build,
                                          osVersion: OSVersion(model.ios)!, decoder: SnapshotDecoder(), clock: { now })
            report = try applier.apply()
        }
        return LaunchResult(file: shown!.name, variant: variant, contentHash: sha256Hex(shown!.data), image: shown!.image,
                            regenerated: regeneration, appReport: report)
    }

    /// The OS's check of a cached file: the extension picks the decoder (`.ktx` files holding PNG are
    /// shown too, as field reports say), and the pixel size must be the screen's.
    static func check(_ data: Data, name: String, expected: Manifest.Size) -> Result<RGBAImage, SimulatorError> {
        let ext = (name as NSString).pathExtension.lowercased()
        let content = SnapshotContent(sniffing: data)
        let readable: Bool
        switch ext {
        case "ktx": readable = content == .ktx || content == .png
        case "png": readable = content == .png
        default: readable = false
        }
        guard readable, let image = try? SnapshotDecoder().decode(data) else { return .failure(.rejected("does not decode")) }
        guard image.width == expected.width, image.height == expected.height else {
            return .failure(.rejected("is \(image.width)x\(image.height), not \(expected.width)x\(expected.height)"))
        }
        return .success(image)
    }

    /// Deletes every cached launch image the OS knows of.
    private func dropCache(_ model: inout SpringBoardModel) throws {
        let folder = try snapshotFolder(model)
        for name in model.variants.keys { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        model.variants = [:]
    }

    /// Renders the launch screen into the cache with fresh names: every supported variant, or one.
    private func render(_ model: inout SpringBoardModel, storyboard: LaunchScreen, only: SpringBoardModel.Variant?) throws {
        let folder = try snapshotFolder(model)
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let scale = storyboard.screen.scale
        for variant in storyboard.variants where only == nil || only == variant {
            let name = "\(UUID().uuidString)@\(scale)x.ktx"
            try storyboard.render(variant, black: model.blackRender).write(to: folder.appendingPathComponent(name))
            model.variants[name] = variant
        }
        // The app switcher's snapshots live beside them; the applier must never touch these.
        let scene = folder.appendingPathComponent("sceneID:\(model.bundleID)-default")
        if !fm.fileExists(atPath: scene.path) {
            try fm.createDirectory(at: scene.appendingPathComponent("downscaled"), withIntermediateDirectories: true)
            let portrait = try storyboard.render(storyboard.variants[0], black: false)
            try portrait.write(to: scene.appendingPathComponent("\(UUID().uuidString)@\(scale)x.ktx"))
            try portrait.write(to: scene.appendingPathComponent("downscaled/\(UUID().uuidString)@1x.ktx"))
        }
    }
}

/// What one launch showed and what the app did.
public struct LaunchResult: Sendable {
    /// The cached file the OS showed.
    public var file: String
    /// Its variant.
    public var variant: SpringBoardModel.Variant
    /// SHA-256 of the file's bytes.
    public var contentHash: String
    /// What the user saw.
    public var image: RGBAImage
    /// Why the OS rendered the launch screen again first, when it did.
    public var regenerated: String?
    /// The applier's report, when the app ran it.
    public var appReport: ApplyReport?
}

/// Why the simulator could not do what was asked.
public enum SimulatorError: Error, Equatable, CustomStringConvertible {
    /// No `springboard.json`: `sim install` first.
    case noSandbox(String)
    /// The iOS version does not parse.
    case badOSVersion(String)
    /// The device is not in the catalogue.
    case unknownDevice(String)
    /// The OS rejected a cached image.
    case rejected(String)

    public var description: String {
        switch self {
        case .noSandbox(let path): return "no sandbox at \(path): run `splashgen sim install` first"
        case .badOSVersion(let text): return "iOS version \"\(text)\" is not a version such as 17.4"
        case .unknownDevice(let name): return "unknown device \"\(name)\"; `splashgen devices` lists the catalogue"
        case .rejected(let reason): return reason
        }
    }
}
