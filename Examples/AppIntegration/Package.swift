// swift-tools-version: 6.0
import PackageDescription

/// The code the README shows an app team, compiled for iOS by the macOS CI job.
let package = Package(
    name: "AppIntegration",
    platforms: [.iOS(.v15), .macOS(.v13)],
    products: [.library(name: "AppIntegration", targets: ["AppIntegration"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "AppIntegration", dependencies: [.product(name: "SplashUpdater", package: "splashgen")])
    ],
    swiftLanguageModes: [.v6]
)
