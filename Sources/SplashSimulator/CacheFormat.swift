import Foundation
import SplashApplier
import SplashFormat

/// What the OS writes into a cached launch snapshot, laid out here byte by byte from the iOS facts
/// (docs/ios-launch-cache.md §3) with the simulator's own code: it never calls splashgen's container
/// writers, so a file the generator or the applier gets wrong is one the simulated OS disagrees with.
/// Only the LZFSE codec is shared (it is tested against Apple's reference implementation). The
/// simulated OS reads back only the container it wrote (``CachedFileCheck``).
public enum CacheFormat: String, Codable, CaseIterable, Sendable {
    /// iOS 13 and later: ATX as device-written launch snapshots hold it (21-word `HEAD`, `FILL` to
    /// byte 256, `LZFS` with the stream's byte count and an LZFSE stream of ASTC 4×4 blocks, `END `).
    case atx
    /// Khronos KTX 1.1 with `Compression_APPLE`, the level LZFSE-compressed: no iOS version is known
    /// to write it for launch snapshots, but readers parse it (§3); only when asked for.
    case appleCompressedKTX = "apple-compressed-ktx"
    /// iOS 12 and earlier: plain Khronos KTX 1.1 with ASTC 4×4. The field still holds such files on
    /// current phones (§9), so a newer iOS can be asked for it too.
    case ktx

    /// The format an iOS version writes: ATX from iOS 13, KTX before (§3).
    public init(ios: OSVersion) {
        self = ios.major >= 13 ? .atx : .ktx
    }

    /// The container's name, as the simulated OS says it.
    var name: String {
        switch self {
        case .atx: return "ATX"
        case .appleCompressedKTX: return "KTX 1.1 with Compression_APPLE"
        case .ktx: return "KTX 1.1"
        }
    }

    /// The file the OS caches for `image`: ASTC 4×4 through astcenc (`encoder`, standing for the
    /// OS's), then this container.
    func file(for image: RGBAImage, encoder: OSCodecs.ASTCEncoder) throws -> Data {
        let blocks = try encoder.blocks(image)
        let width = UInt32(image.width), height = UInt32(image.height)
        var out = OSBytes()
        switch self {
        case .atx:
            let stream = LZFSE.compress([UInt8](blocks))
            out.append([0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A])
            let head: [UInt32] = [
                1, 0, 0, 0, 0x93B0, 0x1908, width, height, 1, 0, 1, 1, 0, 1, 1, 0x5555_5555, 0x5555_5555, 0x5555_5555, 0x5555_5555, 1, 5,
            ]
            out.chunk("HEAD", head.flatMap(OSBytes.le))
            out.chunk("FILL", [UInt8](repeating: 0, count: 136))
            out.chunk("LZFS", OSBytes.le(UInt32(stream.count)) + stream)
            out.chunk("END ", [])
        case .appleCompressedKTX, .ktx:
            var level = [UInt8](blocks)
            var keyValues: [UInt8] = []
            if self == .appleCompressedKTX {
                let stream = LZFSE.compress(level)
                // The 8 bytes before the stream are not documented; the model writes both sizes.
                level = OSBytes.le(UInt32(blocks.count)) + OSBytes.le(UInt32(stream.count)) + stream
                let entry = Array("Compression_APPLE".utf8) + [0]
                keyValues = OSBytes.le(UInt32(entry.count)) + entry + [UInt8](repeating: 0, count: (4 - entry.count % 4) % 4)
            }
            out.append([0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A])
            for word: UInt32 in [0x0403_0201, 0, 1, 0, 0x93B0, 0x1908, width, height, 0, 0, 1, 1, UInt32(keyValues.count)] {
                out.append(OSBytes.le(word))
            }
            out.append(keyValues)
            out.append(OSBytes.le(UInt32(level.count)) + level + [UInt8](repeating: 0, count: (4 - level.count % 4) % 4))
        }
        return Data(out.bytes)
    }
}

/// Little-endian bytes as the simulated OS writes and reads them.
struct OSBytes {
    var bytes: [UInt8] = []

    static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    mutating func append(_ more: [UInt8]) { bytes += more }

    /// An ATX chunk: UInt32 length, the 4-byte tag, the data.
    mutating func chunk(_ tag: String, _ data: [UInt8]) {
        bytes += Self.le(UInt32(data.count)) + Array(tag.utf8) + data
    }

    /// The UInt32 at `offset` of `data`, or nil past its end.
    static func u32(_ data: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= data.count - 4 else { return nil }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[offset + $1]) << (8 * $1) }
    }
}
