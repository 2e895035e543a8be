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
public enum SnapshotEncoding: String, Codable, CaseIterable, Sendable {
    /// Khronos KTX 1.1 holding ASTC 4×4, what the OS itself writes.
    case ktx
    /// PNG bytes, what the run-time patching libraries write.
    case png
}
