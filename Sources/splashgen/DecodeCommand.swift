import ArgumentParser
import Foundation
import SplashCore
import SplashImaging

/// `splashgen decode`: a snapshot file to a PNG anyone can open.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a KTX (ASTC 4x4) or PNG snapshot to a PNG file.")

    @Argument(help: "A .ktx or .png file (a bundle object works too).")
    var file: String

    @Option(name: [.short, .customLong("output")], help: "The PNG to write.")
    var output: String

    func run() throws {
        do {
            let input = URL(fileURLWithPath: file)
            let target = try OutputFile.check(OutputFile.resolve(output), example: "decoded.png", inputs: [input])
            let image = try SnapshotDecoder().decode(try Data(contentsOf: input))
            try OutputFile.write(PNGCodec.encode(image), to: target, example: "decoded.png", inputs: [input])
            print("\(output): \(image.width)x\(image.height)")
        } catch {
            throw Console.fail(error, context: file)
        }
    }
}
