import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import Testing

/// Launch snapshots as iOS stores them, made by reference tools (astcenc's command line, Apple's
/// LZFSE through pyliblzfse; `Fixtures/snapshots/make-fixtures.py`, checked by its own
/// `check-fixtures.py`) from the words of docs/ios-launch-cache.md (§3): splashgen must read each container's size
/// from its header and decode its pixels back to the picture they were made from. The expectations
/// are those pictures and astcenc's own blocks, never splashgen's writer.
@Suite struct SnapshotContainerTests {
    static let names = [
        "atx-lzfs.ktx", "atx-raw.ktx", "ktx-apple.ktx", "ktx-plain.ktx", "launch-lzfs.ktx", "launch-astc-rows.ktx",
    ]

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: Fixtures.url("snapshots/" + name)) }

    @Test(arguments: names) func referenceMadeFilesDecodeToThePictureTheyWereMadeFrom(_ name: String) throws {
        let data = try Self.fixture(name)
        let scene = try PNGCodec.decode(try Self.fixture("scene.png"))
        #expect(try SnapshotHeader.pixelSize(of: data) == (61, 45))
        let image = try SnapshotDecoder().decode(data)
        #expect((image.width, image.height) == (61, 45))
        // astcenc -thorough on flat colour and gradients: well above the 40 dB bar of ASTCQualityTests.
        #expect(psnr(image, scene) > 40, "\(name): \(psnr(image, scene)) dB")
        #expect(image[60, 44] == RGBAColor(r: 255, g: 255, b: 255), "the white corner survives")
    }

    @Test func aRecordedWidthOneWiderReadsWithTheSameBlocks() throws {
        let wide = try Self.fixture("launch-astc-wide.ktx")
        #expect(try SnapshotHeader.pixelSize(of: wide) == (62, 45))
        #expect(try SnapshotHeader.astcBlocks(of: wide).blocks == SnapshotHeader.astcBlocks(of: try Self.fixture("launch-astc-rows.ktx")).blocks)
        let image = try SnapshotDecoder().decode(wide)
        let scene = try PNGCodec.decode(try Self.fixture("scene.png"))
        let first61 = RGBAImage(width: 61, height: 45, pixels: (0..<45).flatMap { y in image.pixels[(y * 62 * 4)..<(y * 62 * 4 + 61 * 4)] })
        #expect(psnr(first61, scene) > 40)
    }

    /// The same astcenc blocks in row order and in Morton tiles of either interleaving: every file
    /// reads back to the row-order blocks, in the layout its name says, and to its picture.
    @Test(arguments: [
        ("tiles", "tiles-rows.ktx", RawLayout.rows), ("tiles", "tiles-morton-x.ktx", .mortonXFirst), ("tiles", "tiles-morton-y.ktx", .mortonYFirst),
        ("pad", "pad-morton-x.ktx", .mortonXFirst), ("pad", "pad-morton-y.ktx", .mortonYFirst),
    ])
    func rawPayloadsInEveryLayoutReadBackToTheirPicture(_ picture: String, _ name: String, _ layout: RawLayout) throws {
        let file = try ATXFile(parsing: try Self.fixture(name))
        #expect(try file.rowOrderBlocks().layout == layout)
        let png = try Self.fixture(picture + ".png")
        let scene = try PNGCodec.decode(png)
        let image = try SnapshotDecoder().decode(try Self.fixture(name))
        #expect((image.width, image.height) == (scene.width, scene.height))
        #expect(psnr(image, scene) > 40, "\(name): \(psnr(image, scene)) dB")
        if picture == "tiles" {
            #expect(try file.astcBlocks() == ATXFile(parsing: try Self.fixture("tiles-rows.ktx")).astcBlocks())
        }
    }

    @Test func emptyLaunchScreensAtFullSizeDecodeToTheirColour() throws {
        for (name, value) in [("launch-white-1179x2556.ktx", UInt8(255)), ("launch-black-1179x2556.ktx", 0)] {
            let data = try Self.fixture(name)
            let blocks = try SnapshotHeader.astcBlocks(of: data)
            #expect((blocks.width, blocks.height) == (1179, 2556))
            // §3: the first block of an empty screen is a void-extent (constant colour) block.
            #expect(Array(blocks.blocks.prefix(2)) == [0xFC, 0xFD])
            let image = try SnapshotDecoder().decode(data)
            #expect(image.pixels.allSatisfy { $0 == value || $0 == 255 }, "\(name): only the colour and opaque alpha")
            #expect(image[1178, 2555] == RGBAColor(r: value, g: value, b: value))
        }
    }

    @Test func inspectTellsTheContainersApart() throws {
        func facts(_ name: String) throws -> [String: String] {
            Dictionary(try FileInspector.describe(try Self.fixture(name)).map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        let atx = try facts("atx-lzfs.ktx")
        #expect(atx["format"]?.hasPrefix("Apple ATX container") == true)
        #expect(atx["size"] == "61x45")
        #expect(atx["payload"]?.hasPrefix("LZFSE, ") == true && atx["payload"]?.contains("→ 3072 bytes of ASTC blocks") == true)
        #expect(try facts("atx-raw.ktx")["payload"] == "astc chunk, UInt32 3072, 3072 bytes of raw blocks in row order")
        let launch = try facts("launch-lzfs.ktx")
        #expect(launch["chunks"] == "HEAD 84 at 8, FILL 136 at 100, LZFS \(1749 - 252 - 8) at 244, END 0 at \(1749 - 8)")
        #expect(launch["HEAD word 8"] == "0x00000001 (depth)" && launch["HEAD word 20"] == "0x00000005")
        #expect(launch["payload"]?.contains("(the stream's byte count)") == true)
        #expect(try facts("tiles-morton-y.ktx")["payload"]?.hasSuffix("Morton tiles of 32x32 blocks, morton-y-first") == true)
        let compressed = try facts("ktx-apple.ktx")
        #expect(compressed["format"] == "KTX 1.1, little-endian" && compressed["key Compression_APPLE"] != nil)
        #expect(compressed["payload"]?.contains("→ 3072 bytes of ASTC blocks") == true)
    }

    @Test(arguments: names) func everyDamagedByteIsRefusedOrDecodedNeverATrap(_ name: String) throws {
        let data = try Self.fixture(name)
        for position in stride(from: 0, to: data.count, by: 3) {
            var damaged = data
            damaged[position] ^= 0x5A
            // Either a named refusal or pixels of the declared size; never a crash or a hang.
            if let image = try? SnapshotDecoder().decode(damaged) {
                let declared = try SnapshotHeader.pixelSize(of: damaged)
                #expect((image.width, image.height) == (declared.width, declared.height), "\(name), byte \(position)")
            }
        }
    }
}
