import ArgumentParser
import Foundation
import SplashCore
import SplashImaging

/// `splashgen validate`: every check of a build, without rendering or writing.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check campaign or season files and their artwork without building.")

    @Argument(help: "Campaign or season YAML files.")
    var campaigns: [String]

    @Option(help: "Check the campaign files given as one bundle (a season) with this name, as build --bundle would build them.")
    var bundle: String?

    @Option(help: "Refuse art images with more pixels than this.")
    var maxImagePixels = PNGCodec.defaultMaxPixels

    @Flag(help: "Treat the art checks' warnings as errors.")
    var strict = false

    func validate() throws {
        if let bundle, !Season.isValidName(bundle) {
            throw ValidationError("--bundle expects \(Season.nameRule) (it names a bundle folder); found \"\(bundle)\"")
        }
        if !(1...BuildCommand.largestImagePixels).contains(maxImagePixels) {
            throw ValidationError("--max-image-pixels must be from 1 to \(BuildCommand.largestImagePixels); found \(maxImagePixels)")
        }
    }

    func run() throws {
        let catalogue: DeviceCatalogue
        do { catalogue = try DeviceCatalogue.bundled() } catch { throw Console.fail(error) }
        var failed = false
        // Each file alone, or (--bundle) all of them as the one season build --bundle would make.
        for (path, load) in BuildCommand.seasons(campaigns, bundle: bundle, loader: SeasonLoader(catalogue: catalogue)) {
            let season: Season
            do { season = try load() } catch {
                _ = Console.fail(error, context: path)
                failed = true
                continue
            }
            // Not an art problem (so not an error with --strict): where one campaign outranks another it does not cover.
            Console.warn(season.warnings)
            // Every campaign of a season is checked, whatever an earlier one found.
            var counts: [String] = [], fileFailed = false
            for campaign in season.campaigns {
                do {
                    let result = try CampaignValidator.validate(campaign, maxImagePixels: maxImagePixels, strict: strict)
                    Console.warn(result.warnings)
                    // Not an art problem (so not an error with --strict): who will not see the campaign.
                    if campaign.appearances[.dark] == nil, let light = campaign.appearances[.light] {
                        Console.warn([
                            Diagnostic(
                                light.backgroundSource,
                                "\(campaign.name) has no dark appearance: phones in dark mode keep the app's own launch screen for the whole campaign (add appearances.dark, unless the app is light-only)",
                                severity: .warning)
                        ])
                    }
                    counts.append("\(campaign.name): \(result.snapshots) snapshots")
                } catch {
                    _ = Console.fail(error, context: path)
                    fileFailed = true
                }
            }
            if fileFailed { failed = true } else { print("\(path): ok (\(counts.joined(separator: ", ")))") }
        }
        if failed { throw ExitCode.failure }
    }
}
