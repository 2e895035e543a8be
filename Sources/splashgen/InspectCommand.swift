import ArgumentParser
import Foundation
import SplashCore

/// `splashgen inspect`: a snapshot file's header.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a KTX or PNG file's header: format, size, levels, key/values.")

    @Argument(help: "A .ktx (KTX 1.1 or ATX) or .png file (a bundle object works too).")
    var file: String

    func run() throws {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            print(file)
            let facts = try FileInspector.describe(data)
            let width = (facts.map(\.label.count).max() ?? 0) + 2
            for (label, value) in facts {
                print("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + value)
            }
        } catch {
            throw Console.fail(error, context: file)
        }
    }
}
