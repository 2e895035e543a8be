import Foundation
import SplashFormat
import SplashTestSupport
import Testing

// The pure-Swift codec exists where the Compression framework does not (on Apple platforms the
// framework decodes, and it is the reference itself).
#if !canImport(Compression)
// Expectations come from Apple's reference implementation: the fixtures in
// Fixtures/lzfse were written by make-fixtures.py with pyliblzfse, and the
// encoder tests hand our output back to the reference decoder when Python
// with pyliblzfse is available.

// MARK: - Fixture loading

struct Fixture: Sendable, CustomStringConvertible {
    let name: String
    let raw: [UInt8]
    let stream: [UInt8]
    let blocks: [String]
    var description: String { name }
}

enum Fixtures {
    static let names = ["empty", "tiny", "small-text", "random", "large-text", "astc-like", "v2-text", "v1-text"]

    static func data(_ name: String, _ ext: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures/lzfse"),
            "missing fixture \(name).\(ext)")
        return [UInt8](try Data(contentsOf: url))
    }

    static func load(_ name: String) throws -> Fixture {
        let manifestData = Data(try data("manifest", "json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let entry = try #require(manifest[name] as? [String: Any], "\(name) missing from manifest.json")
        let blocks = try #require(entry["blocks"] as? [String])
        return Fixture(name: name, raw: try data(name, "bin"), stream: try data(name, "lzfse"), blocks: blocks)
    }

    static func all() throws -> [Fixture] { try names.map(load) }
}

/// Walks block headers independently of the decoder (only framing, no payloads).
func blockKinds(_ s: [UInt8]) -> [String] {
    func u32(_ o: Int) -> Int { Int(s[o]) | Int(s[o + 1]) << 8 | Int(s[o + 2]) << 16 | Int(s[o + 3]) << 24 }
    func u64(_ o: Int) -> UInt64 { UInt64(u32(o)) | UInt64(u32(o + 4)) << 32 }
    var kinds: [String] = []
    var pos = 0
    while pos + 4 <= s.count {
        let kind = String(decoding: s[pos..<pos + 4], as: UTF8.self)
        kinds.append(kind)
        switch kind {
        case "bvx-": pos += 8 + u32(pos + 4)
        case "bvxn": pos += 12 + u32(pos + 8)
        case "bvx1": pos += 772 + u32(pos + 20) + u32(pos + 24)
        case "bvx2":
            let lit = Int((u64(pos + 8) >> 20) & 0xFFFFF)
            let lmd = Int((u64(pos + 16) >> 40) & 0xFFFFF)
            pos += Int(u64(pos + 24) & 0xFFFF_FFFF) + lit + lmd
        default: return kinds
        }
    }
    return kinds
}

func decodeError(_ stream: [UInt8], limit: Int) -> LZFSEError? {
    do {
        _ = try LZFSEDecoder.decode(stream, limit: limit)
        return nil
    } catch {
        return error
    }
}

func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }

// MARK: - Reference decoder bridge (Python + pyliblzfse)

/// The reference in SplashTestSupport (``ReferenceLZFSE``), one input at a time.
enum Reference {
    static var available: Bool { ReferenceLZFSE.available }

    /// Decodes `stream` with the reference C decoder; nil if it refuses it.
    static func decompress(_ stream: [UInt8]) throws -> [UInt8]? { try reference(ReferenceLZFSE.decompress, stream) }

    /// Encodes `input` with the reference C encoder (`liblzfse.compress`, which gives it a
    /// destination of n + 12 bytes); nil if it fails or Python with pyliblzfse is missing.
    static func compress(_ input: [UInt8]) throws -> [UInt8]? { try reference(ReferenceLZFSE.compress, input) }

    private static func reference(_ function: ([Data]) throws -> [Data?], _ input: [UInt8]) throws -> [UInt8]? {
        guard available else { return nil }
        return try function([Data(input)])[0].map { [UInt8]($0) }
    }

    /// Whether the reference is here; when it is not, the calling test fails (`make deps` installs
    /// pyliblzfse), so its checks are never silently skipped.
    static func required(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if !available { Issue.record("python3 with pyliblzfse is missing: `make deps` installs it", sourceLocation: sourceLocation) }
        return available
    }
}

// MARK: - Test data generators

