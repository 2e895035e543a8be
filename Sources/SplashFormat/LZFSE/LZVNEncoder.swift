// Pure-Swift LZVN encoder with the behaviour of Apple's reference encoder (lzfse/lzfse,
// `lzvn_encode_base.c`), compiled where the Compression framework is absent, and in debug
// builds everywhere (for the Mac's comparison test). LZFSEEncoder uses it for the `bvxn` block of
// inputs under 4096 bytes; its output is then byte for byte the reference's. Section numbers
// (§) refer to docs/lzfse-encoder.md (Appendix A describes this encoder).

#if !canImport(Compression) || DEBUG

/// Apple's reference LZVN encoder, reproduced (spec Appendix A).
package enum LZVNEncoder {
    /// Encodes `input` as a complete LZFSE stream holding a single `bvxn` block, or a stored
    /// (`bvx-`) block where the reference would store: fewer than 8 bytes, a payload no smaller
    /// than the input, or a failed capacity check (spec §1, with a destination of n + 12 bytes).
    /// For inputs under 4096 bytes this is what the reference's whole-stream encoder writes
    /// whenever it chooses LZVN; for longer inputs (where the reference uses bvx2 blocks) the same
    /// LZVN parse runs over the whole input, which is not a reference output but decodes alike.
    package static func encode(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBufferPointer { encode($0) }
    }

    /// `encode(_:)` over a buffer.
    static func encode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let n = input.count
        var result: [UInt8] = []
        // The payload capacity is (n + 12) - 16 (spec §1).
        if n >= 8, UInt64(n) < UInt64(UInt32.max), let opcodes = payload(input, capacity: n - 4), opcodes.count < n {
            result.reserveCapacity(opcodes.count + 16)
            LZFSEWriter.append32(&result, LZFSEConstants.magicLZVN)
            LZFSEWriter.append32(&result, UInt32(truncatingIfNeeded: n))
            LZFSEWriter.append32(&result, UInt32(truncatingIfNeeded: opcodes.count))
            result.append(contentsOf: opcodes)
        } else {
            result.reserveCapacity(n + 16)
            LZFSEWriter.appendStored(&result, input)
        }
        LZFSEWriter.append32(&result, LZFSEConstants.magicEnd)
        return result
    }

    /// The LZVN payload of `input` (opcodes and the end-of-stream opcode) that the reference
    /// writes into a buffer of `capacity` bytes, or nil where the reference reports failure:
    /// fewer than 8 input bytes, a capacity under 8, or an opcode that does not fit (spec A.1, A.3).
    static func payload(_ input: UnsafeBufferPointer<UInt8>, capacity: Int) -> [UInt8]? {
        let n = input.count
        guard n >= 8, capacity >= 8, let src = input.baseAddress else { return nil }
        // Every opcode byte written stands for at least one input byte (a literal run of x bytes
        // takes at most 2x, a match piece of m >= 3 bytes at most m plus its literals), so the
        // writes never pass 2n + 8 bytes, nor `capacity` (spec A.4's checks): the buffer need be
        // no larger than the smaller of the two.
        let size = n < Int.max / 4 ? min(capacity, 2 &* n &+ 16) : capacity
        let dst = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        dst.initialize(repeating: 0, count: size)
        defer { dst.deallocate() }
        let table = UnsafeMutablePointer<LZVNSlot>.allocate(capacity: LZVNReferenceEncoder.tableSlots)
        // Every slot starts as (0, the first 4 bytes): position 0 is a candidate everywhere (A.1).
        table.initialize(
            repeating: LZVNSlot(position: 0, value: LZVNReferenceEncoder.load32(src, 0)),
            count: LZVNReferenceEncoder.tableSlots)
        defer { table.deallocate() }
        var encoder = LZVNReferenceEncoder(src: src, count: n, dst: dst, capacity: capacity, table: table)
        guard let length = encoder.run() else { return nil }
        return Array(UnsafeBufferPointer(start: dst, count: length))
    }
}

/// One slot of the LZVN history table: a position and the 4 input bytes there (spec A.1).
struct LZVNSlot {
    var position: Int
    var value: UInt32
}

/// A match the LZVN parser considers: `src[begin..<end]` repeats the bytes `distance` earlier;
/// `gain` ranks it against others (spec A.2).
struct LZVNCandidate {
    var begin: Int
    var end: Int
    var distance: Int
    var gain: Int
}

/// The state of one reference-behaviour LZVN encoding (spec Appendix A).
struct LZVNReferenceEncoder {
    /// 2^14 table entries of 4 slots each (spec A.1).
    static let tableEntries = 1 << 14
    static let tableSlots = tableEntries * 4

    let src: UnsafePointer<UInt8>
    let n: Int
    let dst: UnsafeMutablePointer<UInt8>
    /// The work limit W = capacity - 8, keeping room for the end-of-stream opcode (spec A.1).
    let workLimit: Int
    let table: UnsafeMutablePointer<LZVNSlot>
    /// Payload bytes written (q in spec A.4).
    var q = 0
    /// The first input byte not yet emitted.
    var lit = 0
    /// The distance of the last emitted match (0 before the first).
    var dPrev = 0

