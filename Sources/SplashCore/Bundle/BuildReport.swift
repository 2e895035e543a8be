import Foundation
import SplashFormat

/// Time spent in each stage. Stages that run on several threads add up every thread's time.
public struct StageTimes: Sendable, Equatable {
    /// Reading, checking and decoding art; planning.
    public var decode: Duration = .zero
    /// Composing the canvas: resampling, blending, grey, marker.
    public var resample: Duration = .zero
    /// ASTC or PNG encoding.
    public var encode: Duration = .zero
    /// SHA-256 of objects (new ones, and cached ones being verified).
    public var hash: Duration = .zero
    /// Writing objects, the manifest, and moving the bundle into place.
    public var write: Duration = .zero
    /// Wall time of the whole build.
    public var total: Duration = .zero

    mutating func add(_ other: StageTimes) {
        decode += other.decode
        resample += other.resample
        encode += other.encode
        hash += other.hash
        write += other.write
    }
}

/// What a build produced.
public struct BuildReport: Sendable {
    /// The bundle folder.
    public var bundle: URL
    /// Its manifest.
    public var manifest: Manifest
    /// Snapshot entries (screens × orientations × appearances).
    public var snapshots: Int
    /// Snapshot entries per device family.
    public var snapshotsByFamily: [DeviceFamily: Int]
    /// Distinct objects stored.
    public var uniqueObjects: Int
    /// Bytes of the distinct objects.
    public var bytes: Int
    /// Recipes rendered in this build.
    public var rendered: Int
    /// Recipes taken from the cache.
    public var reused: Int
    /// Stage timings.
    public var times: StageTimes
    /// The art checks' warnings (the build went ahead).
    public var warnings: [Diagnostic]
}
