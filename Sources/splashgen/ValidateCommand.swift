import ArgumentParser
import Foundation
import SplashCore

/// `splashgen validate`: every check of a build, without rendering or writing.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check campaign or season files and their artwork without building.")

    @Argument(help: "Campaign or season YAML files.")
    var campaigns: [String]

    @Option(help: "Refuse art images with more pixels than this.")
    var maxImagePixels = PNGCodec.defaultMaxPixels

    @Flag(help: "Treat the art checks' warnings as errors.")
    var strict = false

    func run() throws {
        let catalogue: DeviceCatalogue
        do { catalogue = try DeviceCatalogue.bundled() } catch { throw Console.fail(error) }
        var failed = false
        for path in campaigns {
            do {
                let season = try SeasonLoader(catalogue: catalogue).load(contentsOf: URL(fileURLWithPath: path), displayPath: path)
                let results = try season.campaigns.map { ($0.name, try CampaignValidator.validate($0, maxImagePixels: maxImagePixels, strict: strict)) }
                Console.warn(results.flatMap(\.1.warnings))
                let counts = results.map { "\($0.0): \($0.1.snapshots) snapshots" }
                print("\(path): ok (\(counts.joined(separator: ", ")))")
            } catch {
                _ = Console.fail(error, context: path)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