    init(
        src: UnsafePointer<UInt8>, count: Int, dst: UnsafeMutablePointer<UInt8>, capacity: Int,
        table: UnsafeMutablePointer<LZVNSlot>
    ) {
        self.src = src
        self.n = count
        self.dst = dst
        self.workLimit = capacity - 8
        self.table = table
    }

    @inline(__always)
    static func load32(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self))
    }

    /// The number of equal low bytes (0...4) of two little-endian words, given their XOR.
    @inline(__always)
    static func equalLowBytes(_ x: UInt32) -> Int {
        x == 0 ? 4 : x.trailingZeroBitCount &>> 3
    }

    /// The table entry of a 4-byte value: only its low 3 bytes count (spec A.1).
    @inline(__always)
    static func hash(_ v: UInt32) -> Int {
        Int(truncatingIfNeeded: ((v & 0xFF_FFFF) &* 4161) &>> 12) & 0x3FFF
    }

    @inline(__always)
    mutating func put(_ byte: Int) {
        dst[q] = UInt8(truncatingIfNeeded: byte)
        q &+= 1
    }

    /// Copies `count` literal bytes from `src[from...]` to the payload.
    @inline(__always)
    mutating func putBytes(from: Int, count: Int) {
        if count > 0 {
            (dst + q).update(from: src + from, count: count)
            q &+= count
        }
    }

    // MARK: Parsing (spec A.2, A.3)

    /// Evaluates the candidate at `mb` against the earlier position `m0`, whose first 4 bytes
    /// share `nk` low bytes with those at `mb`: extends it forwards 4 bytes at a time, then
    /// backwards down to `lit`, and computes its gain (spec A.2). Nil when rejected.
    func candidate(ref m0Start: Int, at mbStart: Int, equalBytes nkStart: Int) -> LZVNCandidate? {
        guard nkStart >= 3 else { return nil }
        let d = mbStart &- m0Start
        guard d > 0, d <= 0xFFFF else { return nil }
        var nk = nkStart
        var me = mbStart &+ nk
        while nk == 4 && me &+ 4 < n {
            nk = Self.equalLowBytes(Self.load32(src, me) ^ Self.load32(src, me &- d))
            me &+= nk
        }
        var m0 = m0Start
        var mb = mbStart
        while m0 > 0 && mb > lit && src[mb &- 1] == src[m0 &- 1] {
            m0 &-= 1
            mb &-= 1
        }
        let m = me &- mb
        return LZVNCandidate(begin: mb, end: me, distance: d, gain: m &- (d < 0x600 ? 2 : 3))
    }

    /// Whether `c` replaces `best`: a higher gain, or the same gain and an end more than one
    /// byte further (spec A.2). No best counts as gain 0 and end 0.
    @inline(__always)
    static func isBetter(_ c: LZVNCandidate, than best: LZVNCandidate?) -> Bool {
        guard let best else { return c.gain > 0 || c.end > 1 }
        return c.gain > best.gain || (c.gain == best.gain && c.end > best.end &+ 1)
    }

    /// Runs the parse and returns the payload length, or nil where the reference fails (spec A.3).
    mutating func run() -> Int? {
        var pending: LZVNCandidate?
        var cur = 0
        scan: while cur < n &- 8 {
            let v = Self.load32(src, cur)
            let entry = Self.hash(v) &<< 2
            if cur >= lit {
                var incoming: LZVNCandidate?
                for k in 0..<4 {
                    let slot = table[entry &+ k]
                    if let c = candidate(ref: slot.position, at: cur, equalBytes: Self.equalLowBytes(slot.value ^ v)),
                        Self.isBetter(c, than: incoming)
                    {
                        incoming = c
                    }
                }
                if dPrev != 0 {
                    let ref = cur &- dPrev
                    let nk = Self.equalLowBytes(v ^ Self.load32(src, ref))
                    if var c = candidate(ref: ref, at: cur, equalBytes: nk) {
                        // The previous distance costs less: its gain is M - 1 (spec A.3).
                        c.gain = (c.end &- c.begin) &- 1
                        if Self.isBetter(c, than: incoming) { incoming = c }
                    }
                }
                if let incoming {
                    if let p = pending {
                        if p.end <= incoming.begin {
                            guard emitMatch(p) else { break scan }
                            pending = incoming
                        } else {
                            // Overlap: the higher gain wins, a tie goes to the pending match.
                            guard emitMatch(incoming.gain > p.gain ? incoming : p) else { break scan }
                            pending = nil
                        }
                    } else {
                        pending = incoming
                    }
                } else if cur &- lit >= 400 {
                    if let p = pending {
                        guard emitMatch(p) else { break scan }
                        pending = nil
                    } else {
                        guard emitLiterals(271) else { break scan }
                    }
                }
            }
            // The entry gains (cur, v) in front; its oldest slot drops out.
            table[entry &+ 3] = table[entry &+ 2]
            table[entry &+ 2] = table[entry &+ 1]
            table[entry &+ 1] = table[entry]
            table[entry] = LZVNSlot(position: cur, value: v)
            cur &+= 1
        }
        // The pending match is discarded: its bytes go out as literals (spec A.3).
        _ = emitLiterals(n &- lit)
        guard lit == n else { return nil }
        // End-of-stream opcode: always fits, the work limit kept 8 bytes (spec A.4).
        put(0x06)
        for _ in 0..<7 { put(0) }
        return q
    }

    // MARK: Opcodes (spec A.4)

    /// Literal-only opcodes for `count` literals at `src[from...]`: chunks of at most 271, then,
    /// with `all`, the rest, or without it the rest only if it is more than 3 (the 0...3 left go
    /// into a match opcode). Returns the next literal position and the number left, or nil when
    /// the payload is full.
    mutating func putLiterals(from: Int, count: Int, all: Bool) -> (position: Int, left: Int)? {
        var p = from
        var l = count
        while l > 15 {
            let x = min(l, 271)
            if q &+ x &+ 10 >= workLimit { return nil }
            put(0xE0)
            put(x &- 16)
            putBytes(from: p, count: x)
            p &+= x
            l &-= x
        }
        if l > (all ? 0 : 3) {
            if q &+ l &+ 10 >= workLimit { return nil }
            put(0xE0 &+ l)
            putBytes(from: p, count: l)
            p &+= l
            l = 0
        }
        return (p, l)
    }

    /// Emits the literals from `lit` up to the match, then the match (spec A.4). All or nothing:
    /// on failure the payload length is restored and false is returned.
    mutating func emitMatch(_ match: LZVNCandidate) -> Bool {
        let saved = q
        guard let literals = putLiterals(from: lit, count: match.begin &- lit, all: false) else {
            q = saved
            return false
        }
        let p = literals.position
        let l0 = literals.left
        let d = match.distance
        var m = match.end &- match.begin
        let x3 = min(m, 10 &- 2 &* l0)
        m &-= x3
        var x = x3 &- 3
        if q &+ 8 >= workLimit {
            q = saved
            return false
        }
        if d == dPrev {
            if l0 == 0 {
                put(0xF0 &+ x3)
            } else {
                put((l0 &<< 6) | (x &<< 3) | 6)
            }
        } else if d < 0x600 {
            put((l0 &<< 6) | (x &<< 3) | (d &>> 8))
            put(d & 0xFF)
        } else if d >= 0x4000 || m == 0 || x3 &+ m > 34 {
            put((l0 &<< 6) | (x &<< 3) | 7)
            put(d & 0xFF)
            put(d &>> 8)
        } else {
            // Medium distance: the whole match goes into this opcode.
            x &+= m
            m = 0
            put(0xA0 &+ (x &>> 2) &+ (l0 &<< 3))
            let v = (d &<< 2) | (x & 3)
            put(v & 0xFF)
            put(v &>> 8)
        }
        putBytes(from: p, count: l0)
        while m > 15 {
            if q &+ 2 >= workLimit {
                q = saved
                return false
            }
            let y = min(m, 271)
            put(0xF0)
            put(y &- 16)
            m &-= y
        }
        if m > 0 {
            if q &+ 1 >= workLimit {
                q = saved
                return false
            }
            put(0xF0 &+ m)
        }
        if q >= workLimit {
            q = saved
            return false
        }
        dPrev = d
        lit = match.end
        return true
    }

    /// Emits `count` literals from `lit` (spec A.4). All or nothing, like `emitMatch(_:)`.
    mutating func emitLiterals(_ count: Int) -> Bool {
        let saved = q
        guard putLiterals(from: lit, count: count, all: true) != nil, q < workLimit else {
            q = saved
            return false
        }
        lit &+= count
        return true
    }
}

/// Helpers for writing LZFSE block framing.
enum LZFSEWriter {
    static func append32(_ out: inout [UInt8], _ v: UInt32) {
        out.append(UInt8(truncatingIfNeeded: v))
        out.append(UInt8(truncatingIfNeeded: v &>> 8))
        out.append(UInt8(truncatingIfNeeded: v &>> 16))
        out.append(UInt8(truncatingIfNeeded: v &>> 24))
    }

    /// Appends `bvx-` blocks holding `bytes` (split so each block's size fits a UInt32).
    static func appendStored(_ out: inout [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.isEmpty {
            append32(&out, LZFSEConstants.magicStored)
            append32(&out, 0)
            return
        }
        var start = 0
        while start < bytes.count {
            let len = min(bytes.count - start, 1 << 30)
            append32(&out, LZFSEConstants.magicStored)
            append32(&out, UInt32(len))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(start + len)]))
            start += len
        }
    }
}

#endif
