import Foundation
import SplashFormat

/// What the applier found and did: each cached file's variant and how it was told, what happened
/// to it, the campaign in force, and when to run again.
public struct ApplyReport: Codable, Equatable, Sendable {
    /// The snapshot folder, relative to the container (nil when there is none yet).
    public var folder: String?
    /// The campaign now in force, the highest priority (nil: the app's own launch screen). A file
    /// this campaign has no snapshot of shows the next campaign in force that has one: each file's
    /// ``File/showing`` names what it holds, and ``notShown`` why.
    public var campaign: String?
    /// The next schedule boundary: run the applier again then.
    public var nextChange: Date?
    /// The OS (re)generated the cache since the last run: new originals were backed up.
    public var cacheRegenerated: Bool
    /// Nothing needed doing: no image was decoded and nothing was written.
    public var nothingToDo: Bool
    /// One entry per cached launch snapshot, by name.
    public var files: [File]
    /// Everything that kept the run from doing all it should, or that it had to guess, each with
    /// a stable code; empty when all went as it should.
    public var problems: [Problem] = []
    /// Why each campaign of the bundle is not shown, or not on every file: one entry per campaign
    /// and reason, with a stable code; empty without a bundle or when every file shows the campaign
    /// in force and no other campaign exists.
    public var notShown: [NotShown] = []
    /// What the cache held when this run began, so at the cold launch that ran it: a campaign's id
    /// when every cached file held that campaign's picture, `original` when every one held the OS's
    /// render, `unknown` when there were no records to tell by; nil when the files held different
    /// things (each ``File/held`` says) or there is no launch folder. The one honest impression a
    /// launch snapshot gives: "the cache held campaign X at this launch".
    public var heldAtLaunch: String?

