import Foundation

/// Apple's ATX container, which iOS 17 and later write into `.ktx` launch snapshots (reference §3):
/// the magic `AAPL\r\n\x1A\n`, then chunks (UInt32 LE length, 4-byte tag, `length` bytes) until
/// `END `. `HEAD` holds eleven UInt32 (the 5th to 11th: glInternalFormat, glBaseInternalFormat,
/// pixelWidth, pixelHeight, pixelDepth, numberOfArrayElements, numberOfFaces); `LZFS` a UInt32 and
/// an LZFSE stream of the ASTC 4×4 blocks, or `astc` a UInt32 and the raw blocks; `FILL` pads.
/// The first four `HEAD` fields and the UInt32 before the payload are documented nowhere public:
/// they are read and kept, never relied on.
public struct ATXFile: Equatable, Sendable {
    /// `AAPL\r\n\x1A\n`.
    public static let magic: [UInt8] = [0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Most chunks a file may have before it is refused (a real one has four or five).
    public static let maxChunks = 64

    /// The eleven `HEAD` fields as stored.
    public var head: [UInt32]
    /// The block data: LZFSE-compressed (`LZFS`) or raw (`astc`).
    public var payload: Payload
    /// The UInt32 stored before the payload (splashgen writes the raw block byte count).
    public var payloadPrefix: UInt32

    /// How the ASTC blocks are stored.
    public enum Payload: Equatable, Sendable {
        /// An LZFSE stream (`LZFS` chunk).
        case lzfse(Data)
        /// The blocks themselves (`astc` chunk).
        case raw(Data)
    }

    /// `glInternalFormat` (`0x93B0` for ASTC 4×4).
    public var glInternalFormat: UInt32 { head[4] }
    /// `glBaseInternalFormat`.
    public var glBaseInternalFormat: UInt32 { head[5] }
    /// Width in pixels.
    public var pixelWidth: UInt32 { head[6] }
    /// Height in pixels.
    public var pixelHeight: UInt32 { head[7] }

    /// An ATX file around ASTC 4×4 blocks, compressed with LZFSE as iOS 17 writes them, or raw.
    public init(astc4x4Width width: Int, height: Int, blocks: Data, compressed: Bool = true) {
        head = [0, 0, 0, 0, KTXFile.astc4x4RGBA, KTXFile.glRGBA, UInt32(clamping: width), UInt32(clamping: height), 0, 0, 1]
        payloadPrefix = UInt32(clamping: blocks.count)
        payload = compressed ? .lzfse(Data(LZFSE.compress([UInt8](blocks)))) : .raw(blocks)
    }

    /// The file's bytes: magic, `HEAD`, the payload chunk, `END `.
    public func serialized() -> Data {
        var out = Data(Self.magic)
        func chunk(_ tag: String, _ body: Data) {
            out.appendLittleEndian(UInt32(body.count))
            out.append(contentsOf: Array(tag.utf8))
            out.append(body)
        }
        var headBytes = Data()
        for field in head { headBytes.appendLittleEndian(field) }
        chunk("HEAD", headBytes)
        var body = Data()
        body.appendLittleEndian(payloadPrefix)
        switch payload {
        case .lzfse(let stream): body.append(stream); chunk("LZFS", body)
        case .raw(let blocks): body.append(blocks); chunk("astc", body)
        }
        chunk("END ", Data())
        return out
    }

    /// Parses an ATX file, refusing one whose chunks run past the end, repeat `HEAD` or the payload,
    /// lack either, never reach `END `, or whose image is not a 2D ASTC 4×4 image of a sane size.
    /// With `includingPayload: false` the payload's bytes are not copied (enough for the pixel size).
    public init(parsing data: Data, includingPayload: Bool = true) throws(SnapshotFormatError) {
        let data = data.startIndex == 0 ? data : Data(data)
        guard data.count >= Self.magic.count, [UInt8](data.prefix(Self.magic.count)) == Self.magic else { throw .notATX }
        var offset = Self.magic.count
        var head: [UInt32]?
        var payload: Payload?
        var prefix: UInt32 = 0
        var chunks = 0
        var ended = false
        while !ended {
            guard data.count - offset >= 8 else { throw .truncated(needed: offset + 8, found: data.count) }
            let length = Int(data.readLittleEndianUInt32(at: offset))
            let tag = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard length <= data.count - body else { throw .truncated(needed: body + length, found: data.count) }
            chunks += 1
            guard chunks <= Self.maxChunks else { throw .badChunk(tag: tag, reason: "more than \(Self.maxChunks) chunks") }
            switch tag {
            case "HEAD":
                guard head == nil else { throw .badChunk(tag: tag, reason: "appears twice") }
                guard length >= 44 else { throw .badChunk(tag: tag, reason: "holds \(length) bytes, needs 44") }
                head = (0..<11).map { data.readLittleEndianUInt32(at: body + 4 * $0) }
            case "LZFS", "astc", "ASTC":
                guard payload == nil else { throw .badChunk(tag: tag, reason: "a second image payload") }
                guard length >= 4 else { throw .badChunk(tag: tag, reason: "holds \(length) bytes, needs at least 4") }
                prefix = data.readLittleEndianUInt32(at: body)
                let bytes = includingPayload ? data.subdata(in: body + 4..<body + length) : Data()
                payload = tag == "LZFS" ? .lzfse(bytes) : .raw(bytes)
            case "END ":
                ended = true
            default:
                break  // FILL and chunks not known here are skipped.
            }
            offset = body + length
        }
        guard let head else { throw .badChunk(tag: "HEAD", reason: "missing") }
        guard let payload else { throw .badChunk(tag: "LZFS", reason: "no image payload (LZFS or astc chunk)") }
        self.head = head
        self.payload = payload
        payloadPrefix = prefix
        try KTXFile.checkImage(internalFormat: head[4], width: head[6], height: head[7], depth: head[8], arrayElements: head[9], faces: head[10])
        if case .raw(let blocks) = payload, includingPayload {
            let expected = KTXFile.astc4x4ByteCount(width: Int(head[6]), height: Int(head[7]))
            guard blocks.count == expected else { throw .wrongLevelSize(expected: expected, found: blocks.count) }
        }
    }

    /// The ASTC 4×4 blocks, decompressed when stored with LZFSE; never more bytes than the pixel
    /// size needs, and exactly that many.
    public func astcBlocks() throws(SnapshotFormatError) -> Data {
        let expected = KTXFile.astc4x4ByteCount(width: Int(pixelWidth), height: Int(pixelHeight))
        switch payload {
        case .raw(let blocks):
            guard blocks.count == expected else { throw .wrongLevelSize(expected: expected, found: blocks.count) }
            return blocks
        case .lzfse(let stream):
            return try KTXFile.inflate(stream, expected: expected)
        }
    }
}

extension Data {
    /// The UInt32 stored little-endian at `offset` (relative to `startIndex`); the caller checks bounds.
    func readLittleEndianUInt32(at offset: Int) -> UInt32 {
        let i = startIndex + offset
        return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }

    /// Appends `value` little-endian.
    mutating func appendLittleEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }
}
