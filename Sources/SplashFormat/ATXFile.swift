import Foundation

/// Apple's ATX container, which recent iOS releases write into `.ktx` launch snapshots (docs/ios-launch-cache.md
/// §3, from device-written files): the magic `AAPL\r\n\x1A\n`, then chunks (UInt32 LE length, 4-byte
/// tag, `length` bytes) until `END `.
///
/// What real launch snapshots hold: `HEAD` (21 UInt32: words 4–7 glInternalFormat,
/// glBaseInternalFormat, width, height; word 8 depth, 1; word 10 faces, 1), `FILL` (zeros up to the
/// payload's blocks at byte 256), `LZFS` (UInt32 stream byte count + an LZFSE stream of the ASTC
/// 4×4 blocks in row order), `END `. Raw payloads (`ASTC`, `astc`) hold the blocks in row order or
/// in 32×32-block Morton tiles. The reader takes any `HEAD` of at least 44 bytes and relies on
/// words 4–8 and 10 only; every other word is kept as read.
package struct ATXFile: Equatable, Sendable {
    /// `AAPL\r\n\x1A\n`.
    package static let magic: [UInt8] = [0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Most chunks a file may have before it is refused (a real one has four).
    package static let maxChunks = 64
    /// The most `HEAD` words kept (a real one has 21).
    package static let maxHeadWords = 64
    /// Where a launch snapshot's block data starts: `FILL` pads the chunks before it to this offset.
    package static let payloadDataOffset = 256

    /// The `HEAD` words as stored (at least eleven).
    package var head: [UInt32]
    /// The block data: LZFSE-compressed (`LZFS`) or raw (`ASTC`/`astc`).
    package var payload: Payload
    /// The payload chunk's tag as stored (`LZFS`, `ASTC` or `astc`).
    package var payloadTag: String
    /// The UInt32 stored before the payload (in launch snapshots, the LZFSE stream's byte count).
    package var payloadPrefix: UInt32
    /// Every chunk in file order: tag, offset of its header, and data length (for `inspect`).
    package var chunks: [Chunk]

    /// One chunk as found in the file.
    package struct Chunk: Equatable, Sendable {
        /// The 4-byte tag.
        package var tag: String
        /// Offset of the chunk's 8-byte header in the file.
        package var offset: Int
        /// Bytes of data after the header.
        package var length: Int
    }

    /// How the ASTC blocks are stored.
    package enum Payload: Equatable, Sendable {
        /// An LZFSE stream (`LZFS` chunk).
        case lzfse(Data)
        /// The blocks themselves (`ASTC` or `astc` chunk), in row order or in Morton tiles.
        case raw(Data)
    }

    /// `glInternalFormat` (`0x93B0` for ASTC 4×4).
    package var glInternalFormat: UInt32 { head[4] }
    /// `glBaseInternalFormat`.
    package var glBaseInternalFormat: UInt32 { head[5] }
    /// Width in pixels as recorded (may exceed the screen's by one; the block count is the same).
    package var pixelWidth: UInt32 { head[6] }
    /// Height in pixels.
    package var pixelHeight: UInt32 { head[7] }
    /// Depth: 1 in real files (0 in the 44-byte reading forensic tools once assumed).
    package var pixelDepth: UInt32 { head[8] }

    /// The 21 `HEAD` words of a launch snapshot of `width`×`height`, as device-written files hold them.
    package static func launchHead(width: Int, height: Int) -> [UInt32] {
        [
            1, 0, 0, 0, KTXFile.astc4x4RGBA, KTXFile.glRGBA, UInt32(clamping: width), UInt32(clamping: height), 1, 0, 1, 1, 0, 1, 1,
            0x5555_5555, 0x5555_5555, 0x5555_5555, 0x5555_5555, 1, 5,
        ]
    }

    /// A launch snapshot around ASTC 4×4 blocks in row order, laid out as the OS writes one: the
    /// 21-word `HEAD`, `FILL` to byte 256, then `LZFS` (the LZFSE stream's byte count and the stream)
    /// or, with `compressed: false`, `ASTC` (the blocks' byte count and the blocks).
    package init(astc4x4Width width: Int, height: Int, blocks: Data, compressed: Bool = true) {
        let head = Self.launchHead(width: width, height: height)
        if compressed {
            self.init(head: head, lzfseStream: Data(LZFSE.compress([UInt8](blocks))))
        } else {
            self.init(head: head, rowOrderBlocks: blocks, tag: "ASTC")
        }
    }

    /// A launch snapshot with these `HEAD` words around an LZFSE stream of ASTC 4×4 blocks (`LZFS`).
    package init(head: [UInt32], lzfseStream stream: Data) {
        self.init(head: head, payload: .lzfse(stream), tag: "LZFS", prefix: UInt32(clamping: stream.count))
    }

    /// A launch snapshot with these `HEAD` words around raw ASTC 4×4 blocks in row order, in a
    /// payload chunk tagged `tag` (`ASTC` or `astc`).
    package init(head: [UInt32], rowOrderBlocks blocks: Data, tag: String) {
        self.init(head: head, payload: .raw(blocks), tag: tag, prefix: UInt32(clamping: blocks.count))
    }

    private init(head: [UInt32], payload: Payload, tag: String, prefix: UInt32) {
        self.head = head
        self.payload = payload
        payloadTag = tag
        payloadPrefix = prefix
        chunks = []
    }

    /// The file's bytes: magic, `HEAD`, `FILL` up to byte 256 for the payload's data, the payload
    /// chunk, `END `.
    package func serialized() -> Data {
        var out = Data(Self.magic)
        func chunk(_ tag: String, _ body: Data) {
            out.appendLittleEndian(UInt32(body.count))
            out.append(contentsOf: Array(tag.utf8))
            out.append(body)
        }
        var headBytes = Data()
        for field in head { headBytes.appendLittleEndian(field) }
        chunk("HEAD", headBytes)
        // After FILL's header and the payload chunk's header and UInt32, the blocks start at 256.
        let fill = Self.payloadDataOffset - out.count - 8 - 8 - 4
        if fill >= 0 { chunk("FILL", Data(count: fill)) }
        var body = Data()
        body.appendLittleEndian(payloadPrefix)
        switch payload {
        case .lzfse(let stream): body.append(stream)
        case .raw(let blocks): body.append(blocks)
        }
        chunk(payloadTag, body)
        chunk("END ", Data())
        return out
    }

    /// Parses an ATX file, refusing one whose chunks run past the end, repeat `HEAD` or the payload,
    /// lack either, never reach `END `, whose image is not a 2D ASTC 4×4 image of a sane size, or
    /// whose raw payload has a length neither block layout explains. `FILL` and unknown chunks are
    /// skipped. With `includingPayload: false` the payload's bytes are not copied.
    package init(parsing data: Data, includingPayload: Bool = true) throws(SnapshotFormatError) {
        let data = data.startIndex == 0 ? data : Data(data)
        guard data.count >= Self.magic.count, [UInt8](data.prefix(Self.magic.count)) == Self.magic else { throw .notATX }
        var offset = Self.magic.count
        var head: [UInt32]?
        var payload: (tag: String, prefix: UInt32, bytes: Data, length: Int)?
        var chunks: [Chunk] = []
        var ended = false
        while !ended {
            guard data.count - offset >= 8 else { throw .truncated(needed: offset + 8, found: data.count) }
            let length = Int(data.readLittleEndianUInt32(at: offset))
            let tag = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard length <= data.count - body else { throw .truncated(needed: body + length, found: data.count) }
            guard chunks.count < Self.maxChunks else { throw .badChunk(tag: tag, reason: "more than \(Self.maxChunks) chunks") }
            chunks.append(Chunk(tag: tag, offset: offset, length: length))
            switch tag {
            case "HEAD":
                guard head == nil else { throw .badChunk(tag: tag, reason: "appears twice") }
                guard length >= 44 else { throw .badChunk(tag: tag, reason: "holds \(length) bytes, needs at least 44") }
                head = (0..<min(length / 4, Self.maxHeadWords)).map { data.readLittleEndianUInt32(at: body + 4 * $0) }
            case "LZFS", "ASTC", "astc":
                guard payload == nil else { throw .badChunk(tag: tag, reason: "a second image payload") }
                guard length >= 4 else { throw .badChunk(tag: tag, reason: "holds \(length) bytes, needs at least 4") }
                let bytes = includingPayload ? data.subdata(in: body + 4..<body + length) : Data()
                payload = (tag, data.readLittleEndianUInt32(at: body), bytes, length - 4)
            case "END ":
                ended = true
            default:
                break  // FILL, and chunks not known here, are skipped.
            }
            offset = body + length
        }
        guard let head else { throw .badChunk(tag: "HEAD", reason: "missing") }
        guard let payload else { throw .badChunk(tag: "LZFS", reason: "no image payload (LZFS, ASTC or astc chunk)") }
        // Words 4–8 and 10 as docs/ios-launch-cache.md §3 names them; word 9 and the rest are never relied on.
        guard head[8] <= 1, head[10] == 1 else { throw .notA2DImage }
        try KTXFile.checkImage(internalFormat: head[4], width: head[6], height: head[7])
        self.head = head
        self.chunks = chunks
        payloadTag = payload.tag
        payloadPrefix = payload.prefix
        self.payload = payload.tag == "LZFS" ? .lzfse(payload.bytes) : .raw(payload.bytes)
        if payload.tag != "LZFS" {
            _ = try RawLayout.candidates(width: Int(head[6]), height: Int(head[7]), payloadBytes: payload.length)
        }
    }

    /// The ASTC 4×4 blocks in row order, top row first: inflated when stored with LZFSE, put back in
    /// row order when stored in Morton tiles; exactly as many bytes as the pixel size needs.
    package func astcBlocks() throws(SnapshotFormatError) -> Data {
        try rowOrderBlocks().blocks
    }

    /// The blocks in row order and the layout they were stored in (nil for LZFSE, always row order).
    /// Throws ``SnapshotFormatError/undecidedRawLayout`` when the payload's length fits rows and
    /// tiles alike and its blocks do not clearly say which: never a guess.
    package func rowOrderBlocks() throws(SnapshotFormatError) -> (blocks: Data, layout: RawLayout?) {
        let width = Int(pixelWidth), height = Int(pixelHeight)
        switch payload {
        case .lzfse(let stream):
            return (try KTXFile.inflate(stream, expected: KTXFile.astc4x4ByteCount(width: width, height: height)), nil)
        case .raw(let bytes):
            let candidates = try RawLayout.candidates(width: width, height: height, payloadBytes: bytes.count)
            let layout = try RawLayout.decide(among: candidates, width: width, height: height, payload: bytes)
            return (layout.rowOrder(bytes, width: width, height: height), layout)
        }
    }
}

/// How a raw ATX payload lays out its ASTC 4×4 blocks (docs/ios-launch-cache.md §3): in plain row order, or padded
/// to whole tiles of 32×32 blocks, tiles in row order and blocks inside a tile in Morton (Z) order,
/// with either bit interleaving.
package enum RawLayout: String, CaseIterable, Sendable {
    /// Row order, top row first: exactly the block count × 16 bytes.
    case rows
    /// Morton tiles, bit 0 of the index is x's lowest bit.
    case mortonXFirst = "morton-x-first"
    /// Morton tiles, bit 0 of the index is y's lowest bit.
    case mortonYFirst = "morton-y-first"

    /// Blocks on a tile's side.
    package static let tileBlocks = 32

    /// The layouts whose length is `payloadBytes` for a `width`×`height` image: rows, the two Morton
    /// readings, or all three when whole tiles hold exactly the plain block count.
    static func candidates(width: Int, height: Int, payloadBytes: Int) throws(SnapshotFormatError) -> [RawLayout] {
        let rows = KTXFile.astc4x4ByteCount(width: width, height: height)
        let tiled = tiledByteCount(width: width, height: height)
        var found: [RawLayout] = []
        if payloadBytes == rows { found.append(.rows) }
        if payloadBytes == tiled { found += [.mortonXFirst, .mortonYFirst] }
        guard !found.isEmpty else { throw .unknownRawLayout(found: payloadBytes, rows: rows, tiled: tiled) }
        return found
    }

    /// Bytes of a payload padded to whole 32×32-block tiles.
    static func tiledByteCount(width: Int, height: Int) -> Int {
        let side = tileBlocks
        return ((width + 3) / 4 + side - 1) / side * side * (((height + 3) / 4 + side - 1) / side * side) * 16
    }

    /// The layout the blocks clearly show. Where only one layout fits the length, it; where rows and
    /// tiles both fit (sides that are multiples of 128 pixels, such as a 1536×2048 iPad), row order
    /// unless the blocks show tiles, and ``SnapshotFormatError/undecidedRawLayout`` when they say
    /// neither clearly. The fewest differing neighbours is no evidence there: row data read as
    /// Morton tiles folds about three source rows into each tile, whose neighbours are then mostly
    /// neighbours within a row, so a picture of even rows (a vertical gradient, bands) reads more
    /// coherently as tiles than as itself. What row data cannot give is a tile grid: tiles read
    /// right join their neighbours along every tile seam as well as inside, while the other
    /// interleaving (each tile transposed) breaks every seam; row data read as tiles breaks the
    /// seams of both alike. So tiles need one interleaving's seams much cleaner than the other's,
    /// rows clearly less coherent, and no excess of broken seams; rows need rows clearly more
    /// coherent with no tile grid in them, or both interleavings (reading differently) broken at
    /// every seam. A payload that reads the same every way is row order; one whose two Morton
    /// readings are the same (a picture uniform inside every tile, such as a checkerboard of
    /// 128-pixel squares) has no seam evidence, and is rows only when rows are clearly more coherent.
    static func decide(among candidates: [RawLayout], width: Int, height: Int, payload: Data) throws(SnapshotFormatError) -> RawLayout {
        guard candidates.count > 1 else { return candidates[0] }
        let readings = candidates.map { $0.rowOrder(payload, width: width, height: height) }
        if readings.dropFirst().allSatisfy({ $0 == readings[0] }) { return candidates[0] }
        func evidence(_ layout: RawLayout) -> Evidence? {
            candidates.firstIndex(of: layout).map { Evidence(readings[$0], width: width, height: height) }
        }
        guard let x = evidence(.mortonXFirst), let y = evidence(.mortonYFirst) else { return candidates[0] }
        // Where both interleavings read alike (every tile uniform, or symmetric about its diagonal),
        // their seams cannot differ: broken seams then show a picture of tiles as well as rows.
        let morton = candidates.indices.filter { candidates[$0] != .rows }.map { readings[$0] }
        let interleavingsAgree = morton.count == 2 && morton[0] == morton[1]
        let (tiled, best, other) = y.seamDiffering < x.seamDiffering ? (RawLayout.mortonYFirst, y, x) : (.mortonXFirst, x, y)
        let seamContrast = Double(other.seamDiffering + 8) / Double(best.seamDiffering + 8)
        guard let rows = evidence(.rows) else {
            guard seamContrast >= 1.5 else { throw .undecidedRawLayout }
            return tiled
        }
        let rowsOverTiles = Double(rows.differing + 8) / Double(best.differing + 8)
        let seamRate = Double(best.seamDiffering) / Double(max(best.seamPairs, 1))
        let showsTiles = seamContrast >= 1.5 && rowsOverTiles >= 1.25 && best.seamExcess <= 5
        let showsRows =
            (rowsOverTiles <= 1 / 1.1 && rows.seamExcess <= 8)
            || (!interleavingsAgree && seamContrast <= 1.2 && best.seamExcess >= 4 && seamRate >= 0.5 && rows.seamExcess <= 2)
        guard showsTiles != showsRows else { throw .undecidedRawLayout }
        return showsTiles ? tiled : .rows
    }

    /// Neighbouring pairs of blocks (left and right, above and below) of one reading, over the whole
    /// tiles inside the image (the whole image when it holds no whole tile): how many there are, how
    /// many differ, and how many of each lie across a tile seam.
    struct Evidence {
        var differing = 0, pairs = 0, seamDiffering = 0, seamPairs = 0

        /// Differing pairs across seams over what the rate inside tiles predicts: about 1 where the
        /// tiles join, large where they break at every seam.
        var seamExcess: Double {
            let inside = Double(differing - seamDiffering) / Double(max(pairs - seamPairs, 1))
            return (Double(seamDiffering) + 8) / (Double(seamPairs) * inside + 8)
        }

        init(_ blocks: Data, width: Int, height: Int) {
            let across = (width + 3) / 4, down = (height + 3) / 4, side = RawLayout.tileBlocks
            var (columns, rows) = (across / side * side, down / side * side)
            if columns == 0 || rows == 0 { (columns, rows) = (across, down) }
            var (differing, pairs, seamDiffering, seamPairs) = (0, 0, 0, 0)
            blocks.withUnsafeBytes { raw in
                func differ(_ a: Int, _ b: Int) -> Bool {
                    raw.loadUnaligned(fromByteOffset: a * 16, as: UInt64.self) != raw.loadUnaligned(fromByteOffset: b * 16, as: UInt64.self)
                        || raw.loadUnaligned(fromByteOffset: a * 16 + 8, as: UInt64.self)
                            != raw.loadUnaligned(fromByteOffset: b * 16 + 8, as: UInt64.self)
                }
                func tally(_ differs: Bool, seam: Bool) {
                    pairs += 1
                    if seam { seamPairs += 1 }
                    if differs {
                        differing += 1
                        if seam { seamDiffering += 1 }
                    }
                }
                for y in 0..<rows {
                    for x in 0..<columns {
                        let here = y * across + x
                        if x > 0 { tally(differ(here - 1, here), seam: x % side == 0) }
                        if y > 0 { tally(differ(here - across, here), seam: y % side == 0) }
                    }
                }
            }
            (self.differing, self.pairs, self.seamDiffering, self.seamPairs) = (differing, pairs, seamDiffering, seamPairs)
        }
    }

    /// The blocks of `payload`, read in this layout, in row order.
    func rowOrder(_ payload: Data, width: Int, height: Int) -> Data {
        guard self != .rows else { return payload }
        let across = (width + 3) / 4, down = (height + 3) / 4
        let yFirst = self == .mortonYFirst
        var out = Data(count: across * down * 16)
        payload.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in Self.untile(source, into: target, across: across, down: down, yFirst: yFirst) }
        }
        return out
    }

    /// Copies each 16-byte block of `source`, tile by tile in Morton order, to its place in `target`,
    /// row by row `across` blocks wide (outside the closures over `Data`, which would copy it once per
    /// kind of storage).
    @inline(never)
    private static func untile(_ source: UnsafeRawBufferPointer, into target: UnsafeMutableRawBufferPointer, across: Int, down: Int, yFirst: Bool) {
        let side = tileBlocks, tilesAcross = (across + side - 1) / side
        for index in 0..<(source.count / 16) {
            let tile = index / (side * side), within = index % (side * side)
            var (x, y) = deinterleave(within)
            if yFirst { swap(&x, &y) }
            x += tile % tilesAcross * side
            y += tile / tilesAcross * side
            guard x < across, y < down else { continue }
            let to = (y * across + x) * 16
            target[to..<to + 16].copyBytes(from: source[index * 16..<index * 16 + 16])
        }
    }

    /// The even bits and the odd bits of a Morton index within a tile.
    private static func deinterleave(_ index: Int) -> (even: Int, odd: Int) {
        var even = 0, odd = 0
        for bit in 0..<5 {
            even |= (index >> (2 * bit) & 1) << bit
            odd |= (index >> (2 * bit + 1) & 1) << bit
        }
        return (even, odd)
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
