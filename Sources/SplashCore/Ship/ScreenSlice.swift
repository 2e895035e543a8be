import Foundation
import SplashFormat

/// The snapshots of one screen: a device name from the manifest, or a pixel size in either orientation.
package enum ScreenSlice: Sendable, CustomStringConvertible {
    case device(String)
    case pixels(width: Int, height: Int)

    /// Parses `1179x2556` as a pixel size, anything else as a device name.
    package init(_ text: String) {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        self = parts.count == 2 && text.allSatisfy({ $0.isNumber || $0 == "x" }) ? .pixels(width: parts[0], height: parts[1]) : .device(text)
    }

    package var description: String {
        switch self {
        case .device(let name): return name
        case .pixels(let w, let h): return "\(w)x\(h)"
        }
    }

    func matches(_ snapshot: Manifest.Snapshot) -> Bool {
        switch self {
        case .device(let name): return snapshot.devices.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
        case .pixels(let w, let h):
            // A window of the screen (an iPad's side layout) goes with it.
            return snapshot.sliceScreen == ScreenSize(width: w, height: h).portrait
        }
    }

    /// The manifest with only this screen's snapshots, and only the campaigns that have some (one
    /// that does not cover the screen must not outrank one that does).
    package func apply(to manifest: Manifest) throws(SliceError) -> Manifest {
        var sliced = manifest
        // A device's screen brings the windows of it (an iPad's side layout), as its fetcher's slice does.
        let screens = Set(manifest.campaigns.flatMap(\.snapshots).filter { matches($0) && $0.screen == nil }.map(\.sliceScreen))
        func kept(_ snapshot: Manifest.Snapshot) -> Bool { matches(snapshot) || (snapshot.screen != nil && screens.contains(snapshot.sliceScreen)) }
        for index in sliced.campaigns.indices { sliced.campaigns[index].snapshots.removeAll { !kept($0) } }
        sliced.campaigns.removeAll { $0.snapshots.isEmpty }
        guard !sliced.campaigns.isEmpty else { throw .noSnapshots(description) }
        if case .pixels(let w, let h) = self { sliced.screen = Manifest.Size(width: min(w, h), height: max(w, h)) }
        // A slice needs only the reader its own snapshots need: an iPhone's slice of a season with
        // iPad windows stays readable by every app out there.
        sliced.schema = min(sliced.schema, sliced.neededSchema)
        return sliced
    }
}

/// A slice that selects nothing.
package enum SliceError: Error, Equatable, CustomStringConvertible {
    case noSnapshots(String)

    package var description: String {
        switch self {
        case .noSnapshots(let screen): return "the bundle has no snapshot for \(screen)"
        }
    }
}
