import Foundation
import SplashFormat
import SplashFormatWriting
import SplashTestSupport
import Testing

/// Raw DEFLATE against zlib as Python ships it: what one writes, the other reads.
@Suite struct DeflateTests {
    /// Python's zlib (an independent build of the reference) on `data`; `inflate` true to inflate.
    func python(_ data: Data, inflate: Bool) throws -> Data {
        let folder = temporaryFolder("deflate")
        let input = folder.appendingPathComponent("in"), output = folder.appendingPathComponent("out")
        try data.write(to: input)
        let code = inflate ? "zlib.decompress(d, -15)" : "(lambda c: c.compress(d) + c.flush())(zlib.compressobj(6, zlib.DEFLATED, -15))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import sys, zlib; d = open(sys.argv[1], 'rb').read(); open(sys.argv[2], 'wb').write(\(code))", input.path, output.path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try Data(contentsOf: output)
    }

    let sample = Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 / 7) ^ ($0 % 13)) })

    @Test func whatWeCompressTheReferenceInflatesAndTheOtherWayRound() throws {
        let ours = try Deflate.compress(sample)
        #expect(ours.count < sample.count / 4)
        #expect(try python(ours, inflate: true) == sample)
        #expect(try Deflate.inflate(try python(sample, inflate: false), expectedSize: sample.count) == sample)
    }

    @Test func damagedShortLongAndTrailingStreamsAreRefused() throws {
        let packed = try Deflate.compress(sample)
        #expect(throws: DeflateError.wrongSize(expected: sample.count - 1, found: sample.count)) { try Deflate.inflate(packed, expectedSize: sample.count - 1) }
        #expect(throws: DeflateError.self) { try Deflate.inflate(packed, expectedSize: sample.count + 1) }
        #expect(throws: DeflateError.self) { try Deflate.inflate(packed.prefix(packed.count / 2), expectedSize: sample.count) }
        #expect(throws: DeflateError.self) { try Deflate.inflate(packed + Data([1, 2, 3]), expectedSize: sample.count) }
        #expect(throws: DeflateError.self) { try Deflate.inflate(Data(repeating: 0xFF, count: 64), expectedSize: 100) }
        #expect(throws: DeflateError.tooLarge(Int.max)) { try Deflate.inflate(packed, expectedSize: Int.max) }
    }
}
