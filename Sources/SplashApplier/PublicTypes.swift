import SplashFormat

// What an app needs of SplashFormat, and no more: `import SplashApplier` gives these names (with
// the applier's own: SnapshotApplier, ApplyReport, ApplierError, BundleFetcher, FetchReport,
// FetchError, FileSystemError, BundleTrust, PinnedKey, InterfaceStyle, Classification,
// ImageIODecoder), not
// SplashFormat's container readers and writers, compressors, signing or file helpers.

/// Light or dark.
public typealias Appearance = SplashFormat.Appearance
/// Portrait or landscape.
public typealias Orientation = SplashFormat.Orientation
/// The running iOS version.
public typealias OSVersion = SplashFormat.OSVersion
/// A screen's size in pixels (what SplashUpdater's `BundleFetcher` fetches for).
public typealias ScreenSize = SplashFormat.ScreenSize
/// Turns a cached snapshot into pixels (`ImageIODecoder` on Apple platforms).
public typealias SnapshotPixelDecoder = SplashFormat.SnapshotPixelDecoder
/// The part of a snapshot the classifier reads.
public typealias SnapshotSample = SplashFormat.SnapshotSample
/// Decoded pixels, 8-bit RGBA.
public typealias RGBAImage = SplashFormat.RGBAImage
/// One pixel's colour.
public typealias RGBAColor = SplashFormat.RGBAColor
/// Why a bundle is not trusted (inside ``ApplierError/badBundle(_:)`` and SplashUpdater's `FetchError`).
public typealias BundleProblem = SplashFormat.BundleProblem
/// A file operation that failed, with its cause and where it was raised.
public typealias FileSystemError = SplashFormat.FileSystemError
/// Why a key does not read (``PinnedKey``).
public typealias SignatureError = SplashFormat.SignatureError
