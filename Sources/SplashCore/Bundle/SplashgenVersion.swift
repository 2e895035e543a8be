/// splashgen's version, written into every manifest and render key.
public enum SplashgenVersion {
    /// The version string.
    public static let current = "0.1.0"
    /// `splashgen <version>`.
    public static var generator: String { "splashgen \(current)" }
}
