import Foundation
import SplashFormat
import Testing

@testable import SplashCore

/// Launch snapshots as iOS stores them, made by reference tools (astcenc's command line, Apple's
/// LZFSE through pyliblzfse; `Fixtures/snapshots/make-fixtures.py`): splashgen must read each
/// container's size from its header and decode its pixels back to the picture they were made from.
@Suite struct SnapshotContainerTests {
    static let names = ["atx-lzfs.ktx", "atx-raw.ktx", "ktx-apple.ktx", "ktx-plain.ktx"]

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

    @Test func inspectTellsTheContainersApart() throws {
        func facts(_ name: String) throws -> [String: String] {
            Dictionary(try FileInspector.describe(try Self.fixture(name)).map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        let atx = try facts("atx-lzfs.ktx")
        #expect(atx["format"]?.hasPrefix("Apple ATX container") == true)
        #expect(atx["size"] == "61x45")
        #expect(atx["payload"]?.hasPrefix("LZFSE, ") == true && atx["payload"]?.contains("→ 3072 bytes of ASTC blocks") == true)
        #expect(try facts("atx-raw.ktx")["payload"] == "astc chunk, 3072 bytes of raw blocks")
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
                #expect(image.pixels.count == image.width * image.height * 4)
            }
        }
    }
}
