import Foundation

/// A Khronos KTX 1.1 file with a single 2D image level, as iOS caches launch snapshots.
package struct KTXFile: Equatable, Sendable {
    /// The 12-byte file identifier `«KTX 11»\r\n\x1A\n`.
    package static let identifier: [UInt8] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]
    /// `GL_COMPRESSED_RGBA_ASTC_4x4_KHR`, what the OS writes.
    package static let astc4x4RGBA: UInt32 = 0x93B0
    /// `GL_RGBA`.
    package static let glRGBA: UInt32 = 0x1908
    /// Bytes before the key/value data: identifier plus thirteen UInt32 fields.
    package static let headerSize = 64

    /// `glType` (0 for compressed formats).
    package var glType: UInt32 = 0
    /// `glTypeSize` (1 for compressed formats).
    package var glTypeSize: UInt32 = 1
    /// `glFormat` (0 for compressed formats).
    package var glFormat: UInt32 = 0
    /// `glInternalFormat`.
    package var glInternalFormat: UInt32 = KTXFile.astc4x4RGBA
    /// `glBaseInternalFormat`.
    package var glBaseInternalFormat: UInt32 = KTXFile.glRGBA
    /// Image width in pixels.
    package var pixelWidth: UInt32
    /// Image height in pixels.
    package var pixelHeight: UInt32
    /// 0 for a 2D texture.
    package var pixelDepth: UInt32 = 0
    /// 0 when not an array texture.
    package var numberOfArrayElements: UInt32 = 0
    /// 1 when not a cube map.
    package var numberOfFaces: UInt32 = 1
    /// Mipmap levels stored.
    package var numberOfMipmapLevels: UInt32 = 1
    /// Key/value pairs in file order; values keep their bytes (often NUL-terminated text).
    package var keyValues: [KeyValue] = []
    /// The first level's image data.
    package var levelData: Data

    /// One key/value metadata pair.
    package struct KeyValue: Equatable, Sendable {
        /// The key, UTF-8.
        package var key: String
        /// The value's bytes.
        package var value: Data

        /// Makes a pair.
        package init(key: String, value: Data) {
            self.key = key
            self.value = value
        }
    }

    /// Makes an ASTC 4×4 KTX file around block data.
    package init(astc4x4Width width: Int, height: Int, blocks: Data) {
        pixelWidth = UInt32(width)
        pixelHeight = UInt32(height)
        levelData = blocks
    }

    /// Bytes of ASTC 4×4 data for a `width`×`height` image.
    package static func astc4x4ByteCount(width: Int, height: Int) -> Int {
        ((width + 3) / 4) * ((height + 3) / 4) * 16
    }

    /// Whether the level data is LZFSE-compressed (Apple's `Compression_APPLE` key).
    package var isAppleCompressed: Bool { keyValues.contains { $0.key == "Compression_APPLE" } }

    /// The file's bytes, little-endian, exactly as the KTX 1.1 specification lays them out.
    package func serialized() -> Data {
        var out = Data(Self.identifier)
        var keyValueBytes = Data()
        for pair in keyValues {
            var entry = Data(pair.key.utf8)
            entry.append(0)
            entry.append(pair.value)
            keyValueBytes.appendLittleEndian(UInt32(entry.count))
            keyValueBytes.append(entry)
            keyValueBytes.append(contentsOf: [UInt8](repeating: 0, count: Self.padding(entry.count)))
        }
        for field in [
            0x0403_0201, glType, glTypeSize, glFormat, glInternalFormat, glBaseInternalFormat, pixelWidth,
            pixelHeight, pixelDepth, numberOfArrayElements, numberOfFaces, numberOfMipmapLevels,
            UInt32(keyValueBytes.count),
        ] {
            out.appendLittleEndian(field)
        }
        out.append(keyValueBytes)
        out.appendLittleEndian(UInt32(levelData.count))
        out.append(levelData)
        out.append(contentsOf: [UInt8](repeating: 0, count: Self.padding(levelData.count)))
        return out
    }

    /// Parses a KTX 1.1 file and checks that it is a single-level 2D image whose level is whole.
    /// With `includingLevel: false` every check is made but the level's bytes are not copied
    /// (`levelData` stays empty): enough to verify a header and read the pixel size.
    package init(parsing data: Data, includingLevel: Bool = true) throws(SnapshotFormatError) {
        let data = data.startIndex == 0 ? data : Data(data)
        guard data.count >= Self.headerSize else { throw .truncated(needed: Self.headerSize, found: data.count) }
        guard [UInt8](data.prefix(12)) == Self.identifier else { throw .notKTX }
        func field(_ index: Int) -> UInt32 { data.readLittleEndianUInt32(at: 12 + 4 * index) }
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
        guard pixelDepth == 0, numberOfArrayElements == 0, numberOfFaces == 1 else { throw .notA2DImage }
        try Self.checkImage(internalFormat: glInternalFormat, width: pixelWidth, height: pixelHeight)
        guard numberOfMipmapLevels <= 1 else { throw .unexpectedMipmaps(Int(numberOfMipmapLevels)) }
        guard keyValueLength <= data.count - Self.headerSize - 4 else {
            throw .truncated(needed: Self.headerSize + keyValueLength + 4, found: data.count)
        }
        let keyValueEnd = Self.headerSize + keyValueLength
        var offset = Self.headerSize
        while offset < keyValueEnd {
            guard keyValueEnd - offset >= 4 else { throw .badKeyValueData }
            let size = Int(data.readLittleEndianUInt32(at: offset))
            offset += 4
            guard size <= keyValueEnd - offset else { throw .badKeyValueData }
            let entry = data[offset..<offset + size]
            guard let nul = entry.firstIndex(of: 0), let key = String(bytes: entry[..<nul], encoding: .utf8) else {
                throw .badKeyValueData
            }
            keyValues.append(KeyValue(key: key, value: Data(entry[(nul + 1)...])))
            offset += size + Self.padding(size)
        }
        let imageSize = Int(data.readLittleEndianUInt32(at: keyValueEnd))
        let levelStart = keyValueEnd + 4
        guard imageSize <= data.count - levelStart else { throw .truncated(needed: levelStart + imageSize, found: data.count) }
        levelData = includingLevel ? data.subdata(in: levelStart..<levelStart + imageSize) : Data()
        if isAppleCompressed {
            guard imageSize > Self.appleCompressedLead else { throw .wrongLevelSize(expected: Self.appleCompressedLead + 1, found: imageSize) }
        } else {
            let expected = Self.astc4x4ByteCount(width: Int(pixelWidth), height: Int(pixelHeight))
            guard imageSize == expected else { throw .wrongLevelSize(expected: expected, found: imageSize) }
        }
    }

    /// A KTX 1.1 file with `Compression_APPLE` in the key/value data, and a level of 8 bytes
    /// (splashgen writes the raw and the compressed byte counts there; readers do not rely on them)
    /// followed by an LZFSE stream of the ASTC 4×4 blocks: a layout readers parse (docs/ios-launch-cache.md
    /// §3), though no iOS release is known to write it for launch snapshots.
    package init(appleCompressedASTC4x4Width width: Int, height: Int, blocks: Data) {
        let level = Self.appleCompressedLevel(blockBytes: blocks.count, stream: Data(LZFSE.compress([UInt8](blocks))))
        self.init(astc4x4Width: width, height: height, blocks: level)
        keyValues = [KeyValue(key: "Compression_APPLE", value: Data())]
    }

    /// The level of an Apple-compressed file: an 8-byte lead, the blocks' byte count and the
    /// stream's (little-endian: the one layout splashgen knows), then the LZFSE stream.
    static func appleCompressedLevel(blockBytes: Int, stream: Data) -> Data {
        var level = Data()
        level.appendLittleEndian(UInt32(clamping: blockBytes))
        level.appendLittleEndian(UInt32(clamping: stream.count))
        level.append(stream)
        return level
    }

    /// The ASTC 4×4 blocks of the level, decompressed when the file is Apple-compressed; exactly as
    /// many bytes as the pixel size needs.
    package func astcBlocks() throws(SnapshotFormatError) -> Data {
        let expected = Self.astc4x4ByteCount(width: Int(pixelWidth), height: Int(pixelHeight))
        guard isAppleCompressed else {
            guard levelData.count == expected else { throw .wrongLevelSize(expected: expected, found: levelData.count) }
            return levelData
        }
        return try Self.inflate(levelData.dropFirst(Self.appleCompressedLead), expected: expected)
    }

    /// Bytes between the level's imageSize and the LZFSE stream of an Apple-compressed file.
    static let appleCompressedLead = 8
    /// The largest width or height accepted in a header: beyond every screen, and small enough that
    /// no size computed from it can overflow.
    package static let maxDimension: UInt32 = 16384

    /// The checks every container makes on its header (after its own check that the image is 2D):
    /// an ASTC 4×4 image of a sane, non-zero size.
    static func checkImage(internalFormat: UInt32, width: UInt32, height: UInt32) throws(SnapshotFormatError) {
        guard width > 0, height > 0 else { throw .notA2DImage }
        guard width <= maxDimension, height <= maxDimension else { throw .tooLarge(width: Int(width), height: Int(height)) }
        guard internalFormat == astc4x4RGBA else { throw .notASTC4x4(internalFormat) }
    }

    /// An LZFSE stream inflated to exactly `expected` bytes.
    static func inflate(_ stream: Data, expected: Int) throws(SnapshotFormatError) -> Data {
        let blocks: Data
        do { blocks = try LZFSE.decompressData([UInt8](stream), limit: expected) } catch { throw .lzfse(error) }
        guard blocks.count == expected else { throw .wrongLevelSize(expected: expected, found: blocks.count) }
        return blocks
    }

    private static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }
}

