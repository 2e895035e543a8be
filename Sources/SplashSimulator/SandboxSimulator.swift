import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashFormat
import SplashUpdater

/// An on-device-equivalent app container in a folder, and a small model of what SpringBoard does
/// to it: install and update (render the launch screen, cache it with fresh UUID names in the
/// folder and format of the iOS version), launch (show the cached file for the current orientation and
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
        container.appendingPathComponent(try os(model).snapshotFolder(bundleID: model.bundleID))
    }

    /// The app-switcher snapshot folder, beside the launch folder (docs/ios-launch-cache.md §9); iOS 13 and later.
    public func appSwitcherFolder(_ model: SpringBoardModel) throws -> URL {
        try snapshotFolder(model).deletingLastPathComponent().appendingPathComponent("sceneID:\(model.bundleID)-default")
    }

    private func os(_ model: SpringBoardModel) throws -> OSVersion {
        guard let os = OSVersion(model.ios) else { throw SimulatorError.badOSVersion(model.ios) }
        return os
    }

    /// The app's own launch screen when none is named: the storyboard stand-in shipped with the
    /// simulator (`Resources/launch-screen/LaunchScreen.json` and its art), the screen
    /// `campaigns/default.yaml` describes (a test keeps the two the same), so `sim install` works
    /// from any folder.
    public static var defaultLaunchScreen: URL {
        get throws { try shippedLaunchScreen("LaunchScreen.json") }
    }

    /// A `UILaunchScreen` app's stand-in shipped with the simulator (`Resources/launch-screen/UILaunchScreen.json`):
    /// an app with no storyboard, whose Info.plist names an asset colour and an image (``InfoPlistLaunchScreen``).
    public static var launchScreenDictionary: URL {
        get throws { try shippedLaunchScreen("UILaunchScreen.json") }
    }

    private static func shippedLaunchScreen(_ name: String) throws -> URL {
        guard let folder = Bundle.module.url(forResource: "launch-screen", withExtension: nil) else {
            throw SimulatorError.rejected("the simulator's launch screens are missing from its resources")
        }
        return folder.appendingPathComponent(name)
    }

    private func launchScreen(_ model: SpringBoardModel) throws -> LaunchScreen {
        try LaunchScreen(
            storyboardAt: URL(fileURLWithPath: model.launchScreen), device: model.device, ios: try os(model),
            interfaceStyle: model.interfaceStyle ?? .automatic, format: model.cacheFormat,
            requiresFullScreen: model.requiresFullScreen ?? false, iphoneOnly: model.iphoneOnly ?? false)
    }

    /// Installs the app afresh (an empty container), rendering and caching its launch screen.
    /// `launchScreen` is the app's ``Storyboard`` stand-in (JSON). `zoomed` installs on the device's
    /// Display Zoom screen; `leftovers` names a storyboard stand-in whose render another library (LLDynamicLaunchScreen and the like) left behind as PNG bytes in the
    /// cache's `.ktx` names; `cacheFormat` caches in another container than the iOS version's own.
    /// A folder that holds anything but a sandbox this simulator made is refused. `pinnedKey` is the
    /// public key the app pins (a `.pub` file's text), checked here; nil: the app accepts unsigned bundles.
    /// `rolloutDraw` fixes the app's place in every rollout (0 to 9,999); nil: it draws its own.
    /// On an iPad, `requiresFullScreen` caches no side-layout window, and `iphoneOnly` installs an
    /// iPhone-only app, cached and shown at an iPhone's screen (docs/ios-launch-cache.md §1).
    public func install(
        launchScreen: URL, version: String, build: String, device: String, ios: String, zoomed: Bool = false,
        blackRender: Bool = false, leftovers: URL? = nil, interfaceStyle: InterfaceStyle = .automatic, cacheFormat: CacheFormat? = nil,
        pinnedKey: String? = nil, rolloutDraw: Int? = nil, language: String? = nil, region: String? = nil,
        requiresFullScreen: Bool = false, iphoneOnly: Bool = false
    ) throws -> SpringBoardModel {
        guard let os = OSVersion(ios) else { throw SimulatorError.badOSVersion(ios) }
        if let rolloutDraw, !(0..<Manifest.Campaign.rolloutPlaces).contains(rolloutDraw) {
            throw SimulatorError.rejected("the rollout draw must be 0 to 9999; found \(rolloutDraw)")
        }
        if let pinnedKey { _ = try PinnedKey(pinnedKey) }
        let device = zoomed ? try PhoneScreen.named(device).zoomed().name : device
        if iphoneOnly, try PhoneScreen.named(device).iphoneApp == nil {
            throw SimulatorError.rejected("an iPhone-only app is installed on an iPad; \(device) is not one the simulator knows an iPhone app's screen for")
        }
        let storyboard = try LaunchScreen(
            storyboardAt: launchScreen, device: device, ios: os, interfaceStyle: interfaceStyle, format: cacheFormat,
            requiresFullScreen: requiresFullScreen, iphoneOnly: iphoneOnly)
        let fm = FileManager.default
        if let entries = try? fm.contentsOfDirectory(atPath: root.path), !entries.isEmpty {
            guard fm.fileExists(atPath: modelURL.path) else { throw SimulatorError.notASandbox(root.path) }
            try fm.removeItem(at: container)
            try fm.removeItem(at: modelURL)
        }
        try fm.createDirectory(at: container.appendingPathComponent("Library/Caches"), withIntermediateDirectories: true)
        try fm.createDirectory(at: container.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        var model = SpringBoardModel(
            bundleID: storyboard.storyboard.bundleID, version: version, build: build,
            launchScreen: launchScreen.standardizedFileURL.path, device: device, ios: ios,
            appearance: .light, orientation: .portrait, blackRender: blackRender,
            interfaceStyle: interfaceStyle == .automatic ? nil : interfaceStyle,
            cacheFormat: cacheFormat == CacheFormat(ios: os) ? nil : cacheFormat, variants: [:], launches: 0, pinnedKey: pinnedKey)
        model.rolloutDraw = rolloutDraw
        (model.language, model.region) = (language, region)
        (model.requiresFullScreen, model.iphoneOnly) = (requiresFullScreen ? true : nil, iphoneOnly ? true : nil)
        try render(&model, storyboard: storyboard, only: nil)
        if let leftovers { try leaveLeftovers(of: leftovers, model: model) }
        try model.save(modelURL)
        return model
    }

    /// The fetcher the simulated app runs: for the device's screen (its zoomed one when installed
    /// zoomed), the app's bundle identifier and appearances, keeping bundles in the container's
    /// `Library/Application Support/splashgen/downloads`.
    public func fetcher(from base: URL, trust: BundleTrust) throws -> BundleFetcher {
        let model = try model()
        // An iPhone-only app on an iPad reads an iPhone's screen, and fetches for it.
        let screen = try launchScreen(model).screen.pixels(.portrait)
        var fetcher = BundleFetcher(
            base: base, folder: container.appendingPathComponent("Library/Application Support/splashgen/downloads"),
            screen: Manifest.Size(width: screen.width, height: screen.height),
            trust: trust, bundleID: model.bundleID)
        // Before iOS 13 there is no dark mode: only light files are cached.
        fetcher.appearances = try os(model).major < 13 ? [.light] : (model.interfaceStyle ?? .automatic).appearances
        return fetcher
    }

    /// What a run-time library leaves in the cache: each cached file overwritten in place, name kept,
    /// with PNG bytes of its own on-device render of the storyboard stand-in `drawn` (an old
    /// campaign's art, or the app's own screen after its "restore").
    private func leaveLeftovers(of drawn: URL, model: SpringBoardModel) throws {
        let folder = try snapshotFolder(model)
        let library = try LaunchScreen(storyboardAt: drawn, device: model.device, ios: try os(model))
        for (name, variant) in model.variants {
            try OSCodecs.png(library.image(variant, black: false)).write(to: folder.appendingPathComponent(name))
        }
    }

    /// Updates (or reinstalls) the app: the container's data stays, the launch cache is rendered anew.
    public func update(version: String, build: String, blackRender: Bool? = nil) throws -> SpringBoardModel {
        var model = try model()
        model.version = version
        model.build = build
        if let blackRender { model.blackRender = blackRender }
        try dropCache(&model)
        try render(&model, storyboard: try launchScreen(model), only: nil)
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
        let storyboard = try launchScreen(model)
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
    /// `bundle` unless `runApp` is false. Before iOS 13 the launch folder cannot be written in place:
    /// writes the app makes there while the folder is in place are refused (undone) and reported.
    ///
    /// The app's applier trusts bundles as `trust` says, by default as the app was installed
    /// (``appTrust()``): a bundle its pinned key did not sign is refused at every launch, whatever
    /// its fetch found.
    public func launch(bundle: URL?, now: Date, runApp: Bool = true, screenshot: URL? = nil, trust: BundleTrust? = nil) throws -> LaunchResult {
        var model = try model()
        let storyboard = try launchScreen(model)
        let variant = storyboard.variant(for: model)
        let folder = try snapshotFolder(model)
        var regeneration: String?
        var shown: (name: String, data: Data, image: RGBAImage)?
        if let name = model.variants.first(where: { $0.value == variant })?.key {
            switch Self.cached(name, in: folder).flatMap({ data in
                CachedFileCheck.shown(data, name: name, expected: storyboard.pixels(variant), container: storyboard.format).map { (data, $0) }
            }) {
            case .success(let (data, image)): shown = (name, data, image)
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
            guard let name = model.variants.first(where: { $0.value == variant })?.key else { throw SimulatorError.rejected("no render of \(variant)") }
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            shown = (name, data, try CachedFileCheck.shown(data, name: name, expected: storyboard.pixels(variant), container: storyboard.format).get())
        }
        guard let shown else { throw SimulatorError.rejected("nothing shown") }
        let showing = Self.what(shown.data, name: shown.name, variant: variant, model: model, bundle: bundle)
        model.launches += 1
        try model.save(modelURL)
        if let screenshot { try OSCodecs.png(shown.image).write(to: screenshot, options: .atomic) }
        var report: ApplyReport?
        var refused: [String] = []
        if runApp, let bundle {
            (report, refused) = try self.runApp(bundle: bundle, now: now, trust: trust) { try $0.apply() }
            try remember(bundle: bundle, in: folder)
        }
        return LaunchResult(
            file: shown.name, variant: variant, contentHash: sha256Hex(shown.data), showing: showing, image: shown.image,
            regenerated: regeneration, appReport: report, refusedWrites: refused)
    }

    /// The app's restore, as its code would run it (no launch): the originals back, with the bundle to
    /// tell its pictures by when given; the sandbox knows the version, build, bundle identifier, iOS
    /// version and screen scale. Before iOS 13 in-place writes are refused, as at a launch.
    public func restore(bundle: URL?, fromBackups: Bool = false, now: Date = Date()) throws -> (report: ApplyReport, refusedWrites: [String]) {
        let (report, refused) = try runApp(bundle: bundle, now: now) { try $0.restore(fromBackups: fromBackups) }
        guard let report else { throw SimulatorError.rejected("the app's restore did not run") }
        return (report, refused)
    }

    /// How the installed app trusts bundles: its pinned key, or (installed without one) it accepts
    /// unsigned bundles.
    public func appTrust() throws -> BundleTrust {
        try model().pinnedKey.map { .pinned(try PinnedKey($0)) } ?? .acceptingUnsignedBundles
    }

    /// Runs the app's applier (`body`) as the simulated app makes it: its version, build, bundle
    /// identifier, interface style, its `UILaunchScreen` colours if it has one, screen scale and trust (`trust`, else ``appTrust()``), the OS's
    /// decoder; before iOS 13 under the guard that refuses in-place writes. Returns its report and
    /// the writes refused.
    private func runApp(
        bundle: URL?, now: Date, trust: BundleTrust? = nil, _ body: (SnapshotApplier) throws -> ApplyReport
    ) throws -> (ApplyReport?, [String]) {
        let model = try model()
        var applier = SnapshotApplier(
            container: container, bundle: bundle, appVersion: model.version, appBuild: model.build,
            osVersion: try os(model), decoder: SimulatedAppDecoder(), trust: try trust ?? appTrust(), clock: { now })
        applier.interfaceStyle = model.interfaceStyle ?? .automatic
        // A UILaunchScreen app resolves its own colours, as forThisApp does with UIColor(named:).
        if let colors = try launchScreen(model).storyboard.launchScreenColors, let light = colors[.light], let dark = colors[.dark] {
            applier.launchScreenColors = LaunchScreenColors(light: light, dark: dark)
        }
        applier.rolloutDraw = model.rolloutDraw
        (applier.language, applier.region) = (model.language, model.region)
        applier.deviceFamily = model.device.hasPrefix("iPad") && model.iphoneOnly != true ? "ipad" : "iphone"
        applier.appBundleID = model.bundleID
        applier.screenScale = try PhoneScreen.named(model.device).scale
        guard try os(model).major < 13 else { return (try body(applier), []) }
        let guardWrites = try InPlaceWriteGuard(folder: try snapshotFolder(model))
        let outcome = Result { try body(applier) }
        let refused = try guardWrites.finish()
        return (try outcome.get(), refused)
    }

    /// The bytes of the cached file `name`, or why the OS has none to check: it is not there (the
    /// app removed it), or it cannot be read (the system's reason).
    static func cached(_ name: String, in folder: URL) -> Result<Data, SimulatorError> {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return .failure(.rejected("is not there (the launch folder no longer holds it)")) }
        do { return .success(try Data(contentsOf: url)) } catch {
            let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { String(cString: strerror(Int32($0.code))) }
            return .failure(.rejected("cannot be read (\(reason ?? error.localizedDescription))"))
        }
    }

    /// Records, after an app run, which campaign's picture each cached file now holds (by the bundle
    /// the app used), so that a later launch can name it when that campaign has left the bundle.
    private func remember(bundle: URL, in folder: URL) throws {
        var model = try model()
        var pictures = model.pictures ?? [:]
        for (name, variant) in model.variants {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let campaign = Self.campaign(of: data, variant: variant, bundle: bundle)
            else { continue }
            pictures[sha256Hex(data)] = campaign
        }
        // Bounded: the pictures of the last few runs are enough to name what a cache can hold.
        if pictures.count > 1024 { pictures = [:] }
        model.pictures = pictures
        try model.save(modelURL)
    }

    /// The campaign of `bundle` whose picture `data` is, for a file of `variant`.
    private static func campaign(of data: Data, variant: SpringBoardModel.Variant, bundle: URL) -> String? {
        guard let json = try? Data(contentsOf: bundle.appendingPathComponent("manifest.json")), let manifest = try? Manifest.decode(from: json) else {
            return nil
        }
        return ReplacementFraming.campaign(
            whosePicture: data, in: manifest, object: { try? Data(contentsOf: bundle.appendingPathComponent("objects/" + $0.object)) },
            where: { _, snapshot in snapshot.orientation == variant.orientation && snapshot.appearance == variant.appearance })
    }

    /// What a shown file holds, in a user's words: the OS's own render of the app's launch screen (or
    /// its black render), a campaign's snapshot of the bundle the app uses (its picture, in whatever
    /// container), a campaign's snapshot an earlier bundle put there (withdrawn, or no longer in the
    /// bundle), or neither.
    static func what(_ data: Data, name: String, variant: SpringBoardModel.Variant, model: SpringBoardModel, bundle: URL?) -> String {
        if let rendered = model.rendered?[name], rendered == sha256Hex(data) {
            return model.blackRender ? "the OS's black render of the app's launch screen" : "the OS's render of the app's launch screen"
        }
        if let bundle, let campaign = campaign(of: data, variant: variant, bundle: bundle) { return "\(campaign)'s snapshot" }
        if let campaign = model.pictures?[sha256Hex(data)] {
            let manifest = bundle.flatMap { try? Data(contentsOf: $0.appendingPathComponent("manifest.json")) }.flatMap { try? Manifest.decode(from: $0) }
            let withdrawn = manifest?.withdrawn?.contains(campaign) == true
            return "\(campaign)'s snapshot (\(withdrawn ? "withdrawn" : "no longer in the app's bundle"))"
        }
        return "neither the OS's render nor a snapshot of the app's bundle"
    }

    /// Deletes every cached launch image the OS knows of.
    private func dropCache(_ model: inout SpringBoardModel) throws {
        let folder = try snapshotFolder(model)
        for name in model.variants.keys { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        model.variants = [:]
        model.rendered = [:]
    }

    /// Renders the launch screen into the cache with fresh names: every supported variant, or one.
    /// From iOS 13 on, the app switcher's snapshots sit beside the launch folder, with smaller copies
    /// in `downscaled/`; the applier must never touch these.
    private func render(_ model: inout SpringBoardModel, storyboard: LaunchScreen, only: SpringBoardModel.Variant?) throws {
        let folder = try snapshotFolder(model)
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = try OSCodecs.ASTCEncoder()
        let scale = storyboard.screen.scale
        for variant in storyboard.variants where only == nil || only == variant {
            let name = "\(UUID().uuidString)@\(scale)x.ktx"
            let bytes = try storyboard.render(variant, black: model.blackRender, encoder: encoder)
            try bytes.write(to: folder.appendingPathComponent(name))
            model.variants[name] = variant
            model.rendered = (model.rendered ?? [:]).merging([name: sha256Hex(bytes)]) { $1 }
        }
        guard try os(model).major >= 13 else { return }
        let scene = try appSwitcherFolder(model)
        if !fm.fileExists(atPath: scene.path) {
            try fm.createDirectory(at: scene.appendingPathComponent("downscaled"), withIntermediateDirectories: true)
            let first = storyboard.variants[0]
            let full = try storyboard.format.file(for: storyboard.image(first, black: false), encoder: encoder)
            try full.write(to: scene.appendingPathComponent("\(UUID().uuidString)@\(scale)x.ktx"))
            let small = try storyboard.format.file(for: storyboard.image(first, black: false, scale: 1), encoder: encoder)
            try small.write(to: scene.appendingPathComponent("downscaled/\(UUID().uuidString)@1x.ktx"))
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
    /// What that is, in a user's words: the OS's render, which campaign's snapshot, or neither.
    public var showing: String
    /// What the user saw.
    public var image: RGBAImage
    /// Why the OS rendered the launch screen again first, when it did.
    public var regenerated: String?
    /// The applier's report, when the app ran it.
    public var appReport: ApplyReport?
    /// Writes the app made inside a launch folder that cannot be written in place (before iOS 13),
    /// refused by the OS model and undone; empty when there were none.
    public var refusedWrites: [String] = []
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
    /// `install` was pointed at a folder holding something other than a sandbox.
    case notASandbox(String)
    /// The device has no Display Zoom screen in the simulator's data.
    case noDisplayZoom(String)
    /// The OS's codec (astcenc, libpng) failed.
    case codec(String)
    /// The storyboard stand-in cannot be read: the file, the key and what is wrong.
    case storyboard(String)

    public var description: String {
        switch self {
        case .noSandbox(let path): return "no sandbox at \(path): run `splashgen sim install` first"
        case .badOSVersion(let text): return "iOS version \"\(text)\" is not a version such as 17.4"
        case .unknownDevice(let name):
            let near = PhoneScreen.all.map(\.name).filter { $0.lowercased().contains(name.lowercased().prefix(6)) }.prefix(4)
            return "the simulator has no device \"\(name)\"" + (near.isEmpty ? "" : "; did you mean \(near.map { "\"\($0)\"" }.joined(separator: ", "))?")
        case .rejected(let reason): return reason
        case .notASandbox(let path): return "\(path) is not empty and is not a sandbox made by `splashgen sim install`; choose an empty or new folder"
        case .noDisplayZoom(let name):
            return
                "the simulator has no Display Zoom screen for \(name): no source for its zoomed size has been found yet (docs/ios-launch-cache.md §9), so neither the catalogue nor the simulator has one; `splashgen devices` marks the zoomed entries there are"
        case .codec(let detail): return detail
        case .storyboard(let detail): return detail
        }
    }
}
