import ArgumentParser
import Foundation
import SplashApplier
import SplashCore
import SplashFormat

/// The options every applier command shares.
struct ApplierOptions: ParsableArguments {
    @Option(help: "The app's data container (a sandbox's container/ folder).")
    var container: String

    @Option(help: "The bundle folder (manifest.json + objects/).")
    var bundle: String?

    @OptionGroup var app: AppVersionOptions

    @Option(help: "The iOS version (decides where the launch snapshots live).")
    var ios = "17.0"

    @Option(help: "The current time, ISO 8601 with offset (default: now).")
    var now: String?

    @OptionGroup var key: PublicKeyOption

    @Option(help: "The app's UIUserInterfaceStyle: light or dark for a one-style app (no guessing), auto for both.")
    var interfaceStyle: InterfaceStyleArgument = .auto

    @Option(help: "The app's bundle identifier (default: the one whose launch folder the container holds); a bundle for another app is refused.")
    var bundleId: String?

    @Option(help: "The screen's UIScreen.scale (1-3): a screen the bundle lacks is reported in exact points.")
    var screenScale: Int?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        _ = try app.required()
        guard OSVersion(ios) != nil else { throw ValidationError("--ios expects a version such as 17.4; found \"\(ios)\"") }
        if let now, case .failure(let problem) = ScheduleTime.parse(now) { throw ValidationError("--now: \(problem); found \"\(now)\"") }
        if let screenScale, !(1...3).contains(screenScale) { throw ValidationError("--screen-scale expects 1, 2 or 3; found \(screenScale)") }
    }

    func applier() throws -> SnapshotApplier {
        let date = now.flatMap(ScheduleTime.date) ?? Date()
        let (version, build) = try app.required()
        var applier = SnapshotApplier(
            container: URL(fileURLWithPath: container), bundle: bundle.map { URL(fileURLWithPath: $0) },
            appVersion: version, appBuild: build, osVersion: OSVersion(ios)!, decoder: SnapshotDecoder(), trust: try Splashgen.trust(keyFile: key.path),
            clock: { date })
        applier.interfaceStyle = interfaceStyle.style
        applier.appBundleID = bundleId
        applier.screenScale = screenScale
        return applier
    }

    /// Runs one applier call, prints its report and exits with the code the README documents
    /// (``ApplierExitCodes``).
    func run(_ body: (SnapshotApplier) throws(ApplierError) -> ApplyReport) throws {
        let report: ApplyReport
        do { report = try body(try applier()) } catch {
            throw Console.fail(error)
        }
        print(json ? ReportText.json(report) : ReportText.text(report, bundle: bundle.map { URL(fileURLWithPath: $0) }))
        try ApplierExitCodes.check(report)
    }
}

/// `--app-version` and `--app-build`: the installed app's CFBundleShortVersionString and
/// CFBundleVersion. The first spelling `--build` still works, hidden; `--version` now asks
/// splashgen for its own version, so a command given `--version 5.2` stops, non-zero, at the
/// missing `--app-version` instead of guessing.
struct AppVersionOptions: ParsableArguments {
    @Option(name: .customLong("app-version"), help: ArgumentHelp("The app's CFBundleShortVersionString.", valueName: "version"))
    var appVersion: String?

    @Option(name: .customLong("app-build"), help: ArgumentHelp("The app's CFBundleVersion.", valueName: "build"))
    var appBuild: String?

    @Option(name: .customLong("build"), help: .hidden) var legacyBuild: String?

    /// The version given.
    var version: String? { appVersion }
    /// The build given, under either spelling.
    var build: String? { appBuild ?? legacyBuild }

    /// Both, or a usage error naming what is missing.
    func required() throws -> (version: String, build: String) {
        guard let version, let build else {
            let missing = [version == nil ? "--app-version" : nil, build == nil ? "--app-build" : nil].compactMap { $0 }.joined(separator: " and ")
            throw ValidationError("missing \(missing) (the app's CFBundleShortVersionString and CFBundleVersion; --version alone prints splashgen's version)")
        }
        return (version, build)
    }
}

/// `--interface-style`.
enum InterfaceStyleArgument: String, ExpressibleByArgument, CaseIterable {
    case light, dark, auto

    var style: InterfaceStyle {
        switch self {
        case .light: return .light
        case .dark: return .dark
        case .auto: return .automatic
        }
    }
}

