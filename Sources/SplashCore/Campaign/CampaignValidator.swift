import Foundation
import SplashImaging

/// The checks of a build that need no rendering: art readable and decodable, layout possible, and
/// the art checks (``ArtChecker``).
package enum CampaignValidator {
    /// What a campaign that passed validation would build, and what it was warned of.
    package struct Validation: Sendable {
        /// How many snapshots a build would make.
        package var snapshots: Int
        /// Problems that do not stop a build.
        package var warnings: [Diagnostic]
    }

    /// Decodes every image, plans every snapshot and checks the art. Errors (and, when `strict`,
    /// warnings as errors) are thrown together.
    package static func validate(
        _ campaign: Campaign, maxImagePixels: Int = PNGCodec.defaultMaxPixels,
        strict: Bool = false
    ) throws(CampaignError) -> Validation {
        let artwork = try Artwork.read(campaign, maxPixels: maxImagePixels)
        let images = try artwork.decode(Set(artwork.items.keys), maxPixels: maxImagePixels)
        let snapshots = try SnapshotPlanner.plan(campaign, artwork: artwork, generator: SplashgenVersion.generator)
        let problems = ArtChecker.check(campaign, artwork: artwork, snapshots: snapshots, images: images)
        return Validation(snapshots: snapshots.count, warnings: try CampaignError.warnings(problems, strict: strict))
    }
}
