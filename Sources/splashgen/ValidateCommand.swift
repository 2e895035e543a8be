import ArgumentParser
import Foundation
import SplashCore

/// `splashgen validate`: every check of a build, without rendering or writing.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check campaign files and their artwork without building.")

    @Argument(help: "Campaign YAML files.")
    var campaigns: [String]

    @Option(help: "Refuse art images with more pixels than this.")
    var maxImagePixels = PNGCodec.defaultMaxPixels

    func run() throws {
        let catalogue: DeviceCatalogue
        do { catalogue = try DeviceCatalogue.bundled() } catch { throw Console.fail(error) }
        var failed = false
        for path in campaigns {
            do {
                let campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: URL(fileURLWithPath: path), displayPath: path)
                let count = try CampaignValidator.validate(campaign, maxImagePixels: maxImagePixels)
                print("\(path): ok (\(campaign.name): \(count) snapshots)")
            } catch {
                _ = Console.fail(error, context: path)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
