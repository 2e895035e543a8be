import Foundation
@_spi(UnsignedBundles) import SplashApplier

/// What one launch asks of the demo. `xcrun simctl launch DEVICE com.example.shop -Name value …`
/// passes each `-Name value` pair to the app, and UserDefaults' argument domain holds it for that
/// launch only:
///
/// - `-SplashDemoBundleFolder PATH`: apply this unpacked bundle folder (`manifest.json` +
///   `objects/`, what `splashgen build` writes), instead of fetching a season.
/// - `-SplashDemoSeasonURL URL`: fetch the season `splashgen publish` put there, then apply it (the
///   README's path). The bundle folder wins when both are given.
/// - `-SplashDemoKeyFile PATH`: the public key to pin (the `KEY.pub` of `splashgen keygen`).
/// - `-SplashDemoAcceptUnsigned YES`: take unsigned bundles, by explicit choice, when no key is given.
/// - `-SplashDemoNow 2026-11-10T21:00:00+08:00` (DEBUG builds): the applier's clock, as
///   `splashgen apply --now` sets it, so a campaign is in force whatever the date.
/// - `-SplashDemoHoldLaunch SECONDS` (DEBUG builds): sleep that long, at most ``longestHold``, in
///   `application(_:didFinishLaunchingWithOptions:)`, so the launch screen stays up to be photographed.
///
/// A PATH is absolute, or relative to the app's home (its data container), where CI copies files
/// with `xcrun simctl get_app_container DEVICE com.example.shop data`. With neither a bundle folder
/// nor a season, the demo runs no splashgen code and the OS's cache stays as the OS wrote it.
struct DemoSwitches: Sendable, Equatable {
    /// An unpacked bundle folder to apply.
    var bundleFolder: URL?
    /// A published season to fetch, then apply.
    var seasonURL: URL?
    /// The public key file to pin.
    var keyFile: URL?
    /// Unsigned bundles are accepted (only when no key file is given).
    var acceptUnsigned = false
    /// The applier's clock, when set (DEBUG builds).
    var now: Date?
    /// How long to hold the launch screen, in seconds (DEBUG builds).
    var holdSeconds: TimeInterval = 0

    /// The longest hold: well inside the time the system gives a launch before it ends the app.
    static let longestHold: TimeInterval = 15

    /// Why no bundle can be trusted: the run stops before anything is read.
    enum Problem: Error, CustomStringConvertible {
        /// Neither `-SplashDemoKeyFile` nor `-SplashDemoAcceptUnsigned YES`.
        case noTrust
        /// The key file could not be read, or does not hold a key.
        case badKeyFile(String, String)

        var description: String {
            switch self {
            case .noTrust: return "no -SplashDemoKeyFile and no -SplashDemoAcceptUnsigned YES: no bundle is trusted"
            case .badKeyFile(let path, let why): return "-SplashDemoKeyFile \(path): \(why)"
            }
        }
    }

    /// Reads the switches of this launch. `home` resolves relative paths (the app's data container).
    init(defaults: UserDefaults, home: URL = URL(fileURLWithPath: NSHomeDirectory())) {
        func path(_ key: String) -> URL? {
            guard let text = defaults.string(forKey: key), !text.isEmpty else { return nil }
            return text.hasPrefix("/") ? URL(fileURLWithPath: text) : home.appendingPathComponent(text)
        }
        bundleFolder = path("SplashDemoBundleFolder")
        seasonURL = defaults.string(forKey: "SplashDemoSeasonURL").flatMap { URL(string: $0) }
        keyFile = path("SplashDemoKeyFile")
        acceptUnsigned = defaults.bool(forKey: "SplashDemoAcceptUnsigned")
        #if DEBUG
        now = defaults.string(forKey: "SplashDemoNow").flatMap { ISO8601DateFormatter().date(from: $0) }
        if let text = defaults.string(forKey: "SplashDemoHoldLaunch"), let seconds = Double(text), seconds.isFinite {
            holdSeconds = min(max(seconds, 0), Self.longestHold)
        }
        #endif
    }

    /// Whether this launch runs splashgen at all.
    var runsSplashgen: Bool { bundleFolder != nil || seasonURL != nil }

    /// The trust the applier and the fetcher get: the pinned key, or unsigned bundles by choice.
    /// - Throws: ``Problem`` when neither is given or the key file does not read.
    func trust() throws(Problem) -> BundleTrust {
        guard let keyFile else {
            guard acceptUnsigned else { throw .noTrust }
            return .acceptingUnsignedBundles
        }
        let text: String
        do { text = try String(contentsOf: keyFile, encoding: .utf8) } catch {
            throw .badKeyFile(keyFile.path, "\(error)")
        }
        do { return .pinned(try PinnedKey(text.trimmingCharacters(in: .whitespacesAndNewlines))) } catch {
            throw .badKeyFile(keyFile.path, "\(error)")
        }
    }

    /// Sleeps on the calling (main) thread for ``holdSeconds``, if asked to.
    func holdLaunch() {
        guard holdSeconds > 0 else { return }
        DemoLog.notice("holding the launch screen for \(holdSeconds) s")
        Thread.sleep(forTimeInterval: holdSeconds)
    }
}