/// The one exit-code rule of every command that reports an applier run (`apply`, `restore`,
/// `status`, and `sim launch` for the app's run).
enum ApplierExitCodes {
    static let discussion = """
        Exit codes: 0 the cache holds what it should, with nothing to report; 1 refused or failed with a \
        named error, and nothing was left half-done; 3 done as far as it could go, with problems listed \
        (any problem in the report: a file that cannot be decoded or told apart, a guessed appearance, a \
        screen size the bundle lacks, leftovers cleared, a state rebuilt, an original that cannot come back); \
        64 bad arguments.
        """

    /// Exits 3 when the report lists any problem.
    static func check(_ report: ApplyReport) throws {
        if !report.problems.isEmpty { throw ExitCode(3) }
    }
}

/// `splashgen apply`.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Swap a container's cached launch snapshots for the campaign in force (or put the originals back).",
        discussion: ApplierExitCodes.discussion)

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
        abstract: "Put every original launch snapshot back, byte for byte.",
        discussion: ApplierExitCodes.discussion)

    @OptionGroup var options: ApplierOptions

    @Flag(help: "Ignore the state file and rebuild the records from the cache and the backups (for a damaged or lost state).")
    var fromBackups = false

    func run() throws { try options.run { applier throws(ApplierError) in try applier.restore(fromBackups: fromBackups) } }
}

/// `splashgen status`.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each cached launch snapshot, how its variant was told, and what apply would do.",
        discussion: ApplierExitCodes.discussion)

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
        return String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The report for a person; times in the offset the bundle's campaigns were written in (UTC beside).
    /// `device`, the phone in hand when known (`sim launch`), is named first where a screen is missing.
    static func text(_ report: ApplyReport, bundle: URL? = nil, device: String? = nil) -> String {
        let zone = bundle.flatMap { try? Data(contentsOf: $0.appendingPathComponent("manifest.json")) }
            .flatMap { try? Manifest.decode(from: $0) }.flatMap { ScheduleTime.seasonTimeZone($0.campaigns) }
        let why = report.notShown.map { "not shown \($0.reason.rawValue): \($0)" }
        guard let folder = report.folder else {
            // The problem (no-launch-snapshots) names the folder looked in and why it may be empty.
            return (["no launch snapshots cached"] + why + report.problems.map { "problem \($0.code.rawValue): \($0)" }).joined(separator: "\n")
        }
        var lines = ["folder     \(folder)"]
        lines.append("campaign   \(report.campaign ?? "none (the app's own launch screen)")")
        if report.folder != nil { lines.append("held       \(report.heldAtLaunch ?? "different files held different things") at this launch, before the run") }
        lines.append("next run   \(report.nextChange.map { ScheduleTime.written($0, in: zone) } ?? "no schedule change ahead")")
        if report.nothingToDo { lines.append("nothing to do") }
        if report.cacheRegenerated { lines.append("the OS rendered the cache anew: originals backed up") }
        for file in report.files {
            let variant = "\(file.width)x\(file.height) \(file.orientation.rawValue) \(file.appearance?.rawValue ?? "unknown") (by \(file.decidedBy.rawValue))"
            lines.append("  \(file.name)  \(variant)  \(file.action.rawValue), showing \(file.showing)\(file.note.map { ": " + $0 } ?? "")")
        }
        lines += why
        for problem in report.problems {
            lines.append("problem \(problem.code.rawValue): \(problem)" + (problem.screen.map { devices(with: $0, inHand: device) } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    /// For a screen a bundle lacks: the catalogue's devices that have it (the names to put in
    /// `devices:`), the phone in hand first when it is one of them, or that none does (a
    /// `catalogue:` entry is the way), so the fix is one step.
    static func devices(with screen: ApplyReport.Screen, inHand: String? = nil) -> String {
        guard let catalogue = try? DeviceCatalogue.bundled() else { return "" }
        let having = catalogue.devices.filter { device in
            let pixels = Manifest.Size(width: device.points.width * device.scale, height: device.points.height * device.scale)
            return pixels == screen.pixels && (screen.scale == nil || screen.scale == device.scale)
        }.map(\.name)
        let names = having.filter { $0 == inHand } + having.filter { $0 != inHand }
        guard !names.isEmpty else { return " (no catalogue device has this screen: add a catalogue: entry)" }
        let shown = names.prefix(4).joined(separator: ", ") + (names.count > 4 ? " and \(names.count - 4) more" : "")
        return " (the catalogue's \(names.count == 1 ? "device" : "devices") with this screen: \(shown))"
    }
}
