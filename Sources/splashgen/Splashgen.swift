import ArgumentParser

/// The `splashgen` command: precomputes iOS launch-screen snapshots at build time.
@main
struct Splashgen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashgen",
        abstract: "Precompute iOS launch-screen snapshots for every iPhone and iPad, at build time.",
        subcommands: [BuildCommand.self, ValidateCommand.self, DevicesCommand.self, InspectCommand.self, DecodeCommand.self,
                      ApplyCommand.self, RestoreCommand.self, StatusCommand.self, SimCommand.self,
                      KeygenCommand.self, SignCommand.self, PackCommand.self, UnpackCommand.self, VerifyCommand.self,
                      PublishCommand.self, FetchCommand.self, PreviewCommand.self]
    )
}
