/// splashgen's version, written into every manifest and render key.
package enum SplashgenVersion {
    /// The version string.
    package static let current = "0.1.0"
    /// `splashgen <version>`.
    package static var generator: String { "splashgen \(current)" }
}
