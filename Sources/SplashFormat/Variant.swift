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
    /// Khronos KTX 1.1 holding ASTC 4×4 in Apple's compressed form (`Compression_APPLE`, the level
    /// an LZFSE stream of the blocks, as the OS encodes it): the container older releases wrote.
    case ktx
    /// Khronos KTX 1.1 holding ASTC 4×4 uncompressed, 1 byte a pixel (for a tool that reads only
    /// plain KTX). A build option: the manifest records it as ``ktx``, the same container.
    case ktxPlain = "ktx-plain"
    /// PNG bytes, what the run-time patching libraries write.
    case png

    /// The encoding a campaign gets when it names none.
    package static let `default` = SnapshotEncoding.atx

    /// Whether its objects hold ASTC 4×4 blocks (made with astcenc at the campaign's quality).
    package var isASTC: Bool { self != .png }

    /// The container its objects are, as a manifest records it: plain KTX is KTX (an applier reads
    /// both forms, and one of an earlier release knows no other name).
    package var container: SnapshotEncoding { self == .ktxPlain ? .ktx : self }
}
