import Foundation

/// A Khronos KTX 1.1 file with a single 2D image level, as iOS caches launch snapshots.
public struct KTXFile: Equatable, Sendable {
    /// The 12-byte file identifier `«KTX 11»\r\n\x1A\n`.
    public static let identifier: [UInt8] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]
    /// `GL_COMPRESSED_RGBA_ASTC_4x4_KHR`, what the OS writes.
    public static let astc4x4RGBA: UInt32 = 0x93B0
    /// `GL_RGBA`.
    public static let glRGBA: UInt32 = 0x1908
    /// Bytes before the key/value data: identifier plus thirteen UInt32 fields.
    public static let headerSize = 64

    /// `glType` (0 for compressed formats).
    public var glType: UInt32 = 0
    /// `glTypeSize` (1 for compressed formats).
    public var glTypeSize: UInt32 = 1
    /// `glFormat` (0 for compressed formats).
    public var glFormat: UInt32 = 0
    /// `glInternalFormat`.
    public var glInternalFormat: UInt32 = KTXFile.astc4x4RGBA
    /// `glBaseInternalFormat`.
    public var glBaseInternalFormat: UInt32 = KTXFile.glRGBA
    /// Image width in pixels.
    public var pixelWidth: UInt32
    /// Image height in pixels.
    public var pixelHeight: UInt32
    /// 0 for a 2D texture.
    public var pixelDepth: UInt32 = 0
    /// 0 when not an array texture.
    public var numberOfArrayElements: UInt32 = 0
    /// 1 when not a cube map.
    public var numberOfFaces: UInt32 = 1
    /// Mipmap levels stored.
    public var numberOfMipmapLevels: UInt32 = 1
    /// Key/value pairs in file order; values keep their bytes (often NUL-terminated text).
    public var keyValues: [KeyValue] = []
    /// The first level's image data.
    public var levelData: Data

    /// One key/value metadata pair.
    public struct KeyValue: Equatable, Sendable {
        /// The key, UTF-8.
        public var key: String
        /// The value's bytes.
        public var value: Data

        /// Makes a pair.
        public init(key: String, value: Data) {
            self.key = key
            self.value = value
        }
    }

    /// Makes an ASTC 4×4 KTX file around block data.
    public init(astc4x4Width width: Int, height: Int, blocks: Data) {
        pixelWidth = UInt32(width)
        pixelHeight = UInt32(height)
        levelData = blocks
    }

    /// Bytes of ASTC 4×4 data for a `width`×`height` image.
    public static func astc4x4ByteCount(width: Int, height: Int) -> Int {
        ((width + 3) / 4) * ((height + 3) / 4) * 16
    }

    /// Whether the level data is LZFSE-compressed (Apple's `Compression_APPLE` key).
    public var isAppleCompressed: Bool { keyValues.contains { $0.key == "Compression_APPLE" } }

    /// The file's bytes, little-endian, exactly as the KTX 1.1 specification lays them out.
    public func serialized() -> Data {
        var out = Data(Self.identifier)
        var keyValueBytes = Data()
        for pair in keyValues {
            var entry = Data(pair.key.utf8)
            entry.append(0)
            entry.append(pair.value)
            keyValueBytes.appendUInt32(UInt32(entry.count))
            keyValueBytes.append(entry)
            keyValueBytes.append(contentsOf: [UInt8](repeating: 0, count: Self.padding(entry.count)))
        }
        for field in [0x0403_0201, glType, glTypeSize, glFormat, glInternalFormat, glBaseInternalFormat, pixelWidth,
                      pixelHeight, pixelDepth, numberOfArrayElements, numberOfFaces, numberOfMipmapLevels,
                      UInt32(keyValueBytes.count)] {
            out.appendUInt32(field)
        }
        out.append(keyValueBytes)
        out.appendUInt32(UInt32(levelData.count))
        out.append(levelData)
        out.append(contentsOf: [UInt8](repeating: 0, count: Self.padding(levelData.count)))
        return out
    }

    /// Parses a KTX 1.1 file and checks that it is a single-level 2D image whose level is whole.
    /// With `includingLevel: false` every check is made but the level's bytes are not copied
    /// (`levelData` stays empty): enough to verify a header and read the pixel size.
    public init(parsing data: Data, includingLevel: Bool = true) throws(KTXError) {
        let data = data.startIndex == 0 ? data : Data(data)
        guard data.count >= Self.headerSize else { throw .truncated(needed: Self.headerSize, found: data.count) }
        let head = [UInt8](data.prefix(Self.headerSize))
        guard Array(head[0..<12]) == Self.identifier else { throw .notKTX }
        func field(_ index: Int) -> UInt32 { Self.readUInt32(head, at: 12 + 4 * index) }
        guard field(0) == 0x0403_0201 else { throw .unsupportedEndianness }
        glType = field(1)
        glTypeSize = field(2)
        glFormat = field(3)
        glInternalFormat = field(4)
        glBaseInternalFormat = field(5)
        pixelWidth = field(6)
        pixelHeight = field(7)
        pixelDepth = field(8)
        numberOfArrayElements = field(9)
        numberOfFaces = field(10)
        numberOfMipmapLevels = field(11)
        let keyValueLength = Int(field(12))
        guard pixelWidth > 0, pixelHeight > 0, pixelDepth == 0, numberOfArrayElements == 0, numberOfFaces == 1 else {
            throw .notA2DImage
        }
        guard numberOfMipmapLevels <= 1 else { throw .unexpectedMipmaps(Int(numberOfMipmapLevels)) }
        guard keyValueLength <= data.count - Self.headerSize - 4 else {
            throw .truncated(needed: Self.headerSize + keyValueLength + 4, found: data.count)
        }
        let keyValueEnd = Self.headerSize + keyValueLength
        let bytes = [UInt8](data[Self.headerSize..<keyValueEnd + 4])
        var offset = 0
        while offset < keyValueLength {
            guard offset + 4 <= keyValueLength else { throw .badKeyValueData }
            let size = Int(Self.readUInt32(bytes, at: offset))
            offset += 4
            guard size <= keyValueLength - offset else { throw .badKeyValueData }
            let entry = bytes[offset..<offset + size]
            guard let nul = entry.firstIndex(of: 0), let key = String(bytes: entry[..<nul], encoding: .utf8) else {
                throw .badKeyValueData
            }
            keyValues.append(KeyValue(key: key, value: Data(entry[(nul + 1)...])))
            offset += size + Self.padding(size)
        }
        let imageSize = Int(Self.readUInt32(bytes, at: keyValueLength))
        let levelStart = keyValueEnd + 4
        guard imageSize <= data.count - levelStart else { throw .truncated(needed: levelStart + imageSize, found: data.count) }
        levelData = includingLevel ? data.subdata(in: levelStart..<levelStart + imageSize) : Data()
        if glInternalFormat == Self.astc4x4RGBA, !isAppleCompressed {
            let expected = Self.astc4x4ByteCount(width: Int(pixelWidth), height: Int(pixelHeight))
            guard imageSize == expected else { throw .wrongLevelSize(expected: expected, found: imageSize) }
        }
    }

    private static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

