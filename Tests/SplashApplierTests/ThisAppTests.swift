import Foundation
import SplashApplier
@_spi(Testing) import SplashUpdater
import Testing

/// What `SnapshotApplier.forThisApp` and `BundleFetcher.forThisApp` make of the running app (iOS
/// only, where UIKit gives the screen): the same rules, given the facts, checked here.
@Suite struct ThisAppTests {
    func facts(
        version: String? = "2.1", build: String? = "417", style: String? = nil, points: (width: Double, height: Double) = (393, 852),
        scale: Double = 3
    ) -> AppFacts {
        AppFacts(
            version: version, build: build, bundleID: "com.example.shop", interfaceStyle: style,
            container: URL(fileURLWithPath: "/var/mobile/Containers/Data/Application/X"), osVersion: OSVersion(major: 17, minor: 4),
            points: points, scale: scale)
    }

    /// Bounds × scale, portrait way round, as the OS sizes launch snapshots: an iPhone 15, the
    /// same in landscape, with Display Zoom (its zoomed screen), and an iPhone 8 Plus, whose
    /// panel (`nativeBounds`, 1080×1920) is not what the OS renders at (1242×2208).
    @Test(arguments: [
        ((393.0, 852.0), 3.0, ScreenSize(width: 1179, height: 2556)),
        ((852.0, 393.0), 3.0, ScreenSize(width: 1179, height: 2556)),
        ((320.0, 693.0), 3.0, ScreenSize(width: 960, height: 2079)),
        ((414.0, 736.0), 3.0, ScreenSize(width: 1242, height: 2208)),
    ])
    func theScreenIsBoundsTimesScale(points: (Double, Double), scale: Double, pixels: ScreenSize) {
        #expect(facts(points: points, scale: scale).screen == pixels)
    }

    @Test func theApplierIsThisAppsWithItsStyleAndScale() throws {
        let trust = BundleTrust.pinned(try PinnedKey(rawRepresentation: Data(repeating: 7, count: 32)))
        let applier = try facts(style: "Dark").applier(bundle: nil, trust: trust, decoder: FixedDecoder())
        #expect(applier.appVersion == "2.1" && applier.appBuild == "417" && applier.appBundleID == "com.example.shop")
        #expect(applier.container.path == "/var/mobile/Containers/Data/Application/X" && applier.osVersion == OSVersion(major: 17, minor: 4))
        #expect(applier.interfaceStyle == .dark && applier.screenScale == 3 && applier.trust == trust)
    }

    /// The cache is kept per version and build, so an Info.plist without either is refused by name.
    static let missing: [(key: String, version: String?, build: String?)] = [
        ("CFBundleShortVersionString", nil, "417"), ("CFBundleVersion", "2.1", nil), ("CFBundleShortVersionString", "", "417"),
    ]

    @Test(arguments: missing)
    func anInfoPlistWithoutAVersionOrBuildIsRefused(key: String, version: String?, build: String?) throws {
        let trust = BundleTrust.pinned(try PinnedKey(rawRepresentation: Data(repeating: 7, count: 32)))
        #expect(throws: ApplierError.badParameter(key, "the app's Info.plist has none")) {
            _ = try facts(version: version, build: build).applier(bundle: nil, trust: trust, decoder: FixedDecoder())
        }
    }

    @Test func theFetcherIsForThisScreenAndTheAppearancesTheAppHas() throws {
        let trust = BundleTrust.pinned(try PinnedKey(rawRepresentation: Data(repeating: 7, count: 32)))
        let base = URL(string: "https://cdn.example.com/launch/season/")!
        let fetcher = facts(style: "Light").fetcher(base: base, trust: trust)
        #expect(fetcher.base == base && fetcher.screen == ScreenSize(width: 1179, height: 2556) && fetcher.bundleID == "com.example.shop")
        #expect(fetcher.appearances == [.light])
        #expect(fetcher.folder.path == "/var/mobile/Containers/Data/Application/X/Library/Application Support/splashgen/downloads")
        #expect(facts().fetcher(base: base, trust: trust).appearances == [.light, .dark])
    }
}

/// A decoder that is never asked for pixels here.
private struct FixedDecoder: SnapshotPixelDecoder {
    func decode(_ data: Data) throws -> RGBAImage { RGBAImage(width: 1, height: 1) }
}