/// Why bytes are not a launch snapshot container splashgen can use (KTX 1.1, ATX, or their LZFSE
/// payload).
package enum SnapshotFormatError: Error, Equatable, CustomStringConvertible {
    /// Fewer bytes than the structure needs.
    case truncated(needed: Int, found: Int)
    /// The identifier is not KTX 1.1's.
    case notKTX
    /// The magic is not ATX's.
    case notATX
    /// The file is big-endian.
    case unsupportedEndianness
    /// Depth, array or cube-map textures, or a zero size.
    case notA2DImage
    /// A width or height beyond ``KTXFile/maxDimension``.
    case tooLarge(width: Int, height: Int)
    /// A texture format other than ASTC 4×4.
    case notASTC4x4(UInt32)
    /// More than one mipmap level.
    case unexpectedMipmaps(Int)
    /// The key/value area does not parse.
    case badKeyValueData
    /// The ASTC level holds the wrong number of bytes for the pixel size.
    case wrongLevelSize(expected: Int, found: Int)
    /// An ATX chunk is malformed.
    case badChunk(tag: String, reason: String)
    /// A raw ATX payload whose length is neither the plain block count nor whole Morton tiles.
    case unknownRawLayout(found: Int, rows: Int, tiled: Int)
    /// A raw ATX payload whose length fits row order and whole tiles alike, and whose blocks do not
    /// clearly say which (``RawLayout/decide(among:width:height:payload:)``).
    case undecidedRawLayout
    /// The LZFSE payload does not decode.
    case lzfse(LZFSEError)
    /// Content this reader does not take.
    case unsupported(String)

    package var description: String {
        switch self {
        case .truncated(let needed, let found): return "truncated file: needs at least \(needed) bytes, has \(found)"
        case .notKTX: return "not a KTX 1.1 file (identifier does not match)"
        case .notATX: return "not an ATX file (magic does not match)"
        case .unsupportedEndianness: return "big-endian KTX files are not supported"
        case .notA2DImage: return "not a single 2D image (depth, array or cube-map texture, or zero size)"
        case .tooLarge(let w, let h): return "declares \(w)x\(h) pixels, more than \(KTXFile.maxDimension) on a side"
        case .notASTC4x4(let format): return "texture format 0x\(String(format, radix: 16, uppercase: true)) is not ASTC 4x4 (0x93B0)"
        case .unexpectedMipmaps(let n): return "expected one image level, found \(n)"
        case .badKeyValueData: return "malformed key/value data"
        case .wrongLevelSize(let expected, let found):
            return "ASTC 4x4 data holds \(found) bytes; the pixel size needs \(expected)"
        case .badChunk(let tag, let reason): return "ATX chunk \(tag): \(reason)"
        case .unknownRawLayout(let found, let rows, let tiled):
            return "raw ASTC payload holds \(found) bytes: neither the blocks in row order (\(rows)) nor whole 32x32-block tiles (\(tiled))"
        case .undecidedRawLayout:
            return "the raw ASTC payload's block order cannot be told (row order or 32x32-block Morton tiles fit its length alike): refusing to guess"
        case .lzfse(let error): return "LZFSE payload: \(error.description)"
        case .unsupported(let what): return "cannot read \(what)"
        }
    }
}
