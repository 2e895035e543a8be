import Foundation
import SplashApplier
import SplashFormat

/// The app's `LaunchScreen.storyboard` (its ``Storyboard`` stand-in) as the OS renders and caches it
/// on one screen and iOS version: every variant the app supports (light only before iOS 13, which
/// has no dark mode), drawn by the simulator's own ``StoryboardRenderer`` and stored in the iOS
/// version's ``CacheFormat`` (or the one asked for). The storyboard, the screen, the art's pixels
/// and the cached bytes are all read and made by the simulator's own code.
package struct LaunchScreen {
    let storyboard: Storyboard
    let screen: PhoneScreen
    let format: CacheFormat
    let variants: [SpringBoardModel.Variant]
    private let renderer: StoryboardRenderer

    package init(
        storyboardAt url: URL, device name: String, ios: OSVersion, interfaceStyle: InterfaceStyle = .automatic, format: CacheFormat? = nil,
        requiresFullScreen: Bool = false, iphoneOnly: Bool = false
    ) throws {
        // An iPhone-only app on an iPad is cached at an iPhone's screen (docs/ios-launch-cache.md §1).
        let device = try PhoneScreen.named(name)
        let screen = iphoneOnly && device.iphoneApp != nil ? try device.asIPhoneApp() : device
        let storyboard = try Storyboard.load(url)
        var art: [String: RGBAImage] = [:]
        for view in storyboard.scenes.values.flatMap(\.imageViews) where art[view.image] == nil {
            let file = URL(fileURLWithPath: view.image, relativeTo: storyboard.folder)
            guard let data = try? Data(contentsOf: file), let image = OSCodecs.pixels(png: data) else {
                throw SimulatorError.storyboard("\(url.lastPathComponent): the image \(view.image) does not read as PNG (\(file.standardizedFileURL.path))")
            }
            art[view.image] = image
        }
        self.storyboard = storyboard
        self.screen = screen
        self.format = format ?? CacheFormat(ios: ios)
        let appearances: [Appearance]
        switch (ios.major >= 13, interfaceStyle) {
        case (false, _), (true, .light): appearances = [.light]
        case (true, .dark): appearances = [.dark]
        case (true, .automatic): appearances = Appearance.allCases.filter { storyboard.scenes[$0] != nil }
        }
        // An iPad that shows apps side by side caches a side-layout window beside each full screen,
        // for an app that does not require full screen (§1).
        let windows: [SpringBoardModel.Window?] = screen.sideLayout != nil && !requiresFullScreen ? [nil, .side] : [nil]
        variants = windows.flatMap { window in
            storyboard.orientations.flatMap { orientation in
                appearances.map { SpringBoardModel.Variant(orientation: orientation, appearance: $0, window: window) }
            }
        }
        renderer = StoryboardRenderer(storyboard: storyboard, art: art)
    }

    /// The variant the OS shows now: the current orientation and style, as far as the app supports
    /// them, full screen.
    func variant(for model: SpringBoardModel) -> SpringBoardModel.Variant {
        let orientation = variants.contains { $0.orientation == model.orientation } ? model.orientation : .portrait
        let appearance = variants.contains { $0.appearance == model.appearance } ? model.appearance : (variants.first?.appearance ?? .light)
        return SpringBoardModel.Variant(orientation: orientation, appearance: appearance)
    }

    /// The pixel size of a variant on this screen.
    func pixels(_ variant: SpringBoardModel.Variant) -> (width: Int, height: Int) {
        screen.pixels(variant.orientation, window: variant.window)
    }

    /// What the OS draws for a variant (`black`: its image views rendered solid black), at `scale`
    /// (the screen's own by default; the app switcher's downscaled copies use 1).
    package func image(_ variant: SpringBoardModel.Variant, black: Bool, scale: Int? = nil) -> RGBAImage {
        renderer.render(on: screen, scale: scale ?? screen.scale, variant, blackImages: black)
    }

    /// The bytes the OS caches for a variant.
    package func render(_ variant: SpringBoardModel.Variant, black: Bool, encoder: OSCodecs.ASTCEncoder) throws -> Data {
        try format.file(for: image(variant, black: black), encoder: encoder)
    }
}
