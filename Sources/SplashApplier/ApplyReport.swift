import Foundation

/// What the applier found and did: each cached file's variant and how it was told, what happened
/// to it, the campaign in force, and when to run again.
public struct ApplyReport: Codable, Equatable, Sendable {
    /// The snapshot folder, relative to the container (nil when there is none yet).
    public var folder: String?
    /// The campaign now in force (nil: the app's own launch screen).
    public var campaign: String?
    /// The next schedule boundary: run the applier again then.
    public var nextChange: Date?
    /// The OS (re)generated the cache since the last run: new originals were backed up.
    public var cacheRegenerated: Bool
    /// Nothing needed doing: no image was decoded and nothing was written.
    public var nothingToDo: Bool
    /// One entry per cached launch snapshot, by name.
    public var files: [File]

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
        /// `status` only: would be replaced or restored by `apply`.
        case wouldChange = "would-change"
    }
}
