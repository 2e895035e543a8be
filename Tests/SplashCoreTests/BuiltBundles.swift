// Expectations: none here; test support: the example campaigns, built once by splashgen.
import Foundation
import SplashCore
import SplashFormat
import SplashTestSupport

/// The example campaigns built once for all tests that read their output (builds take seconds).
struct BuiltBundle: Sendable {
    let campaign: Campaign
    let report: BuildReport
    var manifest: Manifest { report.manifest }

    func object(_ snapshot: Manifest.Snapshot) throws -> Data {
        try Data(contentsOf: report.bundle.appendingPathComponent("objects").appendingPathComponent(snapshot.object))
    }

    func decoded(_ snapshot: Manifest.Snapshot) throws -> RGBAImage {
        try SnapshotDecoder().decode(try object(snapshot))
    }

    /// `file` built, in `encoding` when given, for `devices` only when given (else its own screens).
    static func build(
        _ file: String, encoding: SnapshotEncoding? = nil, devices: [String]? = nil, cache: Bool = true, output: URL = temporaryFolder()
    ) -> Result<BuiltBundle, any Error> {
        Result {
            var campaign = try loadCampaign(Fixtures.campaigns.appendingPathComponent(file))
            if let encoding { campaign.encoding = encoding }
            if let devices {
                let catalogue = try DeviceCatalogue.bundled()
                campaign.screens = DeviceCatalogue.screens(of: catalogue.select(.some(devices.map { .named($0) })))
            }
            var builder = BundleBuilder(outputRoot: output)
            builder.useCache = cache
            return BuiltBundle(campaign: campaign, report: try builder.build(campaign))
        }
    }
}

enum Built {
    /// double11.yaml over the whole catalogue, in the default encoding (ATX, LZFSE of ASTC).
    static let double11 = BuiltBundle.build("double11.yaml")
    /// The same campaign as KTX 1.1 in Apple's compressed form.
    static let double11KTX = BuiltBundle.build("double11.yaml", encoding: .ktx)
    /// The same campaign encoded as PNG: the lossless reference for the ASTC objects.
    static let double11PNG = BuiltBundle.build("double11.yaml", encoding: .png)
    /// mourning.yaml (grey).
    static let mourning = BuiltBundle.build("mourning.yaml")
}
