import ArgumentParser
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat

/// The `splashgen` command: precomputes iOS launch-screen snapshots at build time.
@main
struct Splashgen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashgen",
        abstract: "Precompute iOS launch-screen snapshots for every iPhone and iPad, at build time.",
        discussion: """
            A campaign file (YAML: dates, art, grey, light and dark) becomes a bundle of the snapshots iOS \
            caches for an app's launch screen, for every device, orientation and appearance, in the \
            OS's own format. Sign and publish it as a season; the app's SplashApplier swaps the cached \
            files while a campaign is in force and puts the originals back after. `sim` plays it all \
            on a simulated phone.

            Start with: splashgen validate campaigns/double11.yaml && splashgen build campaigns/double11.yaml
            """,
        groupedSubcommands: [
            CommandGroup(name: "Make", subcommands: [BuildCommand.self, PreviewCommand.self, DevicesCommand.self]),
            CommandGroup(name: "Check", subcommands: [ValidateCommand.self, InspectCommand.self, DecodeCommand.self, VerifyCommand.self]),
            CommandGroup(
                name: "Sign and ship",
                subcommands: [KeygenCommand.self, CertifyCommand.self, SignCommand.self, PackCommand.self, UnpackCommand.self, PublishCommand.self]),
            CommandGroup(name: "Run on a phone", subcommands: [ApplyCommand.self, RestoreCommand.self, StatusCommand.self, FetchCommand.self]),
            CommandGroup(name: "Simulate", subcommands: [SimCommand.self]),
        ]
    )

    /// Not ArgumentParser's built-in `version:`: that one also answers when a subcommand's
    /// arguments fail to parse and contain `--version` (the applier's first spelling of
    /// `--app-version`), printing a version and exiting 0 on bad input.
    @Flag(name: .customLong("version"), help: "Print splashgen's version.") var printVersion = false

    func run() async throws {
        guard printVersion else { throw CleanExit.helpRequest(self) }
        print(SplashgenVersion.current)
    }

    /// The bundles to accept: those signed by the key in `KEY.pub` at `path`, or, without one,
    /// unsigned ones too (what `--public-key` left out means, said in each command's help).
    static func trust(keyFile path: String?) throws -> BundleTrust {
        guard let path else { return .acceptingUnsignedBundles }
        return .pinned(try PinnedKey(String(contentsOfFile: path, encoding: .utf8)))
    }

    /// The catalogue's device names, for shell completion of `--device`.
    @Sendable static func deviceNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        (try? DeviceCatalogue.bundled().devices.map(\.name)) ?? []
    }
}
