import Foundation
import Testing

@testable import SplashFormat

/// ATX and Apple-compressed KTX, laid out by hand from the reference facts (§3), and every way a
/// hostile header can lie. The decoder's payload oracle (reference-made files) is in SplashCoreTests.
@Suite struct ATXFileTests {
    /// Bytes of an ATX file from (tag, body) chunks, as the forensic readers parse them.
    static func atx(_ chunks: [(String, [UInt8])]) -> Data {
        var out: [UInt8] = [0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]
        for (tag, body) in chunks { out += le(UInt32(body.count)) + Array(tag.utf8) + body }
        return Data(out)
    }

    static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    static func head(width: UInt32, height: UInt32, format: UInt32 = 0x93B0) -> [UInt8] {
        [1, 0, 0, 0, format, 0x1908, width, height, 0, 0, 1].flatMap(le)
    }

    static let blocks = (0..<KTXFile.astc4x4ByteCount(width: 10, height: 6)).map { UInt8($0 % 251) }

    @Test func aHandMadeATXFileReadsAsTheReferenceDescribesIt() throws {
        let data = Self.atx([
            ("HEAD", Self.head(width: 10, height: 6)), ("FILL", [0, 0, 0, 0]),
            ("astc", Self.le(96) + Self.blocks), ("END ", []),
        ])
        let file = try ATXFile(parsing: data)
        #expect((file.pixelWidth, file.pixelHeight, file.glInternalFormat) == (10, 6, 0x93B0))
        #expect(file.head[0] == 1, "the undocumented fields are kept as read")
        #expect(try file.astcBlocks() == Data(Self.blocks))
        #expect(try SnapshotHeader.pixelSize(of: data) == (10, 6))
        #expect(SnapshotContent(sniffing: data) == .atx)
    }

    @Test func whatSplashgenWritesReadsBackInBothForms() throws {
        for compressed in [true, false] {
            let file = ATXFile(astc4x4Width: 10, height: 6, blocks: Data(Self.blocks), compressed: compressed)
            let bytes = file.serialized()
            #expect(Array(bytes.prefix(8)) == ATXFile.magic)
            #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "HEAD")
            #expect(String(decoding: bytes.suffix(4), as: UTF8.self) == "END ")
            let read = try ATXFile(parsing: bytes)
            #expect(read == file)
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
        #expect(refused([good[0], good[2]]) == .badChunk(tag: "LZFS", reason: "no image payload (LZFS or astc chunk)"))
        #expect(refused([good[1], good[2]]) == .badChunk(tag: "HEAD", reason: "missing"))
        #expect(
            refused([("HEAD", Array(Self.head(width: 10, height: 6).prefix(40)))] + good.dropFirst())
                == .badChunk(tag: "HEAD", reason: "holds 40 bytes, needs 44"))
        #expect(refused([good[0], ("astc", Self.le(96) + Self.blocks.dropLast(16)), good[2]]) == .wrongLevelSize(expected: 96, found: 80))
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
