import Foundation
import SplashFormat

/// An app whose launch screen is its Info.plist `UILaunchScreen` dictionary, as the simulated OS
/// knows it: a JSON stand-in holding the dictionary as Info.plist spells it and the asset catalog's
/// colours and images it names. The simulated OS draws it as SplashBoard does (docs/ios-launch-cache.md
/// §10): the `UIColorName` colour over the whole window (`systemBackground`, white or black, when
/// the key or the colour is missing), and the `UIImageName` image at its natural size, centred in
/// the window, or in its safe area with `UIImageRespectsSafeAreaInsets`, never scaled; no marker
/// view. It becomes a ``Storyboard`` (one scene per appearance, one image view), so the same
/// renderer draws both kinds, as SplashBoard's one renderer does.
///
/// ```json
/// { "bundle_id": "com.example.shop", "orientations": ["portrait", "landscape"],
///   "UILaunchScreen": { "UIColorName": "LaunchBackground", "UIImageName": "LaunchLogo",
///                       "UIImageRespectsSafeAreaInsets": false },
///   "assets": { "colors": { "LaunchBackground": { "light": "#FFFFFF", "dark": "#000000" } },
///               "images": { "LaunchLogo": { "light": "art/logo.png", "dark": "art/logo-dark.png", "width": 200 } } } }
/// ```
/// An image's `width` is its natural width in points (its pixels ÷ its scale in the catalog).
enum InfoPlistLaunchScreen {
    /// Whether the stand-in's JSON is this kind (it has a `UILaunchScreen` key).
    static func describes(_ data: Data) -> Bool {
        ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["UILaunchScreen"] != nil
    }

    /// The stand-in as the simulated OS draws it, or why not, naming the file and the key.
    static func load(_ data: Data, name: String, folder: URL) throws(SimulatorError) -> Storyboard {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch let error as DecodingError {
            throw .storyboard("\(name): \(Storyboard.describe(error))")
        } catch { throw .storyboard("\(name): not JSON") }
        guard !file.bundle_id.isEmpty else { throw .storyboard("\(name): bundle_id is empty") }
        guard !file.orientations.isEmpty else { throw .storyboard("\(name): orientations is empty") }
        // UIColor(named:) of the colour, or systemBackground: white in light, black in dark.
        var colors: [Appearance: RGBAColor] = [.light: RGBAColor(r: 255, g: 255, b: 255), .dark: RGBAColor(r: 0, g: 0, b: 0)]
        if let colorName = file.UILaunchScreen.UIColorName, let asset = file.assets?.colors?[colorName] {
            let light = try Storyboard.colour(asset.light, "assets.colors.\(colorName).light", in: name)
            colors = [
                .light: light,
                .dark: try asset.dark.map { text throws(SimulatorError) in try Storyboard.colour(text, "assets.colors.\(colorName).dark", in: name) } ?? light,
            ]
        }
        var scenes: [Appearance: Storyboard.Scene] = [:]
        for appearance in Appearance.allCases {
            var views: [Storyboard.ImageView] = []
            // An image the catalog lacks is drawn as none, as SplashBoard skips it.
            if let imageName = file.UILaunchScreen.UIImageName, let asset = file.assets?.images?[imageName] {
                guard asset.width > 0 else { throw .storyboard("\(name): assets.images.\(imageName).width must be a positive number of points") }
                views.append(
                    Storyboard.ImageView(
                        image: appearance == .dark ? asset.dark ?? asset.light : asset.light, contentMode: .sized, anchor: (0.5, 0.5),
                        width: asset.width, height: nil, margin: 0, safeArea: file.UILaunchScreen.UIImageRespectsSafeAreaInsets ?? false, only: nil))
            }
            scenes[appearance] = Storyboard.Scene(background: colors[appearance]!, imageViews: views)
        }
        var storyboard = Storyboard(bundleID: file.bundle_id, orientations: file.orientations, marker: [:], scenes: scenes, folder: folder)
        storyboard.launchScreenColors = colors
        return storyboard
    }

    /// The stand-in as written. Every key is checked: an unknown one (a typo) is named, not ignored.
    private struct File: Decodable {
        var bundle_id: String
        var orientations: [Orientation]
        var UILaunchScreen: Dictionary
        var assets: Assets?

        init(from decoder: any Decoder) throws {
            try Storyboard.refuseUnknownKeys(decoder, known: ["about", "bundle_id", "orientations", "UILaunchScreen", "assets"])
            let keys = try decoder.container(keyedBy: Storyboard.Key.self)
            bundle_id = try keys.decode(String.self, forKey: .init("bundle_id"))
            orientations = try keys.decode([Orientation].self, forKey: .init("orientations"))
            UILaunchScreen = try keys.decode(Dictionary.self, forKey: .init("UILaunchScreen"))
            assets = try keys.decodeIfPresent(Assets.self, forKey: .init("assets"))
        }
    }

    /// The keys of the dictionary this stand-in models (the bar keys are not modelled: a stand-in
    /// that names one is refused, not drawn wrong).
    private struct Dictionary: Decodable {
        var UIColorName: String?
        var UIImageName: String?
        var UIImageRespectsSafeAreaInsets: Bool?

        init(from decoder: any Decoder) throws {
            try Storyboard.refuseUnknownKeys(decoder, known: ["UIColorName", "UIImageName", "UIImageRespectsSafeAreaInsets"])
            let keys = try decoder.container(keyedBy: Storyboard.Key.self)
            UIColorName = try keys.decodeIfPresent(String.self, forKey: .init("UIColorName"))
            UIImageName = try keys.decodeIfPresent(String.self, forKey: .init("UIImageName"))
            UIImageRespectsSafeAreaInsets = try keys.decodeIfPresent(Bool.self, forKey: .init("UIImageRespectsSafeAreaInsets"))
        }
    }

    /// The asset catalog's colours and images, by name.
    private struct Assets: Decodable {
        var colors: [String: ColorAsset]?
        var images: [String: ImageAsset]?
    }

    /// A named colour: its light value and, when it has one, its dark appearance.
    private struct ColorAsset: Decodable {
        var light: String
        var dark: String?
    }

    /// A named image: its PNG (relative to the stand-in's folder), its dark appearance's if any, and
    /// its natural width in points.
    private struct ImageAsset: Decodable {
        var light: String
        var dark: String?
        var width: Double
    }
}
