// Expectations: hand-worked from the Khronos KTX 1.1 specification (docs/ios-launch-cache.md §3):
// the identifier bytes, the 13 header words, 3×2 ASTC blocks × 16 = 96 bytes, a key/value entry of
// 4 + 23 bytes padded to 28, and the truncation sizes that layout implies. Parsing back to an equal
// KTXFile is a round trip: the code under test reads what it wrote.
import Foundation
import SplashFormat
import Testing

@Suite struct KTXFileTests {
    @Test func theHeaderIsLaidOutAsTheKTX11SpecificationSays() throws {
        let blocks = Data((0..<(KTXFile.astc4x4ByteCount(width: 10, height: 6))).map { UInt8($0 % 251) })
        var file = KTXFile(astc4x4Width: 10, height: 6, blocks: blocks)
        file.keyValues = [KTXFile.KeyValue(key: "KTXorientation", value: Data("S=r,T=d\0".utf8))]
        let bytes = [UInt8](file.serialized())
        #expect(Array(bytes[0..<12]) == [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A])
        func field(_ i: Int) -> UInt32 { bytes[12 + 4 * i..<16 + 4 * i].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        #expect((0..<13).map(field) == [0x0403_0201, 0, 1, 0, 0x93B0, 0x1908, 10, 6, 0, 0, 1, 1, 28])
        // 3 x 2 blocks of 16 bytes; key/value entry: 4-byte size + 23 bytes + 1 byte padding.
        #expect(blocks.count == 96)
        #expect(bytes.count == 64 + 28 + 4 + 96)
        #expect(try KTXFile(parsing: Data(bytes)) == file)
    }

    @Test func damagedFilesAreRefusedWithANamedReason() throws {
        let good = KTXFile(astc4x4Width: 8, height: 8, blocks: Data(count: 64)).serialized()
        #expect(throws: SnapshotFormatError.truncated(needed: 64, found: 10)) { try KTXFile(parsing: good.prefix(10)) }
        #expect(throws: SnapshotFormatError.notKTX) { try KTXFile(parsing: Data(count: 80)) }
        #expect(throws: SnapshotFormatError.truncated(needed: 132, found: 100)) { try KTXFile(parsing: good.prefix(100)) }
        var wrongSize = KTXFile(astc4x4Width: 8, height: 8, blocks: Data(count: 64))
        wrongSize.pixelWidth = 12
        #expect(throws: SnapshotFormatError.wrongLevelSize(expected: 96, found: 64)) { try KTXFile(parsing: wrongSize.serialized()) }
    }
}
