// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "splashgen",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .executable(name: "splashgen", targets: ["splashgen"]),
        .library(name: "SplashApplier", targets: ["SplashApplier"]),
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
                "SplashCore", "SplashApplier", "SplashSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        /** Build time: campaign YAML → rendered, encoded, content-addressed snapshot bundle. */
        .target(
            name: "SplashCore",
            dependencies: [
                "SplashFormat", "CPNG", "CStb", "CAstcenc",
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [.copy("Resources/devices.json")]
        ),
        /** The bytes both halves share: manifest, KTX / ATX / PNG headers, LZFSE, signatures, bundle checks. */
        .target(
            name: "SplashFormat",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux, .android, .windows])),
                .target(name: "CSystemZlib", condition: .when(platforms: [.linux, .android])),
            ]
        ),
        /** Run time, in the app: survey the launch cache, plan what each file should hold, carry it out. */
        .target(name: "SplashApplier", dependencies: ["SplashFormat"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        /** A model of what iOS does to an app's launch cache, on an on-device-equivalent container folder. */
        .target(
            name: "SplashSimulator", dependencies: ["SplashCore", "SplashApplier", "SplashFormat", "CStb", "CAstcenc", "CPNG"],
            resources: [.copy("Resources/screens.json"), .copy("Resources/launch-screen")]),
        /** zlib, for raw DEFLATE of published objects where Apple's Compression framework is absent. */
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        /** libpng, used only through its `png_image_*` simplified API. */
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        /** stb_image_resize and stb_truetype from Debian's libstb-dev. */
        .systemLibrary(name: "CStb", pkgConfig: "stb", providers: [.apt(["libstb-dev"])]),
        /** A C face for ARM's astcenc C++ API (libastcenc-dev ships no pkg-config file). */
        .target(
            name: "CAstcenc",
            // Debian ships astcenc as a shared library, whose symbols are extern "C" only with this.
            cxxSettings: [.define("ASTCENC_DYNAMIC_LIBRARY")],
            linkerSettings: [.linkedLibrary("astcenc")]
        ),
        /** `make bench`: stage timings, memory, and the ImageMagick + astcenc pipeline side by side. */
        .executableTarget(name: "splashbench", dependencies: ["SplashCore", "SplashApplier", "SplashSimulator"]),
        /** What every test target shares (scratch folders). */
        .target(name: "SplashTestSupport", path: "Tests/SplashTestSupport"),
        .testTarget(name: "SplashFormatTests", dependencies: ["SplashFormat", "SplashTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SplashApplierTests", dependencies: ["SplashApplier", "SplashTestSupport"]),
        .testTarget(
            name: "SplashSimulatorTests", dependencies: ["SplashSimulator", "SplashCore", "SplashApplier", "SplashTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SplashCoreTests",
            dependencies: ["SplashCore", "SplashFormat", "SplashTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "splashgenTests", dependencies: ["splashgen", "SplashCore", "SplashFormat", "SplashSimulator", "SplashTestSupport"], exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets (Fuzz/, `make fuzz`): part of the package only when SPLASHGEN_FUZZ is set,
// as scripts/fuzz.sh does with its own scratch folder, since they link only with `--sanitize=fuzzer`
// (libFuzzer supplies `main`).
if Context.environment["SPLASHGEN_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "splashfuzz",
            dependencies: ["SplashCore", "SplashApplier", "SplashFormat"],
            path: "Fuzz/Sources/splashfuzz",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        ))
}
