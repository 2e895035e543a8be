import Foundation
import SplashApplier
import SplashCore
import SplashFormat

/// The app's `LaunchScreen.storyboard`, stood for by a campaign file (its layers, backgrounds and
/// marker colours), as the OS renders and caches it on one screen and iOS version: every variant
/// the app supports (light only before iOS 13, which has no dark mode), drawn by the simulator's
/// own ``StoryboardRenderer`` and stored in the iOS version's ``CacheFormat`` (or the one asked for). The campaign file is
/// read through the campaign model (it describes the app); the screen, the art's pixels and the
/// cached bytes are the simulator's own.
struct LaunchScreen {
    let campaign: Campaign
    let screen: PhoneScreen
    let format: CacheFormat
    let variants: [SpringBoardModel.Variant]
    private let storyboard: StoryboardRenderer

    init(
        campaignAt url: URL, device name: String, ios: OSVersion, interfaceStyle: InterfaceStyle = .automatic, format: CacheFormat? = nil
    ) throws {
        let screen = try PhoneScreen.named(name)
        let campaign = try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: url, displayPath: url.lastPathComponent)
        var art: [String: RGBAImage] = [:]
        for layer in campaign.appearances.values.flatMap(\.layers) where art[layer.image] == nil {
            guard let image = OSCodecs.pixels(png: try Data(contentsOf: campaign.url(of: layer))) else {
                throw SimulatorError.codec("the storyboard's image \(layer.image) does not decode as PNG")
            }
            art[layer.image] = image
        }
        self.campaign = campaign
        self.screen = screen
        self.format = format ?? CacheFormat(ios: ios)
        let appearances: [Appearance]
        switch (ios.major >= 13, interfaceStyle) {
        case (false, _), (true, .light): appearances = [.light]
        case (true, .dark): appearances = [.dark]
        case (true, .automatic): appearances = campaign.renderedAppearances
        }
        variants = campaign.orientations.flatMap { orientation in
            appearances.map { SpringBoardModel.Variant(orientation: orientation, appearance: $0) }
        }
        storyboard = StoryboardRenderer(campaign: campaign, art: art)
    }

    /// The variant the OS shows now: the current orientation and style, as far as the app supports them.
    func variant(for model: SpringBoardModel) -> SpringBoardModel.Variant {
        let orientation = variants.contains { $0.orientation == model.orientation } ? model.orientation : .portrait
        let appearance = variants.contains { $0.appearance == model.appearance } ? model.appearance : (variants.first?.appearance ?? .light)
        return SpringBoardModel.Variant(orientation: orientation, appearance: appearance)
    }

    /// The pixel size of a variant on this screen.
    func pixels(_ variant: SpringBoardModel.Variant) -> (width: Int, height: Int) {
        screen.pixels(variant.orientation)
    }

    /// What the OS draws for a variant (`black`: its image views rendered solid black), at `scale`
    /// (the screen's own by default; the app switcher's downscaled copies use 1).
    func image(_ variant: SpringBoardModel.Variant, black: Bool, scale: Int? = nil) -> RGBAImage {
        storyboard.render(on: screen, scale: scale ?? screen.scale, variant, blackImages: black)
    }

    /// The bytes the OS caches for a variant.
    func render(_ variant: SpringBoardModel.Variant, black: Bool, encoder: OSCodecs.ASTCEncoder) throws -> Data {
        try format.file(for: image(variant, black: black), encoder: encoder)
    }
}
