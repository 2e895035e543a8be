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
        subcommands: [
            BuildCommand.self, ValidateCommand.self, DevicesCommand.self, InspectCommand.self, DecodeCommand.self,
            ApplyCommand.self, RestoreCommand.self, StatusCommand.self, SimCommand.self,
            KeygenCommand.self, CertifyCommand.self, SignCommand.self, PackCommand.self, UnpackCommand.self, VerifyCommand.self,
            PublishCommand.self, FetchCommand.self, PreviewCommand.self,
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
    /// unsigned ones too (what `--key` left out means, said in each command's help).
    static func trust(keyFile path: String?) throws -> BundleTrust {
        guard let path else { return .acceptingUnsignedBundles }
        return .pinned(try PinnedKey(String(contentsOfFile: path, encoding: .utf8)))
    }

    /// The catalogue's device names, for shell completion of `--device`.
    @Sendable static func deviceNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        (try? DeviceCatalogue.bundled().devices.map(\.name)) ?? []
    }
}
