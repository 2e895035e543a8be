import Foundation
import SplashFormat
import SplashImaging

/// A campaign as its YAML file describes it, after validation. Pure data.
package struct Campaign: Equatable, Sendable {
    /// The newest campaign-file schema this version reads.
    package static let currentSchema = 1

    /// The campaign's name; also the bundle's folder under `Output/`.
    package var name: String
    /// The app and the version range the campaign applies to.
    package var app: Manifest.App
    /// When it is in force.
    package var schedule: Manifest.Schedule
    /// Among campaigns in force at once, the highest priority is shown.
    package var priority: Int
    /// The offset the schedule was written in, to echo its times the same way (UTC by default).
    package var scheduleTimeZone = TimeZone(secondsFromGMT: 0)!
    /// Whether the launch screen is shown in grey.
    package var grey: Bool
    /// Whether this is the app's own launch screen, as its storyboard draws it: the reference the
    /// applier tells the OS's black renders by, and what it puts in their place.
    package var ownScreen = false
    /// The share of phones that show it, in percent (`rollout:`); nil: every phone.
    package var rollout: Double? = nil
    /// Which phones it is for (`match:`); nil: every phone.
    package var match: Manifest.Match? = nil
    /// Art per language (`languages:`): a BCP 47 tag's own appearances, shown to phones whose first
    /// preferred language it is; ``appearances`` are the art for every other language.
    package var languages: [String: [Appearance: AppearanceSpec]] = [:]

    /// The campaign for each art it draws: its own (language nil), then each language's, by tag.
    package var languageVariants: [(language: String?, campaign: Campaign)] {
        [(nil, self)]
            + languages.keys.sorted().map { tag in
                var variant = self
                variant.appearances = languages[tag]!
                variant.languages = [:]
                return (tag, variant)
            }
    }
    /// What the snapshot objects hold.
    package var encoding: SnapshotEncoding
    /// astcenc effort for `ktx`.
    package var astcQuality: ASTCQuality
    /// Orientations to render.
    package var orientations: [Orientation]
    /// The screens to render, after the campaign's catalogue changes and device selection.
    package var screens: [Screen]
    /// The app storyboard's marker, as this file gives it (stamped on its snapshots; every campaign of
    /// a season gives the same one); nil for an app whose launch screen is `UILaunchScreen`
    /// (``launchScreen``), which has no view to carry one.
    package var marker: Marker?
    /// The app's `UILaunchScreen` Info.plist dictionary, when its launch screen is that rather than
    /// a storyboard (`app.launch_screen`): what tells its renders' appearance, and, for its own
    /// screen, what the OS draws (docs/ios-launch-cache.md §10).
    package var launchScreen: LaunchScreen? = nil
    /// Where the file wrote `marker` (where it wrote `name`, when it keeps the default), for a season
    /// whose campaigns disagree.
    package var markerSource: SourceLocation? = nil
    /// What each appearance shows; `light` is always present.
    package var appearances: [Appearance: AppearanceSpec]
    /// The folder that relative image paths start from.
    package var baseDirectory: URL
    /// Where the file wrote `name`, for problems found across campaigns.
    package var nameSource: SourceLocation
    /// Where the file wrote `schedule`, for problems found across campaigns.
    package var scheduleSource: SourceLocation

    /// The storyboard's bottom-right marker view.
    package struct Marker: Equatable, Hashable, Sendable {
        /// Its colour in light appearance.
        package var light: RGBAColor
        /// Its colour in dark appearance.
        package var dark: RGBAColor
        /// Side of the square in pixels.
        package var size: Int

        /// Makes a marker.
        package init(light: RGBAColor, dark: RGBAColor, size: Int) {
            self.light = light
            self.dark = dark
            self.size = size
        }

        /// The colour for one appearance.
        package subscript(appearance: Appearance) -> RGBAColor { appearance == .light ? light : dark }
    }

    /// An app's `UILaunchScreen` dictionary as the campaign describes it: the background colour
    /// (`UIColorName`, resolved) and the image (`UIImageName`) in each appearance, the image's natural
    /// width in points, and `UIImageRespectsSafeAreaInsets`. The OS draws the colour over the whole
    /// window and the image at its natural size, centred in the window or in its safe area, never
    /// scaled (docs/ios-launch-cache.md §10).
    package struct LaunchScreen: Equatable, Sendable {
        /// The background in each appearance (the same colour twice when it has no dark variant).
        package var background: [Appearance: RGBAColor]
        /// The image's PNG in each appearance, relative to the campaign's folder; empty: no image.
        package var image: [Appearance: String]
        /// Where the file wrote `image`, for problems with its art.
        package var imageSource: SourceLocation?
        /// The image's natural width, in points (its pixels ÷ its scale).
        package var imageWidth: Double?
        /// `UIImageRespectsSafeAreaInsets`: the image is centred in the safe area, not the window.
        package var imageRespectsSafeArea: Bool
        /// Where the file wrote `launch_screen`.
        package var source: SourceLocation

        /// What the OS draws in `appearance`, as a campaign appearance: the background and the image
        /// (`fit: none` at its natural width, centred).
        package func drawn(_ appearance: Appearance) -> AppearanceSpec {
            let layers = image[appearance].map { path in
                [
                    Layer(
                        image: path, source: imageSource ?? source, fit: .none, anchor: .center, width: imageWidth, height: nil, margin: 0,
                        safeArea: imageRespectsSafeArea, orientation: nil)
                ]
            }
            return AppearanceSpec(background: background[appearance] ?? background[.light]!, layers: layers ?? [], backgroundSource: source)
        }

        /// Its colours as a manifest records them.
        package var colors: Manifest.LaunchScreenColors {
            Manifest.LaunchScreenColors(light: (background[.light] ?? RGBAColor(r: 0, g: 0, b: 0)).hex, dark: (background[.dark] ?? background[.light]!).hex)
        }
    }

    /// One appearance: a background and a stack of layers, bottom first.
    package struct AppearanceSpec: Equatable, Sendable {
        /// Opaque background colour.
        package var background: RGBAColor
        /// Layers drawn in order over the background.
        package var layers: [Layer]
        /// Where the file wrote `background`, for problems with what lies under the marker.
        package var backgroundSource: SourceLocation
    }

    /// One piece of art placed on the canvas.
    package struct Layer: Equatable, Sendable {
        /// The PNG, as written in the campaign (relative to the campaign's folder).
        package var image: String
        /// Where `image` was written, for error messages.
        package var source: SourceLocation
        /// How the art is sized.
        package var fit: Fit
        /// Where it is placed within its region.
        package var anchor: Anchor
        /// Width in points (`fit: none`).
        package var width: Double?
        /// Height in points (`fit: none`).
        package var height: Double?
        /// Inset of the region from its edges, in points.
        package var margin: Double
        /// Whether the region is the safe area rather than the whole screen.
        package var safeArea: Bool
        /// Only draw in this orientation, when set.
        package var orientation: Orientation?
        /// The part of the art that must stay visible on every screen, when set.
        package var keep: Keep? = nil
        /// Only draw on screens (and windows, such as an iPad's side layout) whose width in points,
        /// in the snapshot's orientation, is within these bounds (`screen_width: {min, max}`).
        package var screenWidth = ScreenWidth()
        /// Only draw on this family's screens (`family: iphone` or `ipad`), when set.
        package var family: DeviceFamily? = nil

        /// Whether the layer is drawn on `screen` in `orientation`.
        package func isDrawn(on screen: Screen, _ orientation: Orientation) -> Bool {
            guard self.orientation == nil || self.orientation == orientation, family == nil || family == screen.family else { return false }
            let width = Double(screen.points(orientation).width)
            return screenWidth.min.map { width >= $0 } ?? true && screenWidth.max.map { width <= $0 } ?? true
        }
    }

    /// Bounds on a screen's width in points, either open.
    package struct ScreenWidth: Equatable, Sendable {
        package var min: Double?
        package var max: Double?
    }

    /// A rectangle of a layer's art, in art pixels, that every screen must show whole and clear of
    /// the safe area's insets.
    package struct Keep: Equatable, Sendable {
        /// Left edge, in art pixels from the art's left.
        package var x: Int
        /// Top edge, in art pixels from the art's top.
        package var y: Int
        /// Width in art pixels.
        package var width: Int
        /// Height in art pixels.
        package var height: Int
        /// Where the file wrote it.
        package var source: SourceLocation

        /// `[x, y, width, height]`, as the file writes it.
        package var written: String { "[\(x), \(y), \(width), \(height)]" }
    }

    /// How a layer is sized.
    package enum Fit: String, CaseIterable, Sendable {
        /// Cover the region, cropping what overflows (full-bleed art).
        case fill
        /// Fit inside the region, letterboxed by the background.
        case fit
        /// A size given in points (`width` and/or `height`).
        case none
    }

    /// Where a layer sits in its region.
    package enum Anchor: String, CaseIterable, Sendable {
        case center, top, bottom, left, right
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

        /// Horizontal and vertical position: 0 = left/top, 0.5 = centre, 1 = right/bottom.
        package var unit: (x: Double, y: Double) {
            switch self {
            case .center: return (0.5, 0.5)
            case .top: return (0.5, 0)
            case .bottom: return (0.5, 1)
            case .left: return (0, 0.5)
            case .right: return (1, 0.5)
            case .topLeft: return (0, 0)
            case .topRight: return (1, 0)
            case .bottomLeft: return (0, 1)
            case .bottomRight: return (1, 1)
            }
        }
    }

    /// The appearances to render, light first.
    package var renderedAppearances: [Appearance] { Appearance.allCases.filter { appearances[$0] != nil } }

    /// The absolute location of a layer's image.
    package func url(of layer: Layer) -> URL {
        URL(fileURLWithPath: layer.image, relativeTo: baseDirectory).standardizedFileURL
    }
}