extension SplitMix64 {
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

/// ASTC-4x4-like data: long runs of one 16-byte block with occasional detail blocks.
func astcLike(_ size: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(state: seed)
    let solids = (0..<4).map { _ in [0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + rng.bytes(8) }
    var out: [UInt8] = []
    out.reserveCapacity(size + 16)
    var current = solids[0]
    while out.count < size {
        let r = rng.next() % 1000
        if r < 3 { current = solids[Int(rng.next() % 4)] }
        if r > 990 { out += rng.bytes(16) } else { out += current }
    }
    return Array(out.prefix(size))
}

func text(_ size: Int, seed: UInt64) -> [UInt8] {
    let words = "splash screen launch storyboard image asset color layout anchor texture pixel cache snapshot"
        .split(separator: " ").map(String.init)
    var rng = SplitMix64(state: seed)
    var s = ""
    while s.utf8.count < size {
        s += words[Int(rng.next() % UInt64(words.count))]
        s += rng.next() % 9 == 0 ? ".\n" : " "
    }
    return Array(s.utf8.prefix(size))
}

// MARK: - Decoder: fixtures from the reference encoder

@Suite("LZFSE decoder")
struct LZFSEDecoderTests {
    @Test("every fixture decodes to its .bin", arguments: Fixtures.names)
    func fixtureDecodes(name: String) throws {
        let f = try Fixtures.load(name)
        #expect(blockKinds(f.stream) == f.blocks)
        let out = try LZFSEDecoder.decode(f.stream, limit: f.raw.count)
        #expect(out == f.raw)
        #expect(try LZFSE.decompress(f.stream, limit: f.raw.count) == f.raw)
    }

    @Test("fixtures cover every block kind, and multi-block bvx2")
    func everyBlockKind() throws {
        let all = try Fixtures.all()
        let kinds = Set(all.flatMap(\.blocks))
        #expect(kinds == ["bvx-", "bvxn", "bvx1", "bvx2", "bvx$"])
        let large = try #require(all.first { $0.name == "large-text" })
        #expect(large.blocks.filter { $0 == "bvx2" }.count >= 2)
        #expect(try #require(all.first { $0.name == "v1-text" }).blocks == ["bvx1", "bvx$"])
    }

    @Test("trailing bytes after bvx$ are ignored")
    func trailingGarbage() throws {
        let f = try Fixtures.load("small-text")
        #expect(try LZFSEDecoder.decode(f.stream + [1, 2, 3, 4, 5], limit: f.raw.count) == f.raw)
    }
}

// MARK: - Decoder: hostile input

@Suite("LZFSE decoder, hostile input")
struct LZFSEHostileTests {
    @Test("every truncation is refused as truncated or missing end of stream", arguments: Fixtures.names)
    func truncations(name: String) throws {
        let f = try Fixtures.load(name)
        let n = f.stream.count
        let stride = n <= 4096 ? 1 : 61
        var cuts = Array(Swift.stride(from: 0, to: n, by: stride))
        cuts += (max(0, n - 64)..<n)
        let boundaries = Set(blockBoundaries(f.stream))
        for cut in cuts {
            let error = decodeError(Array(f.stream.prefix(cut)), limit: f.raw.count)
            if boundaries.contains(cut) {
                #expect(error == .missingEndOfStream(offset: cut), "cut \(cut)")
            } else {
                switch error {
                case .truncated?: break
                default: Issue.record("cut \(cut) of \(name): expected truncated, got \(String(describing: error))")
                }
            }
        }
    }

    @Test("single-byte corruptions throw a named error or return at most limit bytes", arguments: Fixtures.names)
    func corruptions(name: String) throws {
        let f = try Fixtures.load(name)
        let n = f.stream.count
        let stride = n <= 4096 ? 1 : 37
        let limit = f.raw.count + 4096
        var failures = 0
        // How the decoder told a corruption: the error's case (and a corrupt block's reason).
        var kinds: Set<String> = []
        for pos in Swift.stride(from: 0, to: n, by: stride) {
            for x: UInt8 in [0x01, 0x80, 0xFF, 0x10] {
                var s = f.stream
                s[pos] ^= x
                do {
                    let out = try LZFSEDecoder.decode(s, limit: limit)
                    #expect(out.count <= limit)
                } catch {
                    failures += 1
                    if case .corruptBlock(_, let reason) = error {
                        kinds.insert("\(reason)")
                    } else {
                        kinds.insert("\(error)".prefix { $0 != "(" }.description)
                    }
                }
            }
        }
        // Every stream ends in a bvx$ magic, so a flipped magic byte at least must be refused; a
        // stream with coded blocks has more than one way to be wrong, and each is told apart.
        #expect(failures > 0, "no corruption of \(name) was refused")
        if f.raw.count > 64 { #expect(kinds.count >= 2, "\(name): every corruption was told the same way: \(kinds)") }
    }

    @Test("random garbage never traps")
    func randomGarbage() {
        var rng = SplitMix64(state: 42)
        let magics: [[UInt8]] = [Array("bvx-".utf8), Array("bvxn".utf8), Array("bvx1".utf8), Array("bvx2".utf8)]
        for i in 0..<3000 {
            var s = magics[i % 4] + rng.bytes(Int(rng.next() % 1200))
            if i % 3 == 0, s.count > 12 {  // plausible small sizes
                s[4] = UInt8(rng.next() % 64); s[5] = 0; s[6] = 0; s[7] = 0
                s[8] = UInt8(rng.next() % 64); s[9] = 0; s[10] = 0; s[11] = 0
            }
            if let out = try? LZFSEDecoder.decode(s, limit: 1 << 16) { #expect(out.count <= 1 << 16) }
        }
    }

    @Test("output limit smaller than the output throws outputLimitExceeded", arguments: Fixtures.names)
    func limitTooSmall(name: String) throws {
        let f = try Fixtures.load(name)
        guard !f.raw.isEmpty else { return }
        #expect(decodeError(f.stream, limit: f.raw.count - 1) == .outputLimitExceeded(limit: f.raw.count - 1))
        #expect(decodeError(f.stream, limit: 0) == .outputLimitExceeded(limit: 0))
        #expect(throws: LZFSEError.outputLimitExceeded(limit: 0)) { try LZFSE.decompress(f.stream, limit: 0) }
    }

    @Test("headers lying about n_raw_bytes")
    func lyingRawSize() throws {
        // Stored block claiming more bytes than the input holds.
        var tiny = try Fixtures.load("tiny").stream
        tiny[4] = 100
        #expect(decodeError(tiny, limit: 1000) == .truncated(offset: 0))

        // A huge claim is refused before allocating anything.
        for name in ["tiny", "small-text", "v2-text", "v1-text"] {
            var s = try Fixtures.load(name).stream
            s.replaceSubrange(4..<8, with: le32(0xFFFF_FFFF))
            if name == "tiny" {
                #expect(decodeError(s, limit: 1 << 20) == .truncated(offset: 0))
            } else {
                #expect(decodeError(s, limit: 1 << 20) == .outputLimitExceeded(limit: 1 << 20))
            }
        }

        // One byte too many / too few for LZVN, v2 and v1 blocks.
        for name in ["small-text", "v2-text", "v1-text"] {
            let f = try Fixtures.load(name)
            let declared = UInt32(f.raw.count)
            var more = f.stream
            more.replaceSubrange(4..<8, with: le32(declared + 1))
            #expect(decodeError(more, limit: 1 << 20) == .corruptBlock(offset: 0, reason: .rawSizeMismatch), "\(name)")
            var fewer = f.stream
            fewer.replaceSubrange(4..<8, with: le32(declared - 1))
            let error = decodeError(fewer, limit: 1 << 20)
            if case .corruptBlock(_, .outputOverrun)? = error {
            } else {
                Issue.record("\(name): expected outputOverrun, got \(String(describing: error))")
            }
        }
    }

    @Test("bad block magic")
    func badMagic() throws {
        let f = try Fixtures.load("small-text")
        var s = f.stream
        s[3] = 0x7A  // "bvxz"
        #expect(decodeError(s, limit: 1 << 20) == .badBlockMagic(offset: 0, found: 0x7A78_7662))
        // Garbage where the second block should start.
        var t = f.stream
        t.replaceSubrange((t.count - 4)..., with: Array("RIFF".utf8))
        #expect(decodeError(t, limit: 1 << 20) == .badBlockMagic(offset: t.count - 4, found: 0x4646_4952))
        #expect(decodeError([], limit: 10) == .missingEndOfStream(offset: 0))
        #expect(decodeError([0x62, 0x76], limit: 10) == .truncated(offset: 0))
    }

    @Test("missing bvx$", arguments: Fixtures.names)
    func missingEnd(name: String) throws {
        let f = try Fixtures.load(name)
        let s = Array(f.stream.dropLast(4))
        #expect(decodeError(s, limit: 1 << 20) == .missingEndOfStream(offset: s.count))
    }

    @Test("LZVN match distance before the start of the output, or zero")
    func lzvnBadDistance() throws {
        func block(_ payload: [UInt8], raw: UInt32) -> [UInt8] {
            Array("bvxn".utf8) + le32(raw) + le32(UInt32(payload.count)) + payload + Array("bvx$".utf8)
        }
        let eos: [UInt8] = [0x06, 0, 0, 0, 0, 0, 0, 0]
        // Valid control: literal "ab" (sml_l) then match D=2, M=3 (sml_d) -> "ababa".
        let good = block([0xE2, 0x61, 0x62, 0x00, 0x02] + eos, raw: 5)
        #expect(try LZFSEDecoder.decode(good, limit: 5) == Array("ababa".utf8))
        // sml_d L=0 M=3 D=1 as the very first opcode: reaches before the output start.
        let before = block([0x00, 0x01] + eos, raw: 3)
        #expect(decodeError(before, limit: 100) == .corruptBlock(offset: 12, reason: .invalidMatchDistance))
        // "ab" then D=3 (one byte before the start).
        let before2 = block([0xE2, 0x61, 0x62, 0x00, 0x03] + eos, raw: 5)
        #expect(decodeError(before2, limit: 100) == .corruptBlock(offset: 15, reason: .invalidMatchDistance))
        // Distance zero.
        let zero = block([0xE2, 0x61, 0x62, 0x00, 0x00] + eos, raw: 5)
        #expect(decodeError(zero, limit: 100) == .corruptBlock(offset: 15, reason: .invalidMatchDistance))
        // Match-only opcode with no previous distance.
        let noPrev = block([0xE2, 0x61, 0x62, 0xF3] + eos, raw: 5)
        #expect(decodeError(noPrev, limit: 100) == .corruptBlock(offset: 15, reason: .invalidMatchDistance))
        // Undefined opcode; payload ending before its end-of-stream opcode.
        #expect(
            decodeError(block([0x70] + eos, raw: 0), limit: 100)
                == .corruptBlock(offset: 12, reason: .undefinedOpcode))
        #expect(
            decodeError(block([0xE2, 0x61, 0x62], raw: 2), limit: 100)
                == .corruptBlock(offset: 0, reason: .payloadSizeMismatch))

        if Reference.required() {
            #expect(try Reference.decompress(good) == Array("ababa".utf8))
            #expect(try Reference.decompress(before) == nil)
            #expect(try Reference.decompress(before2) == nil)
            #expect(try Reference.decompress(zero) == nil)
        }
    }

    @Test("FSE tables whose frequencies do not sum to the state count")
    func badFrequencies() throws {
        let v1 = try Fixtures.load("v1-text").stream
        // bvx1 header: l_freq at 50, m_freq at 90, d_freq at 130, literal_freq at 258 (UInt16 LE).
        for offset in [50, 90, 130, 258] {
            var s = v1
            // Find a nonzero entry of this table and bump it.
            var i = offset
            while s[i] == 0 && s[i + 1] == 0 { i += 2 }
            s[i] &+= 1
            #expect(decodeError(s, limit: 1 << 20) == .corruptBlock(offset: 0, reason: .frequencySumMismatch))
            var t = v1
            t[i] &-= 1
            #expect(decodeError(t, limit: 1 << 20) == .corruptBlock(offset: 0, reason: .frequencySumMismatch))
        }
        // Initial state out of range (l_state at 44 must be < 64).
        var st = v1
        st[44] = 64
        st[45] = 0
        #expect(decodeError(st, limit: 1 << 20) == .corruptBlock(offset: 0, reason: .stateOutOfRange))
        // Too many literals (n_literals at 12 must be <= 40000).
        var nl = v1
        nl.replaceSubrange(12..<16, with: le32(40_004))
        #expect(decodeError(nl, limit: 1 << 20) == .corruptBlock(offset: 0, reason: .tooManySymbols))

        // bvx2: header_size (low 32 bits of the third packed field, at 24) too small.
        var v2 = try Fixtures.load("v2-text").stream
        v2.replaceSubrange(24..<28, with: le32(20))
        #expect(decodeError(v2, limit: 1 << 20) == .corruptBlock(offset: 0, reason: .invalidHeaderSize))
        // Header one byte longer than the encoded tables (an extra byte inserted so the framing still holds).
        var v2b = try Fixtures.load("v2-text").stream
        let headerSize = Int(v2b[24]) | Int(v2b[25]) << 8
        v2b.replaceSubrange(24..<28, with: le32(UInt32(headerSize + 1)))
        v2b.insert(0, at: headerSize)
        let e = decodeError(v2b, limit: 1 << 20)
        #expect(e == .corruptBlock(offset: 0, reason: .badFrequencyTableEncoding))
    }
}

/// Offsets at which a block (or the end marker) starts.
func blockBoundaries(_ s: [UInt8]) -> [Int] {
    var offsets = [0]
    var pos = 0
    for kind in blockKinds(s) {
        func u32(_ o: Int) -> Int { Int(s[o]) | Int(s[o + 1]) << 8 | Int(s[o + 2]) << 16 | Int(s[o + 3]) << 24 }
        switch kind {
        case "bvx-": pos += 8 + u32(pos + 4)
        case "bvxn": pos += 12 + u32(pos + 8)
        case "bvx1": pos += 772 + u32(pos + 20) + u32(pos + 24)
        case "bvx2":
            let v0hi = UInt64(u32(pos + 12)), v1hi = UInt64(u32(pos + 20))
            let v0 = UInt64(u32(pos + 8)) | v0hi << 32
            let v1 = UInt64(u32(pos + 16)) | v1hi << 32
            pos += u32(pos + 24) + Int((v0 >> 20) & 0xFFFFF) + Int((v1 >> 40) & 0xFFFFF)
        default: return offsets
        }
        offsets.append(pos)
    }
    return offsets
}

// MARK: - Encoder

@Suite("LZFSE encoder")
struct LZFSEEncoderTests {
    static func inputs() -> [(String, [UInt8])] {
        var rng = SplitMix64(state: 7)
        var cases: [(String, [UInt8])] = []
        for n in 0...20 { cases.append(("len\(n)", rng.bytes(n))) }
        cases.append(("zeros-100k", [UInt8](repeating: 0, count: 100_000)))
        cases.append(("text-50k", text(50_000, seed: 1)))
        cases.append(("random-70k", rng.bytes(70_000)))
        cases.append(("astc-300k", astcLike(300_000, seed: 3)))
        cases.append(("two-bytes-period", (0..<40_000).map { UInt8($0 & 1) }))
        cases.append(
            (
                "far-repeat",
                {
                    var b = rng.bytes(30_000); b += b; b += rng.bytes(20_000); b += Array(b[1000..<41_000]); return b
                }()
            ))
        cases.append(("multi-block-2.5M", astcLike(2_500_000, seed: 9)))
        return cases
    }

    @Test("round-trips through the Swift decoder")
    func roundTrip() throws {
        for (name, input) in Self.inputs() {
            let lzvn = LZVNEncoder.encode(input)
            #expect(try LZFSEDecoder.decode(lzvn, limit: input.count) == input, "LZVN \(name)")
            let stream = LZFSE.compress(input)
            #expect(try LZFSE.decompress(stream, limit: input.count) == input, "compress \(name)")
        }
    }

    @Test("the reference decoder reads the encoder's output")
    func referenceReadsOutput() throws {
        guard Reference.required() else { return }
        for (name, input) in Self.inputs() where !input.isEmpty {
            #expect(try Reference.decompress(LZVNEncoder.encode(input)) == input, "LZVN \(name)")
            #expect(try Reference.decompress(LZFSE.compress(input)) == input, "compress \(name)")
        }
        // The reference encoder's own fixtures, re-encoded by us.
        for f in try Fixtures.all() where !f.raw.isEmpty {
            #expect(try Reference.decompress(LZFSE.compress(f.raw)) == f.raw, "\(f.name)")
        }
    }

    @Test("the encoder compresses")
    func compresses() throws {
        let block: [UInt8] = [0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4, 5, 6, 7, 8]
        let run = [[UInt8]](repeating: block, count: 3 * 1024 * 1024 / 16).flatMap { $0 }
        let lzvn = LZVNEncoder.encode(run)
        #expect(lzvn.count < 64 * 1024, "3 MB run → \(lzvn.count) bytes (LZVN)")
        let stream = LZFSE.compress(run)
        #expect(stream.count < 64 * 1024, "3 MB run → \(stream.count) bytes (LZFSE.compress)")
        #expect(try LZFSEDecoder.decode(stream, limit: run.count) == run)

        let t = text(50_000, seed: 5)
        #expect(LZVNEncoder.encode(t).count < t.count / 2)
        let astc = try Fixtures.load("astc-like")
        #expect(LZVNEncoder.encode(astc.raw).count < astc.raw.count / 10)
        let small = try Fixtures.load("small-text")
        #expect(LZVNEncoder.encode(small.raw).count < small.raw.count)
        // Incompressible data falls back to stored blocks: tiny overhead.
        let random = try Fixtures.load("random")
        #expect(LZVNEncoder.encode(random.raw).count <= random.raw.count + 12)
    }

    @Test("tiny inputs use a stored block like the reference (pure-Swift encoder)")
    func tinyInputs() throws {
        for name in ["empty", "tiny"] {
            let f = try Fixtures.load(name)
            #expect(LZVNEncoder.encode(f.raw) == f.stream)
        }
    }
}
#endif
