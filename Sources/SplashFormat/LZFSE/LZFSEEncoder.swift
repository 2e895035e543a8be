// Pure-Swift LZFSE encoder whose output equals, byte for byte, that of Apple's reference encoder
// (lzfse/lzfse `lzfse_encode_buffer`, as pyliblzfse's `liblzfse.compress` calls it). Compiled where
// the Compression framework is absent, and in debug builds everywhere (a test on a Mac compares
// it with the framework's encoder; an app's release build does not carry it). Section numbers (§)
// refer to docs/lzfse-encoder.md, which describes the reference's behaviour; the code follows that
// description, not the reference's source.
//
// The stream is one `bvx-` (stored) block, one `bvxn` (LZVN, LZVNEncoder.swift) block, or a run of
// `bvx2` blocks, then `bvx$` (§1). The bvx2 path has a match finder (§2) feeding (L, M, D) triples
// and literals into blocks (§3), each written with FSE-coded literal and L/M/D streams (§4).

#if !canImport(Compression) || DEBUG

/// Apple's reference LZFSE encoder, reproduced byte for byte (spec §0–§7).
package enum LZFSEEncoder {
    /// Encodes `input` as a complete LZFSE stream: byte for byte what the reference encoder writes
    /// into a destination of `capacity` bytes, n + 12 when nil, which is what pyliblzfse passes
    /// (spec §0). The capacity changes the output: the reference falls back to a stored block when
    /// one of its conservative room checks fails.
    ///
    /// Returns an empty array where the reference fails (it returns 0 bytes): when the compressed
    /// paths fail and the stored fallback needs more than `capacity` bytes, or the input has
    /// 2^31 - 1 bytes or more (spec §1). With the default capacity, only inputs of 2^31 - 1 bytes
    /// or more that the bvx2 path cannot encode within it fail. Inputs of 0xFFFFFFFF bytes or
    /// more, which the reference encodes in 262 144-byte windows (a path the spec does not cover),
    /// are instead stored in `bvx-` blocks of at most 2^30 bytes each, whatever `capacity`.
    package static func encode(_ input: [UInt8], capacity: Int? = nil) -> [UInt8] {
        input.withUnsafeBufferPointer { buffer in
            encode(buffer, capacity: capacity ?? buffer.count + 12)
        }
    }

    /// `encode(_:capacity:)` over a buffer: the top level of the reference (spec §1).
    static func encode(_ input: UnsafeBufferPointer<UInt8>, capacity: Int) -> [UInt8] {
        let n = input.count
        if UInt64(n) >= UInt64(UInt32.max) {
            var out: [UInt8] = []
            out.reserveCapacity(n + 12 * ((n >> 30) + 1) + 4)
            LZFSEWriter.appendStored(&out, input)
            LZFSEWriter.append32(&out, LZFSEConstants.magicEnd)
            return out
        }
        if n >= lzvnMinimumSize, let src = input.baseAddress {
            if n < lzvnThreshold {
                // LZVN gets the capacity less 16 bytes, and is kept only if smaller than the input.
                if capacity > 16, let payload = LZVNEncoder.payload(input, capacity: capacity - 16), payload.count < n {
                    var out: [UInt8] = []
                    out.reserveCapacity(payload.count + 16)
                    LZFSEWriter.append32(&out, LZFSEConstants.magicLZVN)
                    LZFSEWriter.append32(&out, UInt32(truncatingIfNeeded: n))
                    LZFSEWriter.append32(&out, UInt32(truncatingIfNeeded: payload.count))
                    out.append(contentsOf: payload)
                    LZFSEWriter.append32(&out, LZFSEConstants.magicEnd)
                    return out
                }
            } else if let out = encodeBlocks(src, count: n, capacity: capacity) {
                // On this path the size is never compared with the input's (spec §1).
                return out
            }
        }
        // The stored fallback, if it fits the capacity (spec §1).
        guard capacity >= 12, n <= capacity - 12, n < Int(Int32.max) else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(n + 12)
        LZFSEWriter.append32(&out, LZFSEConstants.magicStored)
        LZFSEWriter.append32(&out, UInt32(truncatingIfNeeded: n))
        out.append(contentsOf: input)
        LZFSEWriter.append32(&out, LZFSEConstants.magicEnd)
        return out
    }

    // MARK: Constants (spec §6)

    /// Shorter inputs are stored (LZVN_ENCODE_MIN_SRC_SIZE).
    static let lzvnMinimumSize = 8
    /// Shorter inputs try LZVN, longer ones the bvx2 path (LZFSE_ENCODE_LZVN_THRESHOLD).
    static let lzvnThreshold = 4096
    /// log2 of the number of history table lines (LZFSE_ENCODE_HASH_BITS).
    static let hashBits = 14
    /// Matches at least this long are committed at once (LZFSE_ENCODE_GOOD_MATCH).
    static let goodMatch = 40
    /// Largest L, M and D values of one triple.
    static let maxL = 315
    static let maxM = 2359
    static let maxD = 262_139
    /// Matches are clamped to this length before their backward extension (100 * maxM).
    static let maxMatchLength = 235_900
    /// More pending literals than this (8 * maxL) are committed without a match.
    static let literalBacklog = 2520
    /// The position of an empty history slot (-4 * maxD).
    static let emptyPosition = -1_048_556
    /// The room a block needs before anything of it is written: the largest v2 header (32 + 2 * 360).
    static let blockHeaderReserve = 752

    /// Offsets of the four tables in the 360 frequency values: L, M, D, literals (spec §4.2).
    static let mTable = 20
    static let dTable = 40
    static let literalTable = 104
    static let tableValues = 360

    // MARK: Front end: the match finder (spec §2)

    /// A match: `length` bytes at `pos` repeat those at `ref`.
    struct Match {
        var pos: Int
        var ref: Int
        var length: Int
    }

    @inline(__always)
    static func load32(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    static func load64(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }

    /// The forward length of a match of `pos` against `ref`, whose first 4 bytes are equal: 8-byte
    /// windows are compared while the length is under `limit` = n - pos - 8, so the result is
    /// exact if a mismatch falls in a window starting before `limit`, and otherwise the first
    /// 4 + 8j at or past `limit` (spec §2.4). The last window starts before pos + limit = n - 8,
    /// so no read reaches the end of the input.
    @inline(__always)
    static func forwardLength(_ src: UnsafePointer<UInt8>, ref: Int, pos: Int, limit: Int) -> Int {
        var length = 4
        while length < limit {
            let diff = load64(src, ref &+ length) ^ load64(src, pos &+ length)
            if diff != 0 { return length &+ (diff.trailingZeroBitCount &>> 3) }
            length &+= 8
        }
        return length
    }

    /// The bvx2 path (spec §2–§5): the whole stream, or nil when a capacity check fails.
    static func encodeBlocks(_ src: UnsafePointer<UInt8>, count n: Int, capacity: Int) -> [UInt8]? {
        let scratch = Scratch()
        var backend = Backend(
            src: src, capacity: capacity, scratch: scratch,
            output: Output(capacity: min(max(capacity, 0), n / 4) + 4096))
        defer { backend.output.deallocate() }
        let positions = scratch.historyPosition
        let values = scratch.historyValue
        var pending: Match?
        var pos = 0
        while pos < n &- 8 {
            let x = load32(src, pos)
            let line = Int(truncatingIfNeeded: (x &* 2_654_435_761) &>> UInt32(32 - hashBits)) &<< 2
            // Candidates: the line's slots as they were before this position (spec §2.3).
            let active = pos >= backend.literalStart
            var bestLength = 0
            var bestRef = 0
            if active {
                let limit = n &- pos &- 8
                for k in 0..<4 {
                    let ref = positions[line &+ k]
                    // Exact 4-byte equality and a distance of at most maxD; strictly longer wins.
                    if values[line &+ k] == x && ref &+ maxD >= pos {
                        let length = forwardLength(src, ref: ref, pos: pos, limit: limit)
                        if length > bestLength {
                            bestLength = length
                            bestRef = ref
                        }
                    }
                }
            }
            // Every position enters the table, covered by a match or not.
            positions[line &+ 3] = positions[line &+ 2]
            positions[line &+ 2] = positions[line &+ 1]
            positions[line &+ 1] = positions[line]
            positions[line] = pos
            values[line &+ 3] = values[line &+ 2]
            values[line &+ 2] = values[line &+ 1]
            values[line &+ 1] = values[line]
            values[line] = x
            guard active else {
                pos &+= 1
                continue
            }
            if bestLength == 0 {
                if pos &- backend.literalStart > literalBacklog {
                    if let p = pending {
                        guard backend.commit(p) else { return nil }
                        pending = nil
                    } else {
                        guard backend.commit(pos: backend.literalStart &+ maxL, length: 0, distance: 1) else {
                            return nil
                        }
                    }
                }
                pos &+= 1
                continue
            }
            // Clamp, then extend backwards down to literalStart (never to a reference at 0).
            var mpos = pos
            var mref = bestRef
            while mpos > backend.literalStart && mref > 0 && src[mref &- 1] == src[mpos &- 1] {
                mpos &-= 1
                mref &-= 1
            }
            let incoming = Match(pos: mpos, ref: mref, length: min(bestLength, maxMatchLength) &+ (pos &- mpos))
            if incoming.length >= goodMatch {
                // Committed at once; a pending match is dropped (its bytes become literals).
                guard backend.commit(incoming) else { return nil }
                pending = nil
            } else if let p = pending {
                if p.pos &+ p.length <= incoming.pos {
                    guard backend.commit(p) else { return nil }
                    pending = incoming
                } else {
                    // Overlap: the longer one is committed, a tie goes to the pending match.
                    guard backend.commit(incoming.length > p.length ? incoming : p) else { return nil }
                    pending = nil
                }
            } else {
                pending = incoming
            }
            pos &+= 1
        }
        // The end of the input (spec §2.3, lzfse_encode_finish).
        if let p = pending {
            guard backend.commit(p) else { return nil }
        }
        if n > backend.literalStart {
            guard backend.commit(pos: n, length: 0, distance: 1) else { return nil }
        }
        guard backend.flush(), backend.output.count + 4 <= capacity else { return nil }
        backend.output.reserve(8)
        backend.output.append32(LZFSEConstants.magicEnd)
        return backend.output.bytes()
    }

    // MARK: Back end: triples and blocks (spec §3)

    /// Collects (L, M, D) triples and their literals into blocks, and writes a block when the
    /// next commit does not fit (spec §3).
    struct Backend {
        let src: UnsafePointer<UInt8>
        let capacity: Int
        let scratch: Scratch
        var output: Output
        /// Triples and literals in the current block.
        var matchCount = 0
        var literalCount = 0
        /// The first input byte not yet covered by a triple.
        var literalStart = 0

        /// Adds the triples of a match of `length` bytes at `pos` (its literals start at
        /// `literalStart`), all or nothing; false if they do not fit the current block (spec
        /// §3.1–§3.2). A length of 0 with distance 1 commits literals only.
        mutating func push(pos: Int, length: Int, distance: Int) -> Bool {
            let literals = pos &- literalStart
            // Pieces: (315, 0, 1) while L > 315, then (L, 2359, D) while M > 2359 with L = 0 after
            // the first, then (L, M, D) if either is left.
            let literalPieces = literals > maxL ? (literals &- 1) / maxL : 0
            let literalsLeft = literals &- literalPieces &* maxL
            let matchPieces = length > maxM ? (length &- 1) / maxM : 0
            let matchLeft = length &- matchPieces &* maxM
            let last = literalsLeft > 0 || matchLeft > 0 ? 1 : 0
            let triples = literalPieces &+ matchPieces &+ last
            // Each triple must pass nm + 1 + 8 <= 10000 and nl + l + 16 <= 40000 with the running
            // counts; both sides only grow, so the last triple's checks decide.
            if triples > 0
                && (matchCount &+ triples &+ 8 > LZFSEConstants.matchesPerBlock
                    || literalCount &+ literals &+ 16 > LZFSEConstants.literalsPerBlock)
            {
                return false
            }
            let l = scratch.l
            let m = scratch.m
            let d = scratch.d
            let d32 = Int32(truncatingIfNeeded: distance)
            var i = matchCount
            for _ in 0..<literalPieces {
                l[i] = Int32(maxL)
                m[i] = 0
                d[i] = 1
                i &+= 1
            }
            var carried = literalsLeft
            for _ in 0..<matchPieces {
                l[i] = Int32(truncatingIfNeeded: carried)
                m[i] = Int32(maxM)
                d[i] = d32
                carried = 0
                i &+= 1
            }
            if last == 1 {
                l[i] = Int32(truncatingIfNeeded: carried)
                m[i] = Int32(truncatingIfNeeded: matchLeft)
                d[i] = d32
                i &+= 1
            }
            // The literals of all the pieces are contiguous: src[literalStart..<pos].
            if literals > 0 {
                (scratch.literals + literalCount).update(from: src + literalStart, count: literals)
            }
            literalCount &+= literals
            matchCount = i
            literalStart = pos &+ length
            return true
        }

        /// Commits a match, writing the current block first if it does not fit (spec §3.2): a
        /// commit is never split across blocks. False when a capacity check fails.
        mutating func commit(pos: Int, length: Int, distance: Int) -> Bool {
            if push(pos: pos, length: length, distance: distance) { return true }
            guard flush() else { return false }
            return push(pos: pos, length: length, distance: distance)
        }

        mutating func commit(_ match: Match) -> Bool {
            commit(pos: match.pos, length: match.length, distance: match.pos &- match.ref)
        }

        /// Writes the current block, if it holds anything, as a bvx2 block and empties it
        /// (spec §3.3, §4). False when a capacity check fails.
        mutating func flush() -> Bool {
            let nm = matchCount
            var nl = literalCount
            guard nm > 0 || nl > 0 else { return true }
            matchCount = 0
            literalCount = 0
            let s = scratch
            let literals = s.literals
            // 1. Zero literals up to a multiple of 4; they count everywhere (spec §4).
            while nl & 3 != 0 {
                literals[nl] = 0
                nl &+= 1
            }
            // 2-4. Repeat distances become 0, values become symbols, histograms.
            let counts = s.counts
            counts.update(repeating: 0, count: tableValues)
            let base = s.valueBase
            var previous: Int32 = 0
            var rawBytes = 0
            for i in 0..<nm {
                let l = s.l[i]
                let m = s.m[i]
                var d = s.d[i]
                if d == previous {
                    d = 0
                } else {
                    previous = d
                }
                s.d[i] = d
                let lSymbol = LZFSEEncoder.symbol(l, base, count: 20)
                let mSymbol = LZFSEEncoder.symbol(m, base + mTable, count: 20)
                let dSymbol = LZFSEEncoder.symbol(d, base + dTable, count: 64)
                s.lSymbol[i] = UInt8(truncatingIfNeeded: lSymbol)
                s.mSymbol[i] = UInt8(truncatingIfNeeded: mSymbol)
                s.dSymbol[i] = UInt8(truncatingIfNeeded: dSymbol)
                counts[lSymbol] &+= 1
                counts[mTable &+ mSymbol] &+= 1
                counts[dTable &+ dSymbol] &+= 1
                rawBytes &+= Int(l) &+ Int(m)
            }
            for i in 0..<nl {
                counts[literalTable &+ Int(literals[i])] &+= 1
            }
            // 5. Room for the largest header before anything of the block is written.
            let start = output.count
            guard start &+ blockHeaderReserve <= capacity else { return false }
            // 6. Normalise.
            let freq = s.freq
            LZFSEEncoder.normalize(counts, symbols: 20, states: LZFSEConstants.lStates, into: freq)
            LZFSEEncoder.normalize(counts + mTable, symbols: 20, states: LZFSEConstants.mStates, into: freq + mTable)
            LZFSEEncoder.normalize(counts + dTable, symbols: 64, states: LZFSEConstants.dStates, into: freq + dTable)
            LZFSEEncoder.normalize(
                counts + literalTable, symbols: 256, states: LZFSEConstants.literalStates, into: freq + literalTable)
            // Memory: at most 10 bits per literal and 54 per triple; and the capacity checks keep
            // the writes within `capacity` (plus one 8-byte store past the last stream).
            let worst = blockHeaderReserve &+ nl &* 10 / 8 &+ nm &* 7 &+ 64
            output.reserve(min(worst, capacity &- start &+ 64))
            let out = output.base

            // 7. Frequency tables in the header (spec §4.2).
            var bits = BitWriter(out + start + LZFSEConstants.v2FixedHeaderSize)
            for i in 0..<tableValues {
                let code = LZFSEEncoder.frequencyCode(freq[i])
                bits.write(code.value, code.bits)
                bits.flush()
            }
            _ = bits.finish()
            let headerSize = LZFSEConstants.v2FixedHeaderSize &+ bits.bytesWritten

            // Literal stream: four interleaved states, literals backwards in groups of 4 (spec §4.4).
            let coders = s.coders
            LZFSEEncoder.buildCoders(
                freq + literalTable, symbols: 256, states: LZFSEConstants.literalStates, into: coders + literalTable)
            let literalCoders = coders + literalTable
            let literalPosition = start &+ headerSize
            bits = BitWriter(out + literalPosition)
            var state0 = 0
            var state1 = 0
            var state2 = 0
            var state3 = 0
            var group = nl
            while group > 0 {
                if literalPosition &+ bits.bytesWritten &+ 16 > capacity { return false }
                group &-= 4
                LZFSEEncoder.encodeSymbol(&state3, literalCoders[Int(literals[group &+ 3])], &bits)
                LZFSEEncoder.encodeSymbol(&state2, literalCoders[Int(literals[group &+ 2])], &bits)
                LZFSEEncoder.encodeSymbol(&state1, literalCoders[Int(literals[group &+ 1])], &bits)
                LZFSEEncoder.encodeSymbol(&state0, literalCoders[Int(literals[group])], &bits)
                bits.flush()
            }
            let literalPadding = bits.finish()
            let literalBytes = bits.bytesWritten

            // L/M/D stream: 8 zero bytes, then the triples backwards (spec §4.5).
            LZFSEEncoder.buildCoders(freq, symbols: 20, states: LZFSEConstants.lStates, into: coders)
            LZFSEEncoder.buildCoders(freq + mTable, symbols: 20, states: LZFSEConstants.mStates, into: coders + mTable)
            LZFSEEncoder.buildCoders(freq + dTable, symbols: 64, states: LZFSEConstants.dStates, into: coders + dTable)
            let lmdPosition = literalPosition &+ literalBytes
            guard lmdPosition &+ 8 <= capacity else { return false }
            (out + lmdPosition).update(repeating: 0, count: 8)
            bits = BitWriter(out + lmdPosition + 8)
            let extra = s.valueExtraBits
            var lState = 0
            var mState = 0
            var dState = 0
            var j = nm
            while j > 0 {
                if lmdPosition &+ 8 &+ bits.bytesWritten &+ 16 > capacity { return false }
                j &-= 1
                let dSymbol = dTable &+ Int(s.dSymbol[j])
                bits.write(UInt64(truncatingIfNeeded: s.d[j] &- base[dSymbol]), Int(extra[dSymbol]))
                LZFSEEncoder.encodeSymbol(&dState, coders[dSymbol], &bits)
                let mSymbol = mTable &+ Int(s.mSymbol[j])
                bits.write(UInt64(truncatingIfNeeded: s.m[j] &- base[mSymbol]), Int(extra[mSymbol]))
                LZFSEEncoder.encodeSymbol(&mState, coders[mSymbol], &bits)
                let lSymbol = Int(s.lSymbol[j])
                bits.write(UInt64(truncatingIfNeeded: s.l[j] &- base[lSymbol]), Int(extra[lSymbol]))
                LZFSEEncoder.encodeSymbol(&lState, coders[lSymbol], &bits)
                bits.flush()
            }
            let lmdPadding = bits.finish()
            let lmdBytes = 8 &+ bits.bytesWritten

            // The header fields (spec §4.6); the bit counts are stored as 7 - padding.
            var a = UInt64(truncatingIfNeeded: nl)
            a |= UInt64(truncatingIfNeeded: literalBytes) &<< 20
            a |= UInt64(truncatingIfNeeded: nm) &<< 40
            a |= UInt64(truncatingIfNeeded: 7 &- literalPadding) &<< 60
            var b = UInt64(truncatingIfNeeded: state0)
            b |= UInt64(truncatingIfNeeded: state1) &<< 10
            b |= UInt64(truncatingIfNeeded: state2) &<< 20
            b |= UInt64(truncatingIfNeeded: state3) &<< 30
            b |= UInt64(truncatingIfNeeded: lmdBytes) &<< 40
            b |= UInt64(truncatingIfNeeded: 7 &- lmdPadding) &<< 60
            var c = UInt64(truncatingIfNeeded: headerSize)
            c |= UInt64(truncatingIfNeeded: lState) &<< 32
            c |= UInt64(truncatingIfNeeded: mState) &<< 42
            c |= UInt64(truncatingIfNeeded: dState) &<< 52
            let header = UnsafeMutableRawPointer(out + start)
            header.storeBytes(of: LZFSEConstants.magicV2.littleEndian, toByteOffset: 0, as: UInt32.self)
            header.storeBytes(of: UInt32(truncatingIfNeeded: rawBytes).littleEndian, toByteOffset: 4, as: UInt32.self)
            header.storeBytes(of: a.littleEndian, toByteOffset: 8, as: UInt64.self)
            header.storeBytes(of: b.littleEndian, toByteOffset: 16, as: UInt64.self)
            header.storeBytes(of: c.littleEndian, toByteOffset: 24, as: UInt64.self)
            output.count = lmdPosition &+ lmdBytes
            return true
        }
    }

    // MARK: Entropy coding (spec §4.1–§4.4)

    /// The largest symbol s of `base[0..<count]` with base[s] <= value (spec §4 step 3).
    @inline(__always)
    static func symbol(_ value: Int32, _ base: UnsafePointer<Int32>, count: Int) -> Int {
        var low = 0
        var high = count
        while high &- low > 1 {
            let mid = (low &+ high) &>> 1
            if base[mid] <= value {
                low = mid
            } else {
                high = mid
            }
        }
        return low
    }

    /// Scales `counts[0..<symbols]` to frequencies summing to `states` (a power of two), in the
    /// reference's 32-bit arithmetic: rounded shares, at least 1 for a symbol that occurs, the
    /// difference given to (or, when large, taken from everyone starting with) the most frequent
    /// symbol (spec §4.1). All-zero counts give freq[0] = states.
    static func normalize(
        _ counts: UnsafePointer<UInt32>, symbols: Int, states: Int, into freq: UnsafeMutablePointer<Int>
    ) {
        var total: UInt32 = 0
        for i in 0..<symbols { total &+= counts[i] }
        let step: UInt32 = total == 0 ? 0 : (UInt32(1) &<< 31) / total
        let shift = UInt32(UInt32(truncatingIfNeeded: states).leadingZeroBitCount &- 1)
        var remaining = states
        var maxFrequency = 0
        var maxSymbol = 0
        for i in 0..<symbols {
            let count = counts[i]
            var f = Int((((count &* step) &>> shift) &+ 1) &>> 1)
            if f == 0 && count != 0 { f = 1 }
            freq[i] = f
            remaining &-= f
            if f > maxFrequency {
                maxFrequency = f
                maxSymbol = i
            }
        }
        if -remaining < (maxFrequency &>> 2) {
            // Under-assignment, or a small over-assignment: the most frequent symbol absorbs it.
            freq[maxSymbol] &+= remaining
        } else {
            // A large over-assignment: take up to (f - 1) >> sh from each symbol, sh = 3, 2, 1, 0.
            var overrun = -remaining
            var sh = 3
            while overrun != 0 {
                for i in 0..<symbols where freq[i] > 1 {
                    let cut = min((freq[i] &- 1) &>> sh, overrun)
                    freq[i] &-= cut
                    overrun &-= cut
                    if overrun == 0 { break }
                }
                if sh > 0 { sh &-= 1 }
            }
        }
    }

    /// The code word of a frequency value in the v2 header, lowest bit first (spec §4.2).
    @inline(__always)
    static func frequencyCode(_ v: Int) -> (bits: Int, value: UInt64) {
        switch v {
        case 0: return (2, 0)
        case 1: return (2, 2)
        case 2: return (3, 1)
        case 3: return (3, 5)
        case 4...7: return (5, UInt64(3 &+ 8 &* (v &- 4)))
        case 8...23: return (8, UInt64(7 &+ 16 &* (v &- 8)))
        default: return (14, UInt64(truncatingIfNeeded: 15 &+ 16 &* (v &- 24)))
        }
    }

    /// How one symbol is encoded from a state (spec §4.3): with k = log2(N) - floor(log2(f)),
    /// states at or above `threshold` = f * 2^k - N write k bits, the others k - 1, and the next
    /// state is delta + (state >> bits written).
    struct Coder {
        var threshold: Int32 = 0
        var k: Int32 = 0
        /// start - f + (N >> k).
        var delta0: Int32 = 0
        /// start - f + (N >> (k - 1)); unused when k = 0.
        var delta1: Int32 = 0
    }

    /// Builds the coders of the symbols of one table: symbols with f > 0 get consecutive state
    /// ranges in ascending order (spec §4.3).
    static func buildCoders(
        _ freq: UnsafePointer<Int>, symbols: Int, states: Int, into coders: UnsafeMutablePointer<Coder>
    ) {
        let logStates = states.trailingZeroBitCount
        var start = 0
        for s in 0..<symbols {
            let f = freq[s]
            guard f > 0 else {
                coders[s] = Coder()
                continue
            }
            let k = logStates &- (Int.bitWidth &- 1 &- f.leadingZeroBitCount)
            coders[s] = Coder(
                threshold: Int32(truncatingIfNeeded: (f &<< k) &- states),
                k: Int32(truncatingIfNeeded: k),
                delta0: Int32(truncatingIfNeeded: start &- f &+ (states &>> k)),
                delta1: k > 0 ? Int32(truncatingIfNeeded: start &- f &+ (states &>> (k &- 1))) : 0)
            start &+= f
        }
    }

    /// Encodes one symbol: writes the low bits of `state` and moves to the next state (spec §4.3).
    @inline(__always)
    static func encodeSymbol(_ state: inout Int, _ coder: Coder, _ bits: inout BitWriter) {
        let nb: Int
        let delta: Int
        if state >= Int(coder.threshold) {
            nb = Int(coder.k)
            delta = Int(coder.delta0)
        } else {
            nb = Int(coder.k) &- 1
            delta = Int(coder.delta1)
        }
        bits.write(UInt64(truncatingIfNeeded: state & ((1 &<< nb) &- 1)), nb)
        state = delta &+ (state &>> nb)
    }

    // MARK: Memory

    /// An LSB-first bit stream written straight into the output (spec §4.5, "Bit writer"): bits
    /// collect in a 64-bit accumulator, and `flush` stores all 8 of its bytes and advances past
    /// the whole ones, so the buffer needs 8 bytes of room past the stream's end. At most 64 bits
    /// may be written between two flushes (callers write at most 54).
    struct BitWriter {
        let start: UnsafeMutablePointer<UInt8>
        private var next: UnsafeMutablePointer<UInt8>
        private var accumulator: UInt64 = 0
        private var pending = 0

        init(_ start: UnsafeMutablePointer<UInt8>) {
            self.start = start
            next = start
        }

        /// Whole bytes written so far: floor(bits written / 8), what the capacity checks use.
        var bytesWritten: Int { (next - start) &+ (pending &>> 3) }

        /// Appends the low `count` bits of `value`, which has no higher bits set.
        @inline(__always)
        mutating func write(_ value: UInt64, _ count: Int) {
            accumulator |= value &<< UInt64(truncatingIfNeeded: pending)
            pending &+= count
        }

        @inline(__always)
        mutating func flush() {
            UnsafeMutableRawPointer(next).storeBytes(of: accumulator.littleEndian, as: UInt64.self)
            let whole = pending &>> 3
            next += whole
            accumulator = accumulator &>> UInt64(truncatingIfNeeded: whole &* 8)
            pending &= 7
        }

        /// Flushes and completes the last byte with zero bits; returns how many (0...7).
        mutating func finish() -> Int {
            flush()
            guard pending > 0 else { return 0 }
            let padding = 8 &- pending
            next += 1  // already stored by flush
            accumulator = 0
            pending = 0
            return padding
        }
    }

    /// A growable output buffer written through its pointer.
    struct Output {
        private(set) var base: UnsafeMutablePointer<UInt8>
        private(set) var capacity: Int
        var count = 0

        init(capacity: Int) {
            let size = max(capacity, 64)
            self.capacity = size
            base = .allocate(capacity: size)
            base.initialize(repeating: 0, count: size)
        }

        /// Makes room for `extra` bytes past `count`.
        mutating func reserve(_ extra: Int) {
            let needed = count &+ extra
            guard needed > capacity else { return }
            let newCapacity = max(needed, capacity &* 2)
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.initialize(from: base, count: count)
            (newBase + count).initialize(repeating: 0, count: newCapacity &- count)
            base.deallocate()
            base = newBase
            capacity = newCapacity
        }

        /// Appends a little-endian UInt32 (room reserved by the caller).
        mutating func append32(_ v: UInt32) {
            UnsafeMutableRawPointer(base + count).storeBytes(of: v.littleEndian, as: UInt32.self)
            count &+= 4
        }

        func bytes() -> [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

        func deallocate() { base.deallocate() }
    }

    /// Memory for one encoding: the match finder's history table (spec §2.1) and one block's
    /// triples, symbols, literals, histograms and coders (spec §3–§4).
    final class Scratch {
        /// 2^14 lines of 4 slots, most recent first: positions and their 4 bytes.
        let historyPosition: UnsafeMutablePointer<Int>
        let historyValue: UnsafeMutablePointer<UInt32>
        let l: UnsafeMutablePointer<Int32>
        let m: UnsafeMutablePointer<Int32>
        let d: UnsafeMutablePointer<Int32>
        let lSymbol: UnsafeMutablePointer<UInt8>
        let mSymbol: UnsafeMutablePointer<UInt8>
        let dSymbol: UnsafeMutablePointer<UInt8>
        /// At most 39 984 literals plus the padding to a multiple of 4.
        let literals: UnsafeMutablePointer<UInt8>
        /// 360 values each (L, M, D, literals: see `mTable`, `dTable`, `literalTable`).
        let counts: UnsafeMutablePointer<UInt32>
        let freq: UnsafeMutablePointer<Int>
        let coders: UnsafeMutablePointer<Coder>
        /// Base values and extra bits of the L, M and D symbols, at 0, `mTable` and `dTable`.
        let valueBase: UnsafeMutablePointer<Int32>
        let valueExtraBits: UnsafeMutablePointer<UInt8>

        static let historySlots = 4 << LZFSEEncoder.hashBits

        init() {
            let slots = Scratch.historySlots
            historyPosition = .allocate(capacity: slots)
            historyPosition.initialize(repeating: LZFSEEncoder.emptyPosition, count: slots)
            historyValue = .allocate(capacity: slots)
            historyValue.initialize(repeating: 0, count: slots)
            let matches = LZFSEConstants.matchesPerBlock
            l = .allocate(capacity: matches)
            l.initialize(repeating: 0, count: matches)
            m = .allocate(capacity: matches)
            m.initialize(repeating: 0, count: matches)
            d = .allocate(capacity: matches)
            d.initialize(repeating: 0, count: matches)
            lSymbol = .allocate(capacity: matches)
            lSymbol.initialize(repeating: 0, count: matches)
            mSymbol = .allocate(capacity: matches)
            mSymbol.initialize(repeating: 0, count: matches)
            dSymbol = .allocate(capacity: matches)
            dSymbol.initialize(repeating: 0, count: matches)
            literals = .allocate(capacity: LZFSEConstants.literalsPerBlock + 4)
            literals.initialize(repeating: 0, count: LZFSEConstants.literalsPerBlock + 4)
            let values = LZFSEEncoder.tableValues
            counts = .allocate(capacity: values)
            counts.initialize(repeating: 0, count: values)
            freq = .allocate(capacity: values)
            freq.initialize(repeating: 0, count: values)
            coders = .allocate(capacity: values)
            coders.initialize(repeating: Coder(), count: values)
            let symbols = LZFSEEncoder.literalTable
            valueBase = .allocate(capacity: symbols)
            valueBase.initialize(repeating: 0, count: symbols)
            valueExtraBits = .allocate(capacity: symbols)
            valueExtraBits.initialize(repeating: 0, count: symbols)
            for (offset, extraBits) in [
                (0, LZFSEConstants.lExtraBits), (LZFSEEncoder.mTable, LZFSEConstants.mExtraBits),
                (LZFSEEncoder.dTable, LZFSEConstants.dExtraBits),
            ] {
                var value: Int32 = 0
                for (s, e) in extraBits.enumerated() {
                    valueBase[offset + s] = value
                    valueExtraBits[offset + s] = e
                    value += Int32(1) << Int32(e)
                }
            }
        }

        deinit {
            historyPosition.deallocate()
            historyValue.deallocate()
            l.deallocate()
            m.deallocate()
            d.deallocate()
            lSymbol.deallocate()
            mSymbol.deallocate()
            dSymbol.deallocate()
            literals.deallocate()
            counts.deallocate()
            freq.deallocate()
            coders.deallocate()
            valueBase.deallocate()
            valueExtraBits.deallocate()
        }
    }
}

#endif
