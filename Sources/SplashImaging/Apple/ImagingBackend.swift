/// Which imaging backend this build uses, for `splashgen --version`, reports and tests whose
/// expected bytes belong to one backend (each backend is reproducible; the two differ in bytes).
public enum ImagingBackend {
    /// A short name.
    public static let name = "apple"
    /// The libraries it calls.
    public static let libraries = "ImageIO, vImage, Core Text, AppleTextureEncoder"
}
