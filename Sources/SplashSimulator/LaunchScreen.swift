import Foundation
import SplashApplier
import SplashCore

/// The app's `LaunchScreen.storyboard`, stood for by a campaign file (its layers, backgrounds and
/// marker colours), as the OS renders and caches it on one device and iOS version: every variant
/// the app supports (light only before iOS 13, which has no dark mode), drawn by the simulator's
/// own ``StoryboardRenderer`` and stored in the iOS version's ``CacheFormat``.
struct LaunchScreen {
    let campaign: Campaign
    let device: Device
    let format: CacheFormat
    let variants: [SpringBoardModel.Variant]
    private let storyboard: StoryboardRenderer

    init(campaignAt url: URL, device name: String, ios: OSVersion, interfaceStyle: InterfaceStyle = .automatic) throws {
        let catalogue = try DeviceCatalogue.bundled()
        guard let device = catalogue.device(named: name) else { throw SimulatorError.unknownDevice(name) }
        let campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: url, displayPath: url.lastPathComponent)
        let artwork = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
        let art = try artwork.decode(Set(artwork.items.keys), maxPixels: PNGCodec.defaultMaxPixels)
        self.campaign = campaign
        self.device = device
        format = CacheFormat(ios: ios)
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
    func pixels(_ variant: SpringBoardModel.Variant) -> Manifest.Size {
        DeviceCatalogue.screens(of: [device])[0].pixels(variant.orientation)
    }

    /// What the OS draws for a variant (`black`: its image views rendered solid black), at `scale`
    /// (the device's own by default; the app switcher's downscaled copies use 1).
    func image(_ variant: SpringBoardModel.Variant, black: Bool, scale: Int? = nil) -> RGBAImage {
        var device = device
        if let scale { device.scale = scale }
        return storyboard.render(on: device, variant, blackImages: black)
    }

    /// The bytes the OS caches for a variant.
    func render(_ variant: SpringBoardModel.Variant, black: Bool, codec: ASTCCodec) throws -> Data {
        try format.encode(image(variant, black: black), codec: codec)
    }
}
