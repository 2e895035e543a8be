import Foundation

/// Turns a cached snapshot file into pixels, so the applier can read the marker and the light.
/// The applier stays Foundation-only; the platform supplies the codec: splashgen passes astcenc and
/// libpng (`SnapshotDecoder` in SplashCore), an app passes its system image decoder. It is called
/// only when the OS has (re)generated the cache, never on the no-op path.
public protocol SnapshotPixelDecoder: Sendable {
    /// The decoded image, or an error when the file cannot be read.
    func decode(_ data: Data) throws -> RGBAImage
}
