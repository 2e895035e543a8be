/// Portrait or landscape.
public enum Orientation: String, Codable, CaseIterable, Comparable, Sendable {
    case portrait, landscape

    /// Portrait sorts first.
    public static func < (a: Orientation, b: Orientation) -> Bool { a == .portrait && b == .landscape }
}

/// Light or dark interface style.
public enum Appearance: String, Codable, CaseIterable, Comparable, Sendable {
    case light, dark

    /// Light sorts first.
    public static func < (a: Appearance, b: Appearance) -> Bool { a == .light && b == .dark }
}

/// What bytes a snapshot object holds (always stored in a file named `….ktx` on the device).
package enum SnapshotEncoding: String, Codable, CaseIterable, Sendable {
    /// Apple's ATX container laid out as device-written launch snapshots are (21-word `HEAD`,
    /// `FILL`, `LZFS` with an LZFSE stream of ASTC 4×4 blocks): what the OS writes now.
    case atx
    /// Khronos KTX 1.1 holding ASTC 4×4, uncompressed: what older releases wrote.
    case ktx
    /// PNG bytes, what the run-time patching libraries write.
    case png

    /// The encoding a campaign gets when it names none.
    package static let `default` = SnapshotEncoding.atx

    /// Whether its objects hold ASTC 4×4 blocks (made with astcenc at the campaign's quality).
    package var isASTC: Bool { self != .png }
}
