#if canImport(ImageIO)
import Foundation
import SplashFormat
import Testing

import SplashApplier

/// The app's decoder on Apple platforms (ImageIO after SplashFormat unwraps ATX and LZFSE), run by
/// the macOS CI job. Expectations from the ASTC specification: a void-extent block (first bytes
/// FC FD, then four 0xFF bytes of extent, then R, G, B, A as 16-bit values) is one colour.
@Suite struct ImageIODecoderTests {
    static func voidExtent(r: UInt16, g: UInt16, b: UInt16, a: UInt16) -> [UInt8] {
        [0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [r, g, b, a].flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test(arguments: [true, false]) func aLaunchSnapshotOfOneColourDecodesToIt(compressed: Bool) throws {
        let (width, height) = (10, 6)  // partial blocks on both edges
        let blocks = Data((0..<(3 * 2)).flatMap { _ in Self.voidExtent(r: 0xFFFF, g: 0x8080, b: 0, a: 0xFFFF) })
        let file = ATXFile(astc4x4Width: width, height: height, blocks: blocks, compressed: compressed).serialized()
        let image = try ImageIODecoder().decode(file)
        #expect((image.width, image.height) == (width, height))
        for y in 0..<height {
            for x in 0..<width { #expect(image[x, y] == RGBAColor(r: 255, g: 128, b: 0), "(\(x), \(y))") }
        }
    }

    @Test func bytesThatAreNoSnapshotAreRefused() {
        #expect(throws: (any Error).self) { try ImageIODecoder().decode(Data("not a snapshot".utf8)) }
    }
}
#endif
