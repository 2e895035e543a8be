import Foundation
import SplashFormat

/// The app's `LaunchScreen.storyboard` as the simulated OS knows it: a small JSON stand-in with the
/// scenes' backgrounds, their image views and the marker view's colours, read here with the
/// simulator's own code. It is deliberately not a campaign file: the generator reads campaigns with
/// its loader, the simulated OS reads the app's storyboard with this, so a loader bug cannot pass on
/// both sides. `Resources/launch-screen/LaunchScreen.json` is the shipped one (the screen
/// `campaigns/default.yaml` describes; a test keeps the two the same).
///
/// ```json
/// { "bundle_id": "com.example.shop", "orientations": ["portrait", "landscape"],
///   "marker_view": { "light": "#FFFFFF", "dark": "#000000" },
///   "scenes": { "light": { "background": "#FFFFFF",
///       "image_views": [ { "image": "art/logo.png", "content_mode": "sized", "width": 160 } ] } } }
/// ```
package struct Storyboard: Sendable {
    /// The app's bundle identifier (its launch folder's name).
    package var bundleID: String
    /// The orientations the app supports.
    package var orientations: [Orientation]
    /// The bottom-right 0.5 pt marker view's colour in each appearance (none for a `UILaunchScreen` app).
    package var marker: [Appearance: RGBAColor]
    /// For an app whose launch screen is its Info.plist `UILaunchScreen` dictionary (the stand-in
    /// ``InfoPlistLaunchScreen``): the background colour in each appearance, as the app resolves it
    /// (`UIColor(named:)` in a light and a dark trait collection). Nil for a storyboard.
    package var launchScreenColors: [Appearance: RGBAColor]? = nil
    /// What each appearance draws; `light` is always there.
    package var scenes: [Appearance: Scene]
    /// The folder image paths start from.
    package var folder: URL

    /// One appearance's view: an opaque background and image views, bottom first.
    package struct Scene: Sendable {
        package var background: RGBAColor
        package var imageViews: [ImageView]
    }

    /// An image view, constrained to the screen or its safe area.
    package struct ImageView: Sendable {
        /// The PNG, relative to the storyboard's folder.
        package var image: String
        /// How the image fills its region.
        package var contentMode: ContentMode
        /// Where it sits in its region: 0 = left/top, 0.5 = centre, 1 = right/bottom.
        package var anchor: (x: Double, y: Double)
        /// The `sized` image view's width and height constraints, in points.
        package var width: Double?, height: Double?
        /// The constraints' constant to the region's edges, in points.
        package var margin: Double
        /// Whether the region is the safe area rather than the whole screen.
        package var safeArea: Bool
        /// Only drawn in this orientation (a size-class variation), when set.
        package var only: Orientation?
    }

    /// How an image view sizes its image.
    package enum ContentMode: String, Decodable, Sendable {
        /// `scaleAspectFill` over its region.
        case aspectFill = "aspect_fill"
        /// `scaleAspectFit` inside its region.
        case aspectFit = "aspect_fit"
        /// Width and/or height constraints; the image keeps its aspect.
        case sized
    }

    /// The storyboard in the JSON file at `url`, or why it is not one, naming the file and the key.
    package static func load(_ url: URL) throws(SimulatorError) -> Storyboard {
        let name = url.lastPathComponent
        guard ["json"].contains(url.pathExtension.lowercased()) else {
            throw .storyboard(
                "\(url.path): the app's launch screen is given to the simulator as a storyboard stand-in in JSON (docs/ios-integration.md, \"The storyboard stand-in\"), not a campaign file"
            )
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .storyboard("\(url.path): cannot be read") }
        if InfoPlistLaunchScreen.describes(data) { return try InfoPlistLaunchScreen.load(data, name: name, folder: url.deletingLastPathComponent()) }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch let error as DecodingError {
            throw .storyboard("\(name): \(Self.describe(error))")
        } catch { throw .storyboard("\(name): not JSON") }
        return try file.storyboard(in: url.deletingLastPathComponent(), name: name)
    }

    /// A decoding error as a key path and what was wrong there.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "not a storyboard stand-in"
        }
    }

    /// The file as written. Every key is checked: an unknown one (a typo) is named, not ignored.
    fileprivate struct File: Decodable {
        var bundle_id: String
        var orientations: [Orientation]
        var marker_view: [String: String]?
        var scenes: [String: FileScene]

        init(from decoder: any Decoder) throws {
            try Storyboard.refuseUnknownKeys(decoder, known: ["about", "bundle_id", "orientations", "marker_view", "scenes"])
            let keys = try decoder.container(keyedBy: Key.self)
            bundle_id = try keys.decode(String.self, forKey: Key("bundle_id"))
            orientations = try keys.decode([Orientation].self, forKey: Key("orientations"))
            marker_view = try keys.decodeIfPresent([String: String].self, forKey: Key("marker_view"))
            scenes = try keys.decode([String: FileScene].self, forKey: Key("scenes"))
        }
    }

    fileprivate struct FileScene: Decodable {
        var background: String
        var image_views: [FileImageView]?

        init(from decoder: any Decoder) throws {
            try Storyboard.refuseUnknownKeys(decoder, known: ["background", "image_views"])
            let keys = try decoder.container(keyedBy: Key.self)
            background = try keys.decode(String.self, forKey: Key("background"))
            image_views = try keys.decodeIfPresent([FileImageView].self, forKey: Key("image_views"))
        }
    }

    fileprivate struct FileImageView: Decodable {
        var image: String
        var content_mode: ContentMode
        var anchor: String?
        var width: Double?, height: Double?
        var margin: Double?
        var safe_area: Bool?
        var only: Orientation?

        init(from decoder: any Decoder) throws {
            try Storyboard.refuseUnknownKeys(
                decoder, known: ["image", "content_mode", "anchor", "width", "height", "margin", "safe_area", "only"])
            let keys = try decoder.container(keyedBy: Key.self)
            image = try keys.decode(String.self, forKey: Key("image"))
            content_mode = try keys.decode(ContentMode.self, forKey: Key("content_mode"))
            anchor = try keys.decodeIfPresent(String.self, forKey: Key("anchor"))
            width = try keys.decodeIfPresent(Double.self, forKey: Key("width"))
            height = try keys.decodeIfPresent(Double.self, forKey: Key("height"))
            margin = try keys.decodeIfPresent(Double.self, forKey: Key("margin"))
            safe_area = try keys.decodeIfPresent(Bool.self, forKey: Key("safe_area"))
            only = try keys.decodeIfPresent(Orientation.self, forKey: Key("only"))
        }
    }

    /// A key of the file, by its name.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws when the object being decoded has a key outside `known`.
    static func refuseUnknownKeys(_ decoder: any Decoder, known: Set<String>) throws {
        let keys = try decoder.container(keyedBy: Key.self)
        if let unknown = keys.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: keys.codingPath, debugDescription: "unknown key \"\(unknown)\" (known: \(known.sorted().joined(separator: ", ")))"))
        }
    }

    /// `#RRGGBB` read by the simulator's own code, or why not, naming the file and the key.
    static func colour(_ text: String, _ key: String, in name: String) throws(SimulatorError) -> RGBAColor {
        let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { throw .storyboard("\(name): \(key) is \"\(text)\", not a colour such as #1A2B3C") }
        return RGBAColor(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    static let anchors: [String: (x: Double, y: Double)] = [
        "center": (0.5, 0.5), "top": (0.5, 0), "bottom": (0.5, 1), "left": (0, 0.5), "right": (1, 0.5),
        "top-left": (0, 0), "top-right": (1, 0), "bottom-left": (0, 1), "bottom-right": (1, 1),
    ]
}

extension Storyboard.File {
    /// The checked storyboard: every appearance, colour and anchor known, light present, sizes given
    /// where the content mode needs them.
    fileprivate func storyboard(in folder: URL, name: String) throws(SimulatorError) -> Storyboard {
        func colour(_ text: String, _ key: String) throws(SimulatorError) -> RGBAColor { try Storyboard.colour(text, key, in: name) }
        func appearance(_ text: String, _ key: String) throws(SimulatorError) -> Appearance {
            guard let appearance = Appearance(rawValue: text) else { throw .storyboard("\(name): \(key).\(text) is not light or dark") }
            return appearance
        }
        guard !bundle_id.isEmpty else { throw .storyboard("\(name): bundle_id is empty") }
        guard !orientations.isEmpty else { throw .storyboard("\(name): orientations is empty") }
        var marker: [Appearance: RGBAColor] = [:]
        for (key, value) in marker_view ?? [:] { marker[try appearance(key, "marker_view")] = try colour(value, "marker_view.\(key)") }
        var scenes: [Appearance: Storyboard.Scene] = [:]
        for (key, scene) in self.scenes {
            let path = "scenes.\(key)"
            var views: [Storyboard.ImageView] = []
            for (index, view) in (scene.image_views ?? []).enumerated() {
                let at = "\(path).image_views[\(index)]"
                guard let anchor = Storyboard.anchors[view.anchor ?? "center"] else {
                    throw .storyboard(
                        "\(name): \(at).anchor is \"\(view.anchor ?? "")\", not one of \(Storyboard.anchors.keys.sorted().joined(separator: ", "))")
                }
                if view.content_mode == .sized, view.width == nil, view.height == nil {
                    throw .storyboard("\(name): \(at) is sized but has neither width nor height")
                }
                views.append(
                    Storyboard.ImageView(
                        image: view.image, contentMode: view.content_mode, anchor: anchor, width: view.width, height: view.height,
                        margin: view.margin ?? 0, safeArea: view.safe_area ?? (view.content_mode == .sized), only: view.only))
            }
            scenes[try appearance(key, "scenes")] = Storyboard.Scene(background: try colour(scene.background, "\(path).background"), imageViews: views)
        }
        guard scenes[.light] != nil else { throw .storyboard("\(name): scenes.light is missing") }
        return Storyboard(
            bundleID: bundle_id, orientations: orientations,
            marker: [.light: marker[.light] ?? RGBAColor(r: 255, g: 255, b: 255), .dark: marker[.dark] ?? RGBAColor(r: 0, g: 0, b: 0)],
            scenes: scenes, folder: folder)
    }
}
