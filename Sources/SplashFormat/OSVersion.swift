import Foundation

/// An iOS version, for where the launch snapshots live.
public struct OSVersion: Equatable, Sendable, CustomStringConvertible {
    /// Major version, e.g. 17.
    public var major: Int
    /// Minor version.
    public var minor: Int

    /// Makes a version.
    public init(major: Int, minor: Int = 0) {
        self.major = major
        self.minor = minor
    }

    /// Parses `17`, `17.4` or `17.4.1`.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard (1...3).contains(parts.count), parts.count == text.split(separator: ".", omittingEmptySubsequences: false).count,
            parts.allSatisfy({ (0...999).contains($0) })
        else { return nil }
        self.init(major: parts[0], minor: parts.count > 1 ? parts[1] : 0)
    }

    public var description: String { "\(major).\(minor)" }

    /// The launch snapshot folder inside the app's data container, for `bundleID` (docs/ios-launch-cache.md §2).
    package func snapshotFolder(bundleID: String) -> String {
        major >= 13 ? "Library/SplashBoard/Snapshots/\(bundleID) - {DEFAULT GROUP}" : "Library/Caches/Snapshots/\(bundleID)"
    }
}
