import ArgumentParser
import Foundation
import SplashApplier
import SplashCore

/// `splashgen build`: campaign files → bundles under Output/.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render every device × orientation × appearance of a campaign into Output/<name>/.")

    @Argument(help: "Campaign YAML files.")
    var campaigns: [String]

    @Option(name: [.short, .long], help: "The folder that receives the bundles.")
    var output = "Output"

    @Flag(help: "Render everything again instead of reusing Output/.cache.")
    var noCache = false

    @Option(help: "Refuse art images with more pixels than this.")
    var maxImagePixels = PNGCodec.defaultMaxPixels

    @Option(name: .shortAndLong, help: "Snapshots rendered at once (default: all cores).")
    var jobs: Int?

    func run() throws {
        let catalogue: DeviceCatalogue
        do { catalogue = try DeviceCatalogue.bundled() } catch { throw Console.fail(error) }
        var builder = BundleBuilder(outputRoot: URL(fileURLWithPath: output))
        builder.useCache = !noCache
        builder.maxImagePixels = maxImagePixels
        if let jobs { builder.workers = max(1, jobs) }
        var failed = false
        for path in campaigns {
            do {
                let campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: URL(fileURLWithPath: path), displayPath: path)
                let report = try builder.build(campaign, progress: Console.progress("\(campaign.name): rendering"))
                print(Self.summary(report, campaign: campaign, output: output))
            } catch {
                _ = Console.fail(error, context: path)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    static func summary(_ report: BuildReport, campaign: Campaign, output: String) -> String {
        let app = report.manifest.app
        let versions = app.minVersion == nil && app.maxVersion == nil ? "all versions"
            : "versions \(app.minVersion ?? "any") to \(app.maxVersion ?? "any")"
        let families = DeviceFamily.allCases.compactMap { family in report.snapshotsByFamily[family].map { "\(family.rawValue) \($0)" } }
        let encoding = campaign.encoding == .ktx ? "ktx (KTX 1.1, ASTC 4x4, \(campaign.astcQuality.rawValue))" : "png (PNG bytes in .ktx files)"
        let start = campaign.schedule.start.formatted(.iso8601), end = campaign.schedule.end.formatted(.iso8601)
        return """
        \(campaign.name): wrote \(output)/\(campaign.name)/
          app        \(app.bundleID), \(versions)
          schedule   \(start) → \(end)
          look       \(campaign.renderedAppearances.map(\.rawValue).joined(separator: " + ")), \(campaign.orientations.map(\.rawValue).joined(separator: " + "))\(campaign.grey ? ", grey" : "")
          encoding   \(encoding)
          snapshots  \(report.snapshots) (\(families.joined(separator: ", "))) for \(campaign.screens.count) screen sizes
          objects    \(report.uniqueObjects) unique, \(Console.bytes(report.bytes)); \(report.rendered) rendered, \(report.reused) reused from cache
          time       \(Console.seconds(report.times.total))
        """
    }
}
