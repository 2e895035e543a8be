import ArgumentParser
import Foundation
import SplashApplier
import SplashCore

/// The options every applier command shares.
struct ApplierOptions: ParsableArguments {
    @Option(help: "The app's data container (a sandbox's container/ folder).")
    var container: String

    @Option(help: "The bundle folder (manifest.json + objects/).")
    var bundle: String?

    @Option(help: "CFBundleShortVersionString of the installed app.")
    var version: String

    @Option(help: "CFBundleVersion of the installed app.")
    var build: String

    @Option(help: "The iOS version (decides where the launch snapshots live).")
    var ios = "17.0"

    @Option(help: "The current time, ISO 8601 with offset (default: now).")
    var now: String?

    @Option(help: "A public key file (from keygen): refuse bundles it did not sign.")
    var key: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard OSVersion(ios) != nil else { throw ValidationError("--ios expects a version such as 17.4; found \"\(ios)\"") }
        if let now, (try? Date(now, strategy: .iso8601)) == nil {
            throw ValidationError("--now expects an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00")
        }
    }

    func applier() throws -> SnapshotApplier {
        let date = now.flatMap { try? Date($0, strategy: .iso8601) } ?? Date()
        var applier = SnapshotApplier(container: URL(fileURLWithPath: container), bundle: bundle.map { URL(fileURLWithPath: $0) },
                                      appVersion: version, appBuild: build, osVersion: OSVersion(ios)!, decoder: SnapshotDecoder(),
                                      clock: { date })
        applier.trustedKey = try key.map { try BundleSignature.publicKey(String(contentsOfFile: $0, encoding: .utf8)) }
        return applier
    }

    /// Runs one applier call and prints its report.
    func run(_ body: (SnapshotApplier) throws(ApplierError) -> ApplyReport) throws {
        do {
            let report = try body(try applier())
            print(json ? ReportText.json(report) : ReportText.text(report))
        } catch {
            throw Console.fail(error)
        }
    }
}

/// `splashgen apply`.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Swap a container's cached launch snapshots for the campaign in force (or put the originals back).")

    @OptionGroup var options: ApplierOptions

    func validate() throws {
        guard options.bundle != nil else { throw ValidationError("apply needs --bundle") }
    }

    func run() throws { try options.run { applier throws(ApplierError) in try applier.apply() } }
}

/// `splashgen restore`.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put every original launch snapshot back, byte for byte.")

    @OptionGroup var options: ApplierOptions

    func run() throws { try options.run { applier throws(ApplierError) in try applier.restore() } }
}

/// `splashgen status`.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each cached launch snapshot, how its variant was told, and what apply would do.")

    @OptionGroup var options: ApplierOptions

    func run() throws { try options.run { applier throws(ApplierError) in try applier.status() } }
}

/// Formats applier reports for people and for programs.
enum ReportText {
    static func json(_ report: ApplyReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase  // like manifest.json
        return String(decoding: try! encoder.encode(report), as: UTF8.self)
    }

    static func text(_ report: ApplyReport) -> String {
        guard let folder = report.folder else { return "no launch snapshots cached yet (the app has not been launched since install)" }
        var lines = ["folder     \(folder)"]
        lines.append("campaign   \(report.campaign ?? "none (the app's own launch screen)")")
        lines.append("next run   \(report.nextChange.map { $0.formatted(.iso8601) } ?? "no schedule change ahead")")
        if report.nothingToDo { lines.append("nothing to do") }
        if report.cacheRegenerated { lines.append("the OS rendered the cache anew: originals backed up") }
        for file in report.files {
            let variant = "\(file.width)x\(file.height) \(file.orientation.rawValue) \(file.appearance?.rawValue ?? "unknown") (by \(file.decidedBy.rawValue))"
            lines.append("  \(file.name)  \(variant)  \(file.action.rawValue), showing \(file.showing)\(file.note.map { ": " + $0 } ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
