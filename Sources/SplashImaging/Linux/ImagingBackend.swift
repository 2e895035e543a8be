/// Which imaging backend this build uses, for `splashgen --version`, reports and tests whose
/// expected bytes belong to one backend (each backend is reproducible; the two differ in bytes).
public enum ImagingBackend {
    /// A short name.
    public static let name = "linux"
    /// The libraries it calls.
    public static let libraries = "libpng, stb_image_resize, stb_truetype, astcenc"
}