/// Why bytes are not a KTX file splashgen can use.
public enum KTXError: Error, Equatable, CustomStringConvertible {
    /// Fewer bytes than the structure needs.
    case truncated(needed: Int, found: Int)
    /// The identifier is not KTX 1.1's.
    case notKTX
    /// The file is big-endian.
    case unsupportedEndianness
    /// Depth, array or cube-map textures, or a zero size.
    case notA2DImage
    /// More than one mipmap level.
    case unexpectedMipmaps(Int)
    /// The key/value area does not parse.
    case badKeyValueData
    /// The ASTC level holds the wrong number of bytes for the pixel size.
    case wrongLevelSize(expected: Int, found: Int)

    public var description: String {
        switch self {
        case .truncated(let needed, let found): return "truncated KTX file: needs at least \(needed) bytes, has \(found)"
        case .notKTX: return "not a KTX 1.1 file (identifier does not match)"
        case .unsupportedEndianness: return "big-endian KTX files are not supported"
        case .notA2DImage: return "not a single 2D image (depth, array or cube-map texture, or zero size)"
        case .unexpectedMipmaps(let n): return "expected one image level, found \(n)"
        case .badKeyValueData: return "malformed key/value data"
        case .wrongLevelSize(let expected, let found):
            return "ASTC 4x4 level holds \(found) bytes; the pixel size needs \(expected)"
        }
    }
}

extension Data {
    fileprivate mutating func appendUInt32(_ value: UInt32) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }
}
