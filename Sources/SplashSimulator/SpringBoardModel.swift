import Foundation
import SplashApplier
import SplashFormat

/// What SpringBoard knows about the simulated device and app, kept beside the container in
/// `springboard.json` (on a phone, FrontBoard's database outside the app's reach).
public struct SpringBoardModel: Codable, Equatable, Sendable {
    /// The app's bundle identifier.
    public var bundleID: String
    /// Installed `CFBundleShortVersionString`.
    public var version: String
    /// Installed `CFBundleVersion`.
    public var build: String
    /// The storyboard stand-in (JSON) that stands for the app's `LaunchScreen.storyboard`.
    public var launchScreen: String
    /// The simulated device, by catalogue name.
    public var device: String
    /// The simulated iOS version.
    public var ios: String
    /// The interface style now.
    public var appearance: Appearance
    /// The device orientation now.
    public var orientation: Orientation
    /// Whether the OS's renders show image views as solid black (the known bug).
    public var blackRender: Bool
    /// The app's `UIUserInterfaceStyle`: a light-only or dark-only app gets only that style's snapshots.
    public var interfaceStyle: InterfaceStyle? = nil
    /// The container the OS caches launch images in, when asked for one other than the iOS
    /// version's own (the field holds KTX on current phones too).
    public var cacheFormat: CacheFormat? = nil
    /// Which cached file is which variant: the table the app cannot read.
    public var variants: [String: Variant]
    /// SHA-256 of what the OS wrote in each cached file, by name (nil in sandboxes made before it was kept).
    public var rendered: [String: String]? = nil
    /// Launches so far.
    public var launches: Int
    /// The public key the app pins (a `.pub` file's text, as `keygen` writes it): its fetches and
    /// every run of its applier check bundles against it. Nil: the app accepts unsigned bundles, as
    /// a development build may.
    public var pinnedKey: String? = nil
    /// The app's rollout draw (0 to 9,999), fixed at install; nil: the app draws its own at random,
    /// as on a phone.
    public var rolloutDraw: Int? = nil
    /// The phone's first preferred language and region, as the app reads them (nil: none given).
    public var language: String? = nil, region: String? = nil
    /// What the app's runs have put in the cache, by the SHA-256 of each file they left: the campaign
    /// whose picture it is. The simulator names a file by it once a later bundle no longer holds that
    /// campaign (withdrawn, or gone from the season).
    public var pictures: [String: String]? = nil

    /// Whether the app requires full screen on an iPad (`UIRequiresFullScreen`, or not every
    /// orientation): then iPadOS caches no side-layout window for it. Nil: it does not.
    public var requiresFullScreen: Bool? = nil
    /// Whether the app is iPhone-only: on an iPad it is shown, and its launch screen cached, at an
    /// iPhone's screen (docs/ios-launch-cache.md §1). Nil: it is not.
    public var iphoneOnly: Bool? = nil

    /// One cached launch image's variant.
    public struct Variant: Codable, Equatable, Hashable, Sendable {
        /// Portrait or landscape.
        public var orientation: Orientation
        /// Light or dark.
        public var appearance: Appearance
        /// A window smaller than the screen (an iPad's side layout); nil: the full screen.
        public var window: Window? = nil

        /// One of the four.
        package init(orientation: Orientation, appearance: Appearance, window: Window? = nil) {
            (self.orientation, self.appearance, self.window) = (orientation, appearance, window)
        }
    }

    /// A window an iPad caches beside its full screen.
    public enum Window: String, Codable, Sendable {
        /// The side-layout window, for an app that does not require full screen.
        case side
    }

    static func load(_ url: URL) throws -> SpringBoardModel {
        let decoder = JSONDecoder()
        return try decoder.decode(SpringBoardModel.self, from: Data(contentsOf: url))
    }

    package func save(_ url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
