// Expectations: Apple's reference LZFSE encoder (lzfse/lzfse through pyliblzfse's
// `liblzfse.compress`, which passes a destination of n + 12 bytes). The hex vectors are its output
// (the encoder specification's §9, plus the 8/29/30-zero and 45/46-pattern boundary cases), the
// Fixtures/lzfse streams were written by it (make-fixtures.py), and the generated inputs are
// compared with it at test time through python3. The capacity failures follow spec §1.
import Foundation
import SplashFormat
import Testing

@Suite("LZFSE encoder, byte for byte with the reference")
struct LZFSEReferenceEncoderTests {
    // MARK: Test data

    /// A fixed-seed 64-bit linear congruential generator (Knuth's MMIX constants).
    struct LCG {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }

        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }

        mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }
    }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        func value(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10 }
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    /// "ABCDEFGHIJKLMNOP" repeated to `n` bytes.
    static func pattern16(_ n: Int) -> [UInt8] { (0..<n).map { UInt8(0x41 + $0 % 16) } }

    static func text(_ n: Int, _ rng: inout LCG) -> [UInt8] {
        let words = "splash screen launch storyboard image asset color layout anchor texture pixel cache snapshot the of and"
            .split(separator: " ").map { Array($0.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(n + 16)
        while out.count < n {
            out += words[Int(rng.next() % UInt64(words.count))]
            out += rng.next() % 9 == 0 ? Array(".\n".utf8) : [0x20]
        }
        return Array(out.prefix(n))
    }

    /// Two letters, 'A' and 'B', at random: many short matches, hence many triples per block.
    static func twoLetters(_ n: Int, _ rng: inout LCG) -> [UInt8] {
        (0..<n).map { _ in UInt8(0x41 + rng.next() >> 63) }
    }

    /// Complete reference outputs (hex) and their inputs.
    static let vectors: [(name: String, input: [UInt8], hex: String)] = [
        ("empty", [], "6276782d0000000062767824"),
        ("8 zeros", [UInt8](repeating: 0, count: 8), "6276782d08000000000000000000000062767824"),
        (
            "29 zeros", [UInt8](repeating: 0, count: 29),
            """
            6276782d1d000000000000000000000000000000000000000000000000000000000000000062767824
            """
        ),
        ("30 zeros", [UInt8](repeating: 0, count: 30), "6276786e1e0000000f000000680100f004e100060000000000000062767824"),
        (
            "45 pattern bytes", pattern16(45),
            """
            6276782d2d0000004142434445464748494a4b4c4d4e4f504142434445464748494a4b4c4d4e4f50\
            4142434445464748494a4b4c4d62767824
            """
        ),
        (
            "46 pattern bytes", pattern16(46),
            """
            6276786e2e00000020000000e0004142434445464748494a4b4c4d4e4f503810f003e14e06000000\
            0000000062767824
            """
        ),
        ("100 zeros", [UInt8](repeating: 0, count: 100), "6276786e6400000010000000680100f049e20000060000000000000062767824"),
        (
            "100 pattern bytes", pattern16(100),
            """
            6276786e6400000022000000e0004142434445464748494a4b4c4d4e4f503810f037e34243440600\
            00000000000062767824
            """
        ),
        (
            "4096 zeros", [UInt8](repeating: 0, count: 4096),
            """
            6276783200100000040000000003007000000000000c0050830000002490000ce7d75c030000005c\
            03000000c04ff0937c0f000000000000000000000000000000f0e803000000000000000000000000\
            00000000000000000000000000000000000000000000000000000000000000000000000000000000\
            000000000000000000000000000000000000003456ff3f62767824
            """
        ),
        (
            "65-byte text", Array("splashgen splashgen splashgen LZFSE LZFSE LZFSE encoder encoder!!".utf8),
            """
            6276786e410000002c000000ea73706c61736867656e20380afae54c5a4653453806f3e7656e636f\
            6465722808e22121060000000000000062767824
            """
        ),
    ]

    /// The fixtures the reference encoder wrote (v1-text is a transcoded bvx1 stream, not its output).
    static let fixtureNames = ["empty", "tiny", "small-text", "random", "large-text", "astc-like", "v2-text"]

    static func fixture(_ name: String, _ ext: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures/lzfse"),
            "missing fixture \(name).\(ext)")
        return [UInt8](try Data(contentsOf: url))
    }

    /// Zeros, the 16-byte pattern, random bytes, text and two letters at the lengths around the
    /// encoder's thresholds (spec §1, §7), then inputs near the capacity limits, a long run (matches
    /// past the 235 900-byte cap), a repeat over 64 KiB back, and a multi-block input.
    static func inputs() -> [(name: String, bytes: [UInt8])] {
        var rng = LCG(state: 0x5EED)
        var cases: [(name: String, bytes: [UInt8])] = []
        for n in [0, 7, 8, 29, 30, 45, 46, 4095, 4096, 4097, 40_000, 300_000] {
            cases.append(("zeros-\(n)", [UInt8](repeating: 0, count: n)))
            cases.append(("pattern16-\(n)", pattern16(n)))
            cases.append(("random-\(n)", rng.bytes(n)))
            cases.append(("text-\(n)", text(n, &rng)))
            cases.append(("ab-\(n)", twoLetters(n, &rng)))
        }
        for n in [4096, 6000, 20_000] {
            // Random bytes with a few short repeats: the raw-or-bvx2 decision rests on the checks.
            var b = rng.bytes(n)
            for _ in 0..<(n / 50) {
                let from = Int(rng.next() % UInt64(n - 16))
                let to = Int(rng.next() % UInt64(n - 16))
                let piece = Array(b[from..<(from + 6)])
                b.replaceSubrange(to..<(to + 6), with: piece)
            }
            cases.append(("near-random-\(n)", b))
        }
        cases.append(("zeros-500000", [UInt8](repeating: 0, count: 500_000)))
        let block = rng.bytes(70_000)
        var farRepeat = block
        farRepeat.append(contentsOf: [UInt8](repeating: 0, count: 1000))
        farRepeat.append(contentsOf: block.prefix(5000))
        cases.append(("far-repeat", farRepeat))
        cases.append(("multi-block-ab-400000", twoLetters(400_000, &rng)))
        return cases
    }

    static let generated = inputs()

    // MARK: Tests

    @Test("the reference's outputs for the spec's test vectors, byte for byte")
    func vectorsMatch() throws {
        for v in Self.vectors {
            let expected = Self.bytes(hex: v.hex)
            #expect(LZFSEEncoder.encode(v.input) == expected, "\(v.name)")
            #expect(try LZFSE.decompress(expected, limit: v.input.count) == v.input, "\(v.name)")
        }
    }

    @Test("the reference's fixture streams, byte for byte")
    func fixturesMatch() throws {
        for name in Self.fixtureNames {
            let raw = try Self.fixture(name, "bin")
            let stream = try Self.fixture(name, "lzfse")
            #expect(LZFSEEncoder.encode(raw) == stream, "\(name)")
        }
    }

    @Test("every output decodes to its input")
    func roundTrip() throws {
        for (name, input) in Self.generated {
            let stream = LZFSEEncoder.encode(input)
            #expect(try LZFSE.decompress(stream, limit: input.count) == input, "\(name)")
        }
    }

    @Test("a long input is split into several bvx2 blocks")
    func multiBlock() throws {
        let input = try #require(Self.generated.first { $0.name == "multi-block-ab-400000" }).bytes
        let kinds = LZFSE.blockKinds(LZFSEEncoder.encode(input))
        #expect(kinds.filter { $0 == "bvx2" }.count >= 2)
        #expect(kinds.allSatisfy { $0 == "bvx2" || $0 == "bvx$" })
    }

    @Test("under 4096 bytes the LZVN encoder's stream is the LZFSE encoder's")
    func lzvnStreams() {
        for (name, input) in Self.generated where input.count < 4096 {
            #expect(LZVNEncoder.encode(input) == LZFSEEncoder.encode(input), "\(name)")
        }
    }

    @Test("a capacity too small for every path gives the reference's failure: no bytes (spec §1)")
    func capacityFailure() {
        // Under 8 bytes the input is stored, which needs n + 12 bytes.
        #expect(LZFSEEncoder.encode([1, 2, 3], capacity: 14).isEmpty)
        #expect(LZFSEEncoder.encode([1, 2, 3], capacity: 15) == Self.bytes(hex: "6276782d0300000001020362767824"))
        // 4096 zeros: the bvx2 block needs 752 bytes of room before anything is written.
        #expect(LZFSEEncoder.encode([UInt8](repeating: 0, count: 4096), capacity: 751).isEmpty)
        #expect(LZFSEEncoder.encode([UInt8](repeating: 0, count: 4096), capacity: 752).count == 147)
    }

    #if canImport(Compression)
    /// On Apple platforms `LZFSE.compress` is the Compression framework's encoder (which gives
    /// itself a destination of n + n/16 + 1024 bytes): the Swift encoder, given the same room, must
    /// write the same bytes, so a bundle built on Linux carries what a phone's own encoder writes.
    @Test("the Compression framework's encoder and the Swift encoder write the same bytes")
    func frameworkMatchesSwiftEncoder() throws {
        var inputs = Self.generated.map { (name: $0.name, bytes: $0.bytes) }
        for name in Self.fixtureNames { inputs.append((name, try Self.fixture(name, "bin"))) }
        for (name, input) in inputs where !input.isEmpty {
            let room = input.count + input.count / 16 + 1024
            #expect(LZFSEEncoder.encode(input, capacity: room) == LZFSE.compress(input), "\(name)")
        }
    }
    #endif

    #if !canImport(Compression)
    // The Python bridge (`Reference`, LZFSETests.swift) is compiled where the framework is absent.
    @Test("generated inputs equal liblzfse.compress, byte for byte")
    func generatedInputsMatchReference() throws {
        guard Reference.required() else { return }
        for (name, input) in Self.generated {
            let expected = try #require(try Reference.compress(input), "liblzfse.compress failed on \(name)")
            let actual = LZFSEEncoder.encode(input)
            #expect(actual == expected, "\(name): \(actual.count) bytes, the reference \(expected.count)")
        }
    }
    #endif
}
