import ArgumentParser
import Foundation
import SplashCore

/// `splashgen inspect`: a snapshot file's header.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a KTX or PNG file's header: format, size, levels, key/values.")

    @Argument(help: "A .ktx or .png file (a bundle object works too).")
    var file: String

    func run() throws {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            print(file)
            for (label, value) in try FileInspector.describe(data) {
                print("  " + label.padding(toLength: 30, withPad: " ", startingAt: 0) + value)
            }
        } catch {
            throw Console.fail(error, context: file)
        }
    }
}
