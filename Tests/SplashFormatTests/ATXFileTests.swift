import Foundation
import SplashFormat
import SplashTestSupport
import Testing

/// ATX and Apple-compressed KTX, laid out by hand from the facts of docs/ios-launch-cache.md (§3: the table of
/// device-written launch snapshots), and every way a hostile header can lie. Files made by reference
/// tools (astcenc, Apple's LZFSE) and their pixels are checked in SplashCoreTests' SnapshotContainerTests.
@Suite struct ATXFileTests {
    /// Bytes of an ATX file from (tag, body) chunks, as the forensic readers parse them.
    static func atx(_ chunks: [(String, [UInt8])]) -> Data {
        var out: [UInt8] = [0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]
        for (tag, body) in chunks { out += le(UInt32(body.count)) + Array(tag.utf8) + body }
        return Data(out)
    }

    static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    /// The 21 words of a device-written launch snapshot's HEAD (§3), typed in from the table.
    static func head(width: UInt32, height: UInt32, format: UInt32 = 0x93B0, depth: UInt32 = 1) -> [UInt8] {
        [1, 0, 0, 0, format, 0x1908, width, height, depth, 0, 1, 1, 0, 1, 1, 0x5555_5555, 0x5555_5555, 0x5555_5555, 0x5555_5555, 1, 5].flatMap(le)
    }

    static let blocks = (0..<KTXFile.astc4x4ByteCount(width: 10, height: 6)).map { UInt8($0 % 251) }

