// swift-tools-version: 6.0
import PackageDescription

// The imaging backend (PNG, resampling, text, ASTC) is chosen by the platform this manifest is read
// on. On Apple platforms, Apple's frameworks (ImageIO, vImage, Core Text, AppleTextureEncoder): a
// build needs only Xcode, and no system-library or C target exists there. Elsewhere, Debian's
// libpng, stb and ARM's astcenc, through the C targets below. Both are the module `SplashImaging`,
// one contract (Sources/SplashImaging/Shared) with two implementations.
#if canImport(Darwin)
let imagingBackend = "Apple", otherImagingBackend = "Linux"
let imagingLibraries: [Target.Dependency] = []
let formatLibraries: [Target.Dependency] = []
let cTargets: [Target] = []
#else
let imagingBackend = "Linux", otherImagingBackend = "Apple"
let imagingLibraries: [Target.Dependency] = ["CPNG", "CStb", "CAstcenc"]
let formatLibraries: [Target.Dependency] = ["CSystemZlib"]
let cTargets: [Target] = [
    /** libpng, used only through its `png_image_*` simplified API. */
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    /** stb_image_resize and stb_truetype from Debian's libstb-dev. */
    .systemLibrary(name: "CStb", pkgConfig: "stb", providers: [.apt(["libstb-dev"])]),
    /** A C face for ARM's astcenc C++ API (libastcenc-dev ships no pkg-config file). */
    .target(
        name: "CAstcenc",
        // Debian ships astcenc as a shared library, whose symbols are extern "C" only with this.
        cxxSettings: [.define("ASTCENC_DYNAMIC_LIBRARY")],
        linkerSettings: [.linkedLibrary("astcenc")]
    ),
    /** zlib, for raw DEFLATE of published objects where Apple's Compression framework is absent. */
    .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
]
#endif

let package = Package(
    name: "splashgen",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .executable(name: "splashgen", targets: ["splashgen"]),
        /** Applies a bundle from a folder, and nothing more: for an app that delivers bundles its own way. */
        .library(name: "SplashApplier", targets: ["SplashApplier"]),
        /** The fetcher and the one-call updater, built on SplashApplier: what most apps link. */
        .library(name: "SplashUpdater", targets: ["SplashUpdater"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        /** The command-line tool: parses arguments, calls one function of SplashCore, prints. */
        .executableTarget(
            name: "splashgen",
            dependencies: [
                "SplashCore", "SplashFormatWriting", "SplashImaging", "SplashApplier", "SplashUpdater", "SplashSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        /** Build time: campaign YAML → rendered, encoded, content-addressed snapshot bundle. */
        .target(
            name: "SplashCore",
            dependencies: [
                "SplashFormat", "SplashFormatWriting", "SplashImaging",
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [.copy("Resources/devices.json")]
        ),
        /** What an app reads of the bytes both halves share: manifest, KTX / ATX / PNG headers, the LZFSE decoder, signature checks, bounded link-safe reads. Its public names are only those SplashApplier's API shows; the rest is `package`. */
        .target(
            name: "SplashFormat",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux, .android, .windows])),
            ] + formatLibraries
        ),
        /** What only the generator writes: signing keys and signatures, DEFLATE for publication. In no product an app links. */
        .target(
            name: "SplashFormatWriting",
            dependencies: [
                "SplashFormat",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux, .android, .windows])),
            ] + formatLibraries
        ),
        /** PNG in and out, resampling, text and ASTC 4×4: the generator's image work, per platform (above). */
        .target(
            name: "SplashImaging",
            dependencies: ["SplashFormat"] + imagingLibraries,
            path: "Sources/SplashImaging",
            exclude: [otherImagingBackend],
            sources: ["Shared", imagingBackend]
        ),
        /** Run time, in the app: survey the launch cache, plan what each file should hold, carry it out. */
        .target(name: "SplashApplier", dependencies: ["SplashFormat"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        /** Run time, in the app: fetch a signed season from a CDN, and the updater that fetches, applies and schedules the next refresh. */
        .target(name: "SplashUpdater", dependencies: ["SplashApplier", "SplashFormat"]),
        /** A model of what iOS does to an app's launch cache, on an on-device-equivalent container folder; it imports none of the generator. */
        .target(
            name: "SplashSimulator", dependencies: ["SplashApplier", "SplashUpdater", "SplashFormat"] + imagingLibraries,
            resources: [.copy("Resources/screens.json"), .copy("Resources/launch-screen")]),
        /** `make bench`: stage timings, memory, and the ImageMagick + astcenc pipeline side by side. */
        .executableTarget(
            name: "splashbench", dependencies: ["SplashCore", "SplashFormatWriting", "SplashImaging", "SplashApplier", "SplashUpdater", "SplashSimulator", "SplashScenarios"]),
        /** What every test target shares (scratch folders). */
        .target(name: "SplashTestSupport", path: "Tests/SplashTestSupport"),
        .testTarget(name: "SplashFormatTests", dependencies: ["SplashFormat", "SplashFormatWriting", "SplashTestSupport"], resources: [.copy("Fixtures")]),
        /** The scenes the applier's and the simulator's tests play in: bundles splashgen builds, containers the simulated OS wrote, an nginx on 127.0.0.1. */
        .target(
            name: "SplashScenarios", dependencies: ["SplashSimulator", "SplashCore", "SplashFormatWriting", "SplashApplier", "SplashUpdater", "SplashTestSupport"],
            path: "Tests/SplashScenarios", exclude: ["Fixtures"]),
        .testTarget(
            name: "SplashApplierTests",
            dependencies: ["SplashApplier", "SplashUpdater", "SplashFormatWriting", "SplashScenarios", "SplashSimulator", "SplashCore", "SplashTestSupport"]),
        .testTarget(
            name: "SplashSimulatorTests", dependencies: ["SplashSimulator", "SplashCore", "SplashFormatWriting", "SplashImaging", "SplashApplier", "SplashScenarios", "SplashTestSupport"]),
        .testTarget(
            name: "SplashCoreTests",
            dependencies: ["SplashCore", "SplashImaging", "SplashFormat", "SplashFormatWriting", "SplashTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "splashgenTests", dependencies: ["splashgen", "SplashCore", "SplashImaging", "SplashFormat", "SplashFormatWriting", "SplashSimulator", "SplashTestSupport"], exclude: ["Goldens"]),
    ] + cTargets,
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets (Fuzz/, `make fuzz`): part of the package only when SPLASHGEN_FUZZ is set,
// as scripts/fuzz.sh does with its own scratch folder, since they link only with `--sanitize=fuzzer`
// (libFuzzer supplies `main`).
if Context.environment["SPLASHGEN_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "splashfuzz",
            dependencies: ["SplashCore", "SplashImaging", "SplashApplier", "SplashFormat"],
            path: "Fuzz/Sources/splashfuzz",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        ))
}
