import Foundation
import SplashApplier
import SplashCore

/// The app's `LaunchScreen.storyboard`, stood for by a campaign file, as the OS renders it on one
/// device: every variant the app supports, encoded as the OS caches it (KTX 1.1, ASTC 4×4).
struct LaunchScreen {
    let campaign: Campaign
    let screen: Screen
    let variants: [SpringBoardModel.Variant]
    private let recipes: [SpringBoardModel.Variant: RenderRecipe]
    private let art: [String: RGBAImage]

    init(campaignAt url: URL, device: String) throws {
        let catalogue = try DeviceCatalogue.bundled()
        guard let entry = catalogue.device(named: device) else { throw SimulatorError.unknownDevice(device) }
        var campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: url, displayPath: url.lastPathComponent)
        campaign.screens = DeviceCatalogue.screens(of: [entry])
        campaign.encoding = .ktx
        let artwork = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
        let planned = try SnapshotPlanner.plan(campaign, artwork: artwork, generator: SplashgenVersion.generator)
        self.campaign = campaign
        screen = campaign.screens[0]
        variants = planned.map { SpringBoardModel.Variant(orientation: $0.orientation, appearance: $0.appearance) }
        recipes = Dictionary(uniqueKeysWithValues: planned.map { (SpringBoardModel.Variant(orientation: $0.orientation, appearance: $0.appearance), $0.recipe) })
        art = try artwork.decode(Set(artwork.items.keys), maxPixels: PNGCodec.defaultMaxPixels)
    }

    /// The variant the OS shows now: the current orientation and style, as far as the app supports them.
    func variant(for model: SpringBoardModel) -> SpringBoardModel.Variant {
        let orientation = variants.contains { $0.orientation == model.orientation } ? model.orientation : .portrait
        let appearance = variants.contains { $0.appearance == model.appearance } ? model.appearance : .light
        return SpringBoardModel.Variant(orientation: orientation, appearance: appearance)
    }

    /// The pixel size of a variant on this screen.
    func pixels(_ variant: SpringBoardModel.Variant) -> Manifest.Size { screen.pixels(variant.orientation) }

    /// The KTX bytes the OS caches for a variant (`black`: its image views rendered solid black).
    func render(_ variant: SpringBoardModel.Variant, black: Bool) throws -> Data {
        let image = SnapshotRenderer.render(recipes[variant]!, art: art, blackImages: black)
        return try SnapshotEncoder(encoding: .ktx, quality: campaign.astcQuality).encode(image)
    }
}
