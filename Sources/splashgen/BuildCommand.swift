import ArgumentParser
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashImaging

/// `splashgen build`: campaign or season files → bundles under Output/.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render every device × orientation × appearance of a campaign (or a season of campaigns) into Output/<name>/.",
        discussion: """
            Each file given is a bundle of its own: a campaign file, or a season file (schema, name, and \
            campaigns: a list of campaign files) whose campaigns share one bundle. With --bundle, all the \
            campaign files given go into one bundle of that name instead.
            """)

    @Argument(help: "Campaign or season YAML files.")
    var campaigns: [String]

    @Option(name: [.short, .long], help: "The folder that receives the bundles.")
    var output = "Output"

    @Option(help: "Put every campaign file given into one bundle (a season) with this name.")
    var bundle: String?

    @Flag(help: "Render everything again instead of reusing Output/.cache.")
    var noCache = false

    @Option(help: "Refuse art images with more pixels than this.")
    var maxImagePixels = PNGCodec.defaultMaxPixels
    /// The most `--max-image-pixels` may allow: 16384 × 16384, a 1 GiB RGBA image.
    static let largestImagePixels = 16384 * 16384

    @Option(name: .shortAndLong, help: "Snapshots rendered at once (default: all cores).")
    var jobs: Int?

    @Flag(help: "Treat the art checks' warnings as errors: nothing is written when there are any.")
    var strict = false

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256; found \(jobs)") }
        if !(1...Self.largestImagePixels).contains(maxImagePixels) {
            throw ValidationError("--max-image-pixels must be from 1 to \(Self.largestImagePixels); found \(maxImagePixels)")
        }
        if let bundle, !Season.isValidName(bundle) {
            throw ValidationError("--bundle expects \(Season.nameRule) (it names the folder under \(output)/); found \"\(bundle)\"")
        }
    }

    func run() throws {
        let loader: SeasonLoader
        do { loader = SeasonLoader(catalogue: try DeviceCatalogue.bundled()) } catch { throw Console.fail(error) }
        var builder = BundleBuilder(outputRoot: URL(fileURLWithPath: output))
        builder.useCache = !noCache
        builder.maxImagePixels = maxImagePixels
        if let jobs { builder.workers = jobs }
        builder.strict = strict
        let inputs = Self.seasons(campaigns, bundle: bundle, loader: loader)
        var failed = false
        var seasons: [(path: String, season: Season)] = []
        for input in inputs {
            do { seasons.append((input.path, try input.load())) } catch {
                _ = Console.fail(error, context: input.path)
                failed = true
            }
        }
        // Each bundle is its own folder under the output: two of one name would write it in turn,
        // the second silently replacing the first. Refused before anything is built.
        var clash = false
        for (index, (path, season)) in seasons.enumerated() {
            guard let earlier = seasons[..<index].first(where: { $0.season.name == season.name }) else { continue }
            let problem =
                "the bundle name \(season.name) is already \(earlier.path)'s; both would write \(output)/\(season.name)/: give one another name, or build them into one bundle with --bundle"
            if season.campaigns.count == 1, let campaign = season.campaigns.first, campaign.name == season.name {
                _ = Console.fail(CampaignError([Diagnostic(campaign.nameSource, problem)]))
            } else {
                _ = Console.fail(ValidationError(problem), context: path)
            }
            clash = true
        }
        if clash { throw ExitCode.failure }
        if strict {
            // --strict: every file checked before any is built, so a warning anywhere writes nothing at all.
            for (path, season) in seasons {
                for campaign in season.campaigns {
                    do { _ = try CampaignValidator.validate(campaign, maxImagePixels: maxImagePixels, strict: true) } catch {
                        _ = Console.fail(error, context: path)
                        failed = true
                    }
                }
            }
            if failed { throw ExitCode.failure }
        }
        for (path, season) in seasons {
            do {
                let report = try builder.build(season, progress: Console.progress("\(season.name): rendering"), waiting: Console.waiting(for: output))
                Console.warn(season.warnings + report.warnings)
                print(Self.summary(report, season: season, output: output))
            } catch {
                _ = Console.fail(error, context: path)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// The seasons `files` make, each with the path its messages name: one per file, or with
    /// `bundle` all of them as one season of that name. Loaded when asked, so each failure is its own.
    static func seasons(_ files: [String], bundle: String?, loader: SeasonLoader) -> [(path: String, load: () throws -> Season)] {
        guard let bundle else { return files.map { path in (path, { try loader.load(contentsOf: URL(fileURLWithPath: path), displayPath: path) }) } }
        return [(files.joined(separator: " "), { try loader.load(files.map { (URL(fileURLWithPath: $0), $0) }, name: bundle) })]
    }

    static func summary(_ report: BuildReport, season: Season, output: String) -> String {
        let families = DeviceFamily.allCases.compactMap { family in report.snapshotsByFamily[family].map { "\(family.rawValue) \($0)" } }
        let screens = Set(season.campaigns.flatMap { $0.screens.map { $0.pixels(.portrait) } }).count
        var lines = ["\(season.name): wrote \(output)/\(season.name)/", "  app        \(report.manifest.app.bundleID)"]
        for campaign in season.campaigns {
            let label = season.campaigns.count == 1 ? "" : "\(campaign.name): "
            let versions =
                campaign.app.minVersion == nil && campaign.app.maxVersion == nil
                ? "all versions"
                : "versions \(campaign.app.minVersion ?? "any") to \(campaign.app.maxVersion ?? "any")"
            let encoding: String
            switch campaign.encoding {
            case .atx: encoding = "atx (launch-snapshot ATX, LZFSE of ASTC 4x4, \(campaign.astcQuality.rawValue))"
            case .ktx: encoding = "ktx (KTX 1.1 with Apple's compression, LZFSE of ASTC 4x4, \(campaign.astcQuality.rawValue))"
            case .ktxPlain: encoding = "ktx-plain (KTX 1.1, ASTC 4x4 uncompressed: 1 byte a pixel, \(campaign.astcQuality.rawValue))"
            case .png: encoding = "png (PNG bytes in .ktx files)"
            }
            let zone = campaign.scheduleTimeZone
            let end = campaign.schedule.end.map { ScheduleTime.format($0, in: zone) } ?? "no end"
            lines.append(
                "  \(season.campaigns.count == 1 ? "schedule " : "campaign ")  \(label)\(ScheduleTime.format(campaign.schedule.start, in: zone)) → \(end), priority \(campaign.priority), \(versions)"
            )
            lines.append(
                "  look       \(label)\(campaign.renderedAppearances.map(\.rawValue).joined(separator: " + ")), \(campaign.orientations.map(\.rawValue).joined(separator: " + "))\(campaign.grey ? ", grey" : "")"
            )
            lines.append("  encoding   \(label)\(encoding)")
        }
        lines.append("  snapshots  \(report.snapshots) (\(families.joined(separator: ", "))) for \(screens) screen sizes")
        lines.append(
            "  objects    \(report.uniqueObjects) unique, \(Console.bytes(report.bytes)); \(report.rendered) rendered, \(report.reused) reused from cache")
        lines.append("  time       \(Console.seconds(report.times.total))")
        return lines.joined(separator: "\n")
    }
}