    /// The golden file's bytes, `nil` where a byte depends on the picture.
    static func golden() throws -> [UInt8?] {
        try hexGolden(
            try #require(Bundle.module.url(forResource: "launch-1179x2556-first-256-bytes", withExtension: "txt", subdirectory: "Fixtures/atx")))
    }

    @Test func theWriterLaysOutALaunchSnapshotByteForByteAsTheReferenceTableDoes() throws {
        // A white screen: every block the void-extent block astcenc writes for opaque white.
        let white: [UInt8] = [0xFC, 0xFD] + Array(repeating: 0xFF, count: 14)
        let blocks = Data((0..<KTXFile.astc4x4ByteCount(width: 1179, height: 2556) / 16).flatMap { _ in white })
        let bytes = [UInt8](ATXFile(astc4x4Width: 1179, height: 2556, blocks: blocks).serialized())
        let golden = try Self.golden()
        #expect(golden.count == 256)
        for (offset, expected) in golden.enumerated() {
            if let expected { #expect(bytes[offset] == expected, "byte \(offset)") }
        }
        // The LZFS chunk holds the UInt32 and the stream; the UInt32 is the stream's byte count, and
        // the stream runs to the END chunk, the file's last 8 bytes.
        let stream = bytes.count - 256 - 8
        #expect(Array(bytes[244..<248]) == Self.le(UInt32(stream + 4)))
        #expect(Array(bytes[252..<256]) == Self.le(UInt32(stream)))
        #expect(String(decoding: bytes[256..<260], as: UTF8.self).hasPrefix("bvx"))
        #expect(Array(bytes.suffix(8)) == [0, 0, 0, 0] + Array("END ".utf8))
    }

    @Test func aDeviceLayoutFileReadsAsTheReferenceDescribesIt() throws {
        let data = Self.atx([
            ("HEAD", Self.head(width: 10, height: 6)), ("FILL", [UInt8](repeating: 0, count: 136)),
            ("ASTC", Self.le(96) + Self.blocks), ("END ", []),
        ])
        let file = try ATXFile(parsing: data)
        #expect((file.pixelWidth, file.pixelHeight, file.glInternalFormat, file.pixelDepth) == (10, 6, 0x93B0, 1))
        #expect(file.head.count == 21 && file.head[20] == 5, "every word is kept as read")
        #expect(file.chunks.map(\.tag) == ["HEAD", "FILL", "ASTC", "END "])
        #expect(file.chunks.map(\.offset) == [8, 100, 244, 352])
        #expect(try file.rowOrderBlocks().layout == .rows)
        #expect(try file.astcBlocks() == Data(Self.blocks))
        #expect(try SnapshotHeader.pixelSize(of: data) == (10, 6))
        #expect(SnapshotContent(sniffing: data) == .atx)
    }

    @Test func theElevenWordReadingAndTheLowerCaseTagStillRead() throws {
        // What forensic readers once assumed: a 44-byte HEAD with depth 0, and an `astc` chunk.
        let eleven = Array(Self.head(width: 10, height: 6, depth: 0).prefix(44))
        let file = try ATXFile(parsing: Self.atx([("HEAD", eleven), ("astc", Self.le(96) + Self.blocks), ("END ", [])]))
        #expect(file.head.count == 11)
        #expect(try file.astcBlocks() == Data(Self.blocks))
    }

    @Test func mortonTilesAreReadBackToRowOrder() throws {
        // 64×64 blocks (256×256 px): whole tiles, so rows and both Morton readings fit the length and
        // the evidence decides. The picture is flat bands 10 blocks high, as a launch screen is flat: in
        // the right reading, neighbours across a tile's edge are alike; a transposed tile makes its
        // bands vertical, and they meet the next tile's bands at the edge.
        let across = 64
        func block(_ x: Int, _ y: Int) -> [UInt8] { Array(repeating: UInt8(y / 10 * 37 + 11), count: 16) }
        let rows = (0..<across).flatMap { y in (0..<across).flatMap { x in block(x, y) } }
        // Tiles of 32×32 in row order; inside one, index bit 2i is x's bit i and bit 2i+1 is y's.
        var tiled: [UInt8] = []
        for tile in 0..<4 {
            for index in 0..<1024 {
                var x = 0, y = 0
                for bit in 0..<5 {
                    x |= (index >> (2 * bit) & 1) << bit
                    y |= (index >> (2 * bit + 1) & 1) << bit
                }
                tiled += block(tile % 2 * 32 + x, tile / 2 * 32 + y)
            }
        }
        let file = try ATXFile(parsing: Self.atx([("HEAD", Self.head(width: 256, height: 256)), ("ASTC", Self.le(65536) + tiled), ("END ", [])]))
        let read = try file.rowOrderBlocks()
        #expect(read.layout == .mortonXFirst)
        #expect(read.blocks == Data(rows))
        // Rows against tiles is decided on pictures astcenc made (SnapshotContainerTests): bands in
        // row order read as tiles stay bands, so these blocks cannot tell the two apart.
    }

    @Test func whatSplashgenWritesReadsBackInBothForms() throws {
        for compressed in [true, false] {
            let file = ATXFile(astc4x4Width: 10, height: 6, blocks: Data(Self.blocks), compressed: compressed)
            let bytes = file.serialized()
            #expect(Array(bytes.prefix(8)) == ATXFile.magic)
            #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "HEAD")
            #expect(String(decoding: bytes.suffix(4), as: UTF8.self) == "END ")
            let read = try ATXFile(parsing: bytes)
            #expect(read.head == file.head && read.payload == file.payload && read.payloadPrefix == file.payloadPrefix)
            #expect(try read.astcBlocks() == Data(Self.blocks))
        }
        let ktx = KTXFile(appleCompressedASTC4x4Width: 10, height: 6, blocks: Data(Self.blocks))
        let parsed = try KTXFile(parsing: ktx.serialized())
        #expect(parsed.isAppleCompressed)
        #expect(try parsed.astcBlocks() == Data(Self.blocks))
        // The LZFSE stream starts 12 bytes into the data section (imageSize + 8 bytes), §3.
        let bytes = [UInt8](ktx.serialized())
        let keyValueLength = Int(bytes[60]) | Int(bytes[61]) << 8
        #expect(String(decoding: bytes[(64 + keyValueLength + 12)..<(64 + keyValueLength + 15)], as: UTF8.self) == "bvx")
    }

    @Test func hostileHeadersAreRefusedByName() throws {
        let good: [(String, [UInt8])] = [("HEAD", Self.head(width: 10, height: 6)), ("astc", Self.le(96) + Self.blocks), ("END ", [])]
        func refused(_ chunks: [(String, [UInt8])]) -> SnapshotFormatError? {
            do { _ = try ATXFile(parsing: Self.atx(chunks)).astcBlocks(); return nil } catch { return error }
        }
        #expect(
            refused([("HEAD", Self.head(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))] + good.dropFirst()) == .tooLarge(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
        #expect(refused([("HEAD", Self.head(width: 10, height: 6, format: 0x8058))] + good.dropFirst()) == .notASTC4x4(0x8058))
        #expect(refused([good[0], good[0]] + good.dropFirst()) == .badChunk(tag: "HEAD", reason: "appears twice"))
        #expect(refused([good[0], good[1], good[1], good[2]]) == .badChunk(tag: "astc", reason: "a second image payload"))
        #expect(refused([good[0], good[2]]) == .badChunk(tag: "LZFS", reason: "no image payload (LZFS, ASTC or astc chunk)"))
        #expect(refused([good[1], good[2]]) == .badChunk(tag: "HEAD", reason: "missing"))
        #expect(
            refused([("HEAD", Array(Self.head(width: 10, height: 6).prefix(40)))] + good.dropFirst())
                == .badChunk(tag: "HEAD", reason: "holds 40 bytes, needs at least 44"))
        #expect(
            refused([good[0], ("astc", Self.le(96) + Self.blocks.dropLast(16)), good[2]]) == .unknownRawLayout(found: 80, rows: 96, tiled: 16384))
        #expect(refused([("HEAD", Self.head(width: 10, height: 6, depth: 2))] + good.dropFirst()) == .notA2DImage)
        #expect(refused(Array(repeating: ("FILL", []), count: 70) + good) == .badChunk(tag: "FILL", reason: "more than 64 chunks"))
        #expect(refused([good[0], ("LZFS", Self.le(96) + Array("bvx$".utf8)), good[2]]) == .wrongLevelSize(expected: 96, found: 0))
        // A chunk whose length runs past the end, and a file that never reaches END.
        var lying = [UInt8](Self.atx(good))
        lying.replaceSubrange(8..<12, with: Self.le(0xFFFF_FFF0))
        #expect(throws: SnapshotFormatError.truncated(needed: 16 + 0xFFFF_FFF0, found: lying.count)) { try ATXFile(parsing: Data(lying)) }
        let unended = Self.atx(Array(good.dropLast()))
        #expect(throws: SnapshotFormatError.truncated(needed: unended.count + 8, found: unended.count)) { try ATXFile(parsing: unended) }
    }

    @Test func everyTruncationOfEveryContainerIsRefusedWithoutATrap() throws {
        let files = [
            ATXFile(astc4x4Width: 10, height: 6, blocks: Data(Self.blocks)).serialized(),
            ATXFile(astc4x4Width: 10, height: 6, blocks: Data(Self.blocks), compressed: false).serialized(),
            KTXFile(appleCompressedASTC4x4Width: 10, height: 6, blocks: Data(Self.blocks)).serialized(),
            KTXFile(astc4x4Width: 10, height: 6, blocks: Data(Self.blocks)).serialized(),
        ]
        for file in files {
            for cut in 0..<file.count - 4 {
                let head = file.prefix(cut)
                #expect(throws: SnapshotFormatError.self) { _ = try SnapshotHeader.astcBlocks(of: head) }
            }
        }
    }

    @Test func aKTXHeaderOfFourBillionSquaredIsRefusedNotTrapped() throws {
        var file = KTXFile(astc4x4Width: 8, height: 8, blocks: Data(count: 64))
        file.pixelWidth = 0xFFFF_FFFF
        file.pixelHeight = 0xFFFF_FFFF
        #expect(throws: SnapshotFormatError.tooLarge(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)) { try KTXFile(parsing: file.serialized()) }
        #expect(throws: SnapshotFormatError.tooLarge(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)) { try SnapshotHeader.pixelSize(of: file.serialized()) }
    }
}