    /// The one value all `held` share, or nil.
    static func summary(of held: [String]) -> String? {
        guard let first = held.first, held.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// Whether every cached file holds what the campaigns in force give it (for each file, the
    /// highest-priority one with its snapshot; with none, the original): false when a file was left
    /// alone, the folder is missing, or leftovers were cleared.
    public var complete: Bool {
        !problems.contains { $0.code.leavesWorkUndone }
    }

    /// A named problem.
    public struct Problem: Codable, Equatable, Sendable, CustomStringConvertible {
        /// What kind of problem.
        public var code: Code
        /// The cached file it concerns, if one.
        public var file: String?
        /// One sentence for a person.
        public var message: String
        /// For `missing-snapshot`: the screen the bundle lacks, as a campaign's `catalogue:` entry
        /// names it.
        public var screen: Screen?

        /// Makes a problem.
        public init(_ code: Code, file: String? = nil, _ message: String, screen: Screen? = nil) {
            self.code = code
            self.file = file
            self.message = message
            self.screen = screen
        }

        public var description: String { (file.map { $0 + ": " } ?? "") + message }

        /// The stable codes of `status --json` and the library.
        public enum Code: String, Codable, Sendable {
            /// The launch folder is missing, or holds no launch snapshot: the OS has cached none for
            /// this app (yet, or for this app's shape, or since repeated failures,
            /// docs/ios-launch-cache.md §9). The message names the folder looked in.
            case noLaunchSnapshots = "no-launch-snapshots"
            /// A cached file's pixels cannot be decoded; its appearance is unknown and it is left alone.
            case undecodable
            /// A cached file's appearance could not be told even by a guess; it is left alone.
            case appearanceUnknown = "appearance-unknown"
            /// A cached file's appearance is a luminance guess, not a marker reading.
            case appearanceGuessed = "appearance-guessed"
            /// The campaign has no snapshot of a cached file's pixel size (e.g. Display Zoom) and appearance.
            case missingSnapshot = "missing-snapshot"
            /// Another library's PNG/JPEG leftovers were found; the folder was cleared for the OS to render anew.
            case leftoversCleared = "leftovers-cleared"
            /// A backup was missing or damaged and the file no longer holds its original: it cannot be restored.
            case originalLost = "original-lost"
            /// The state file could not be trusted and was rebuilt from the disk and the backups.
            case stateRebuilt = "state-rebuilt"
            /// The original's container is one splashgen cannot write again exactly (docs/ios-launch-cache.md
            /// §3): the file keeps (or gets back) the original, and the message names what it holds.
            case containerUnsupported = "container-unsupported"
            /// The original is the OS's black render (its image views solid black, or white, where
            /// the app's own screen is not; docs/ios-launch-cache.md §6): told when it is backed up,
            /// and never put back; the message says what goes there instead.
            case originalBlackRender = "original-black-render"
            /// An original the OS has just rendered could not be told good or black against the app's
            /// own screen (`BlackRender`: it differs outside the image views, or the evidence is short);
            /// the message says why. It is kept as a good original, and comes back.
            case blackRenderUndecided = "black-render-undecided"
            /// `restore` with no records to trust and no bundle: the cached files cannot be told from a
            /// campaign's pictures; nothing is recorded or changed.
            case cannotTellOriginals = "cannot-tell-originals"
            /// The launch folder holds more snapshot files than 256 (the most an app's launch cache holds): not
            /// the OS's cache as it renders it; nothing is read, changed or recorded.
            case tooManySnapshots = "too-many-snapshots"
            /// The bundle's season expired (its `expires`, or its signing key's certificate, is past)
            /// and nothing newer was fetched: no campaign of it is shown, the originals are.
            case seasonExpired = "season-expired"

            /// Whether the cache does not hold what this run should have put there.
            public var leavesWorkUndone: Bool {
                switch self {
                case .appearanceGuessed, .stateRebuilt, .blackRenderUndecided, .seasonExpired: return false
                default: return true
                }
            }
        }
    }

    /// Why a campaign is not shown (or, for the one in force, not on some files).
    public struct NotShown: Codable, Equatable, Sendable, CustomStringConvertible {
        /// The campaign's id.
        public var campaign: String
        /// Why, as a stable code.
        public var reason: Reason
        /// One sentence for a person.
        public var message: String

        /// Makes an entry.
        public init(_ campaign: String, _ reason: Reason, _ message: String) {
            self.campaign = campaign
            self.reason = reason
            self.message = message
        }

        public var description: String { "\(campaign): \(message)" }

        /// The stable codes of `--json` and the library.
        public enum Reason: String, Codable, Sendable {
            /// The app's version is below a `min_version` (the bundle's or the campaign's).
            case versionBelowRange = "version-below-range"
            /// The app's version is above a `max_version`.
            case versionAboveRange = "version-above-range"
            /// Its schedule has not started.
            case notStarted = "not-started"
            /// Its schedule has ended.
            case ended
            /// Another campaign in force at the same time has a higher priority.
            case outranked
            /// In force, but it has no snapshot of a cached file's screen: that file shows the original.
            case screenMissing = "screen-missing"
            /// In force, but its `match:` is for other phones (the message says which condition).
            case doesNotMatch = "does-not-match"
            /// In force, but rolled out to a share of phones this phone's draw is outside.
            case notInRollout = "not-in-rollout"
            /// The season it belongs to expired before a newer one was fetched.
            case seasonExpired = "season-expired"
            /// In force, with the screen in the other orientation only: those files show the original.
            case orientationMissing = "orientation-missing"
            /// In force, with the screen but not the appearance (e.g. no dark variant): those files
            /// show the original.
            case appearanceMissing = "appearance-missing"
        }
    }

    /// A screen in the terms of a campaign's `catalogue:` entry: portrait points and `UIScreen.scale`,
    /// from the portrait pixels of a cached file.
    public struct Screen: Codable, Equatable, Sendable, CustomStringConvertible {
        /// Portrait pixels (width ≤ height), as the OS sized the snapshot.
        public var pixels: ScreenSize
        /// `UIScreen.scale`: the app's (``SnapshotApplier/screenScale``), or else the one of 3 and 2
        /// that divides both sides; nil when both do.
        public var scale: Int?
        /// Portrait points (pixels / scale); nil when the scale is not known.
        public var points: ScreenSize?
        /// The scales the pixels could be at when ``scale`` is nil: each divides both sides.
        public var candidateScales: [Int]?

        /// The screen of a cached file `width` × `height` pixels (either orientation).
        public init(width: Int, height: Int, scale known: Int?) {
            pixels = ScreenSize(width: min(width, height), height: max(width, height))
            let fits = [3, 2].filter { pixels.width % $0 == 0 && pixels.height % $0 == 0 }
            if let known, known > 0 {
                scale = known
            } else {
                scale = fits.count == 1 ? fits[0] : nil
                candidateScales = fits.count > 1 ? fits : nil
            }
            points = scale.map { ScreenSize(width: pixels.width / $0, height: pixels.height / $0) }
        }

        public var description: String {
            let px = "\(pixels.width)x\(pixels.height) px"
            if let points, let scale { return "\(px) = \(points.width)x\(points.height) pt @\(scale)x" }
            let options = (candidateScales ?? []).map { "\(pixels.width / $0)x\(pixels.height / $0) pt @\($0)x" }
            return options.isEmpty ? px : px + " = " + options.joined(separator: " or ") + " (the app's screenScale tells which)"
        }
    }

    /// One cached file.
    public struct File: Codable, Equatable, Sendable {
        /// The OS's file name (kept as it is).
        public var name: String
        /// Pixel width.
        public var width: Int
        /// Pixel height.
        public var height: Int
        /// From the pixel size.
        public var orientation: Orientation
        /// From the marker or the light; nil when unknown.
        public var appearance: Appearance?
        /// How the appearance was told.
        public var decidedBy: Classification
        /// The catalogue devices this size belongs to, when the bundle has it.
        public var devices: [String]?
        /// What the file shows after this run: `original` or the campaign's id.
        public var showing: String
        /// What this run did to it.
        public var action: Action
        /// Why, when the file was left alone.
        public var note: String?
        /// What the file held when this run began: a campaign's id, `original`, or `unknown`
        /// (``ApplyReport/heldAtLaunch``).
        public var held: String?
    }

    /// What happened to a file.
    public enum Action: String, Codable, Sendable {
        /// Replaced by a campaign snapshot.
        case replaced
        /// The original put back.
        case restored
        /// Already right.
        case unchanged
        /// Not touched (unknown size or appearance); `note` says why.
        case leftAlone = "left-alone"
        /// Removed with the rest of another library's leftovers, for the OS to render anew.
        case cleared
        /// Removed, for the OS to render anew: a black render with nothing to put in its place.
        case removed
        /// `status` only: would be replaced or restored by `apply`.
        case wouldChange = "would-change"
    }
}
