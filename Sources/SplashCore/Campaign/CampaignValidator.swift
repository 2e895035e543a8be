import Foundation

/// The checks of a build that need no rendering: art readable and decodable, layout possible.
public enum CampaignValidator {
    /// Decodes every image and plans every snapshot; returns how many snapshots a build would make.
    public static func validate(_ campaign: Campaign, maxImagePixels: Int = PNGCodec.defaultMaxPixels) throws(CampaignError) -> Int {
        let artwork = try Artwork.read(campaign, maxPixels: maxImagePixels)
        _ = try artwork.decode(Set(artwork.items.keys), maxPixels: maxImagePixels)
        return try SnapshotPlanner.plan(campaign, artwork: artwork, generator: SplashgenVersion.generator).count
    }
}
