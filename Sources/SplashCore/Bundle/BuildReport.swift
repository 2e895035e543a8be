import Foundation
import SplashFormat

/// Time spent in each stage. Stages that run on several threads add up every thread's time.
package struct StageTimes: Sendable, Equatable {
    /// Reading, checking and decoding art; planning.
    package var decode: Duration = .zero
    /// Composing the canvas: resampling, blending, grey, marker.
    package var resample: Duration = .zero
    /// ASTC or PNG encoding.
    package var encode: Duration = .zero
    /// SHA-256 of objects (new ones, and cached ones being verified).
    package var hash: Duration = .zero
    /// Writing objects, the manifest, and moving the bundle into place.
    package var write: Duration = .zero
    /// Wall time of the whole build.
    package var total: Duration = .zero

    mutating func add(_ other: StageTimes) {
        decode += other.decode
        resample += other.resample
        encode += other.encode
        hash += other.hash
        write += other.write
    }
}

/// What a build produced.
package struct BuildReport: Sendable {
    /// The bundle folder.
    package var bundle: URL
    /// Its manifest.
    package var manifest: Manifest
    /// Snapshot entries (screens × orientations × appearances).
    package var snapshots: Int
    /// Snapshot entries per device family.
    package var snapshotsByFamily: [DeviceFamily: Int]
    /// Distinct objects stored.
    package var uniqueObjects: Int
    /// Bytes of the distinct objects.
    package var bytes: Int
    /// Recipes rendered in this build.
    package var rendered: Int
    /// Recipes taken from the cache.
    package var reused: Int
    /// Stage timings.
    package var times: StageTimes
    /// The art checks' warnings (the build went ahead).
    package var warnings: [Diagnostic]
}
