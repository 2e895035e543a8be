import Foundation
import SplashApplier

/// What one run of ``DemoUpdater`` did, written as JSON to ``DemoRun/path`` in the app's data
/// container: the simulator job copies it out after each launch, since a GUI app's standard output
/// does not reliably reach `simctl launch`.
struct DemoRun: Encodable, Sendable {
    /// Where the record goes, relative to the app's home.
    static let path = "Library/Application Support/SplashDemo/last-run.json"

    /// The bundle folder applied, if given.
    var bundleFolder: String?
    /// The season fetched, if given.
    var season: String?
    /// The applier's clock, when the launch set it.
    var now: Date?
    /// The running iOS version, as the applier got it.
    var ios: String
    /// The app's shape: entry point, scene manifest, launch screen.
    var shape: DemoShape
    /// What started the run: the root view, the window, the app becoming active, a background refresh.
    var startedBy: String?
    /// The connected scene's screen in pixels (bounds × scale), portrait; nil when no window scene
    /// was connected.
    var screen: ScreenSize?
    /// The applier's report.
    var apply: ApplyReport?
    /// Why nothing could run, or why the applier stopped.
    var error: String?
    /// Why nothing was run, when nothing was asked.
    var note: String?

    /// A record of a run with these switches, nothing done yet.
    init(switches: DemoSwitches, ios: OSVersion) {
        bundleFolder = switches.bundleFolder?.path
        season = switches.seasonURL?.absoluteString
        now = switches.now
        self.ios = ios.description
        shape = .current
    }

    /// The lines the window shows.
    var summary: String {
        var lines = ["iOS \(ios)", shape.summary]
        if let startedBy { lines.append("started by \(startedBy)") }
        if let note { lines.append(note) }
        if let error { lines.append("error: \(error)") }
        if let apply {
            lines.append("campaign \(apply.campaign ?? "none (originals)")")
            lines.append(apply.nothingToDo ? "nothing to do" : "\(apply.files.count) cached files")
            for file in apply.files { lines.append("\(file.name): \(file.action.rawValue), showing \(file.showing)") }
            for problem in apply.problems { lines.append("problem \(problem.code.rawValue): \(problem)") }
        }
        return lines.joined(separator: "\n")
    }

    /// Writes the record in one rename, so a reader never sees half of it.
    /// - Throws: the file system's error.
    func write(home: URL) throws {
        let url = home.appendingPathComponent(Self.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
