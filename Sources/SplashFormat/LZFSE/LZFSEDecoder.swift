import Foundation

// Pure-Swift LZFSE stream decoder (all block kinds). See LZFSE.swift for the format overview and
// the list of refused inputs. Not compiled on Apple platforms, where the Compression framework
// decodes (LZFSE+Compression.swift).
//
// Safety strategy: every input read is preceded by an explicit range check
// against the input length; output is written into one buffer of exactly the
// total size declared by the block headers (validated against `limit` first)
// plus 64 bytes of slack for wide copies, and every literal/match is checked
// against the current block's declared end before it is copied.

#if !canImport(Compression)

/// One entry of the literal decoding table.
struct FSELiteralEntry {
    var k: UInt8 = 0
    var symbol: UInt8 = 0
    var delta: Int16 = 0
}

/// One entry of an L/M/D value decoding table.
struct FSEValueEntry {
    var totalBits: UInt8 = 0
    var valueBits: UInt8 = 0
    var delta: Int16 = 0
    var vbase: Int32 = 0
}

/// Scratch memory reused across the blocks of one decode call.
final class LZFSEDecoderScratch {
    let freq: UnsafeMutablePointer<UInt16>  // 360 values: L, M, D, literal
    let literalTable: UnsafeMutablePointer<FSELiteralEntry>
    let lTable: UnsafeMutablePointer<FSEValueEntry>
    let mTable: UnsafeMutablePointer<FSEValueEntry>
    let dTable: UnsafeMutablePointer<FSEValueEntry>
    /// Decoded literals plus 64 bytes of padding for wide copies.
    let literals: UnsafeMutablePointer<UInt8>

    init() {
        freq = .allocate(capacity: 360)
        freq.initialize(repeating: 0, count: 360)
        literalTable = .allocate(capacity: LZFSEConstants.literalStates)
        literalTable.initialize(repeating: FSELiteralEntry(), count: LZFSEConstants.literalStates)
        lTable = .allocate(capacity: LZFSEConstants.lStates)
        lTable.initialize(repeating: FSEValueEntry(), count: LZFSEConstants.lStates)
        mTable = .allocate(capacity: LZFSEConstants.mStates)
        mTable.initialize(repeating: FSEValueEntry(), count: LZFSEConstants.mStates)
        dTable = .allocate(capacity: LZFSEConstants.dStates)
        dTable.initialize(repeating: FSEValueEntry(), count: LZFSEConstants.dStates)
        literals = .allocate(capacity: LZFSEConstants.literalsPerBlock + 64)
        literals.initialize(repeating: 0, count: LZFSEConstants.literalsPerBlock + 64)
    }

    deinit {
        freq.deallocate()
        literalTable.deallocate()
        lTable.deallocate()
        mTable.deallocate()
        dTable.deallocate()
        literals.deallocate()
    }
}

/// Backward-reading FSE bit stream over `input[lower..<end]` (with the
/// reference's 56..63-bit accumulator discipline).
struct FSEBitReader {
    var accum: UInt64 = 0
    var nbits: Int = 0
    var pos: Int = 0
    let lower: Int
    let base: UnsafeRawPointer
    let count: Int

    /// `n` is the header's bit count in [-8, 0]; `end` is one past the last payload byte.
    @inline(__always)
    init(n: Int, end: Int, lower: Int, base: UnsafeRawPointer, count: Int, blockOffset: Int) throws(LZFSEError) {
        self.lower = lower
        self.base = base
        self.count = count
        guard n >= -8, n <= 0 else { throw .corruptBlock(offset: blockOffset, reason: .badBitCount) }
        let nbytes = n != 0 ? 8 : 7
        guard end <= count, end - nbytes >= lower else {
            throw .corruptBlock(offset: blockOffset, reason: .bitStreamOverrun)
        }
        pos = end - nbytes
        var a: UInt64 = 0
        for i in 0..<nbytes {
            a |= UInt64(base.load(fromByteOffset: pos + i, as: UInt8.self)) &<< UInt64(8 * i)
        }
        accum = a
        nbits = n + (n != 0 ? 64 : 56)
        guard nbits >= 56, nbits < 64, (accum &>> UInt64(nbits)) == 0 else {
            throw .corruptBlock(offset: blockOffset, reason: .badBitStreamPadding)
        }
    }

    /// Refills the accumulator to 56...63 bits.
    @inline(__always)
    mutating func flush(blockOffset: Int) throws(LZFSEError) {
        let addBits = (63 &- nbits) & ~7
        let nbytes = addBits &>> 3
        let newPos = pos &- nbytes
        guard newPos >= lower else { throw .corruptBlock(offset: blockOffset, reason: .bitStreamOverrun) }
        pos = newPos
        var incoming: UInt64
        if newPos &+ 8 <= count {
            incoming = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: newPos, as: UInt64.self))
        } else {
            incoming = 0
            var i = 0
            while i < nbytes {
                incoming |= UInt64(base.load(fromByteOffset: newPos &+ i, as: UInt8.self)) &<< UInt64(8 &* i)
                i &+= 1
            }
        }
        let mask = (UInt64(1) &<< UInt64(addBits)) &- 1
        accum = (accum &<< UInt64(addBits)) | (incoming & mask)
        nbits &+= addBits
    }

    @inline(__always)
    mutating func pull(_ n: Int) -> UInt64 {
        nbits &-= n
        let result = accum &>> UInt64(nbits)
        accum &= (UInt64(1) &<< UInt64(nbits)) &- 1
        return result
    }
}

extension LZFSEDecoder {

    // MARK: Entry points

    package static func decode(_ input: [UInt8], limit: Int) throws(LZFSEError) -> [UInt8] {
        try input.withUnsafeBufferPointer { (buf) throws(LZFSEError) -> [UInt8] in
            try decode(buf, limit: limit)
        }
    }

    static func decode(_ input: UnsafeBufferPointer<UInt8>, limit: Int) throws(LZFSEError) -> [UInt8] {
        let total = try scan(input, limit: limit)
        guard let base = input.baseAddress.map(UnsafeRawPointer.init) else {
            throw .missingEndOfStream(offset: 0)
        }
        let (capacity, overflow) = total.addingReportingOverflow(64)
        guard !overflow else { throw .outputLimitExceeded(limit: limit) }
        let scratch = LZFSEDecoderScratch()
        var failure: LZFSEError?
        let result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            initializedCount = 0
            guard let out = buffer.baseAddress, buffer.count >= capacity else {
                failure = .outputLimitExceeded(limit: limit)
                return
            }
            do throws(LZFSEError) {
                try decodeBlocks(base, count: input.count, out: out, total: total, scratch: scratch)
                initializedCount = total
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result
    }

    /// ``decode(_:limit:)`` straight into `Data`: the output exists once, never copied.
    static func decodeData(_ input: [UInt8], limit: Int) throws(LZFSEError) -> Data {
        try input.withUnsafeBufferPointer { (buffer) throws(LZFSEError) -> Data in
            let total = try scan(buffer, limit: limit)
            guard let base = buffer.baseAddress.map(UnsafeRawPointer.init) else { throw .missingEndOfStream(offset: 0) }
            let (capacity, overflow) = total.addingReportingOverflow(64)
            guard !overflow else { throw .outputLimitExceeded(limit: limit) }
            var output = Data(count: capacity)
            let scratch = LZFSEDecoderScratch()
            var failure: LZFSEError?
            output.withUnsafeMutableBytes { raw in
                guard let out = raw.bindMemory(to: UInt8.self).baseAddress else {
                    failure = .outputLimitExceeded(limit: limit)
                    return
                }
                do throws(LZFSEError) {
                    try decodeBlocks(base, count: buffer.count, out: out, total: total, scratch: scratch)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            output.count = total
            return output
        }
    }

    /// Decodes all blocks into `out` (capacity `total` + 64).
    static func decodeBlocks(
        _ base: UnsafeRawPointer, count: Int, out: UnsafeMutablePointer<UInt8>, total: Int,
        scratch: LZFSEDecoderScratch
    ) throws(LZFSEError) {
        var pos = 0
        var dst = 0
        while let f = try frame(base, count: count, at: pos) {
            // scan() guaranteed the sum of raw sizes is `total`.
            let blockEnd = dst + f.rawSize
            guard blockEnd <= total else { throw .outputLimitExceeded(limit: total) }
            switch f.magic {
            case LZFSEConstants.magicStored:
                if f.rawSize > 0 {
                    (out + dst).initialize(
                        from: base.advanced(by: pos + 8).assumingMemoryBound(to: UInt8.self), count: f.rawSize)
                }
            case LZFSEConstants.magicLZVN:
                try LZVNDecoder.decodeBlock(
                    base, inputCount: count, payloadStart: pos + 12, payloadEnd: pos + f.inputSize,
                    out: out, dstStart: dst, dstEnd: blockEnd, blockOffset: pos)
            default:
                let h = try parseLZFSEHeader(base, count: count, at: pos, magic: f.magic)
                try decodeLZFSEBlock(
                    base, count: count, at: pos, header: h, magic: f.magic,
                    out: out, dstStart: dst, scratch: scratch)
            }
            dst = blockEnd
            pos += f.inputSize
        }
    }

    /// Reads the 360 frequency values of the header at `pos` into `freq`.
    static func readFrequencies(
        _ base: UnsafeRawPointer, at pos: Int, header h: LZFSEBlockHeader, magic: UInt32,
        freq: UnsafeMutablePointer<UInt16>
    ) throws(LZFSEError) {
        if magic == LZFSEConstants.magicV1 {
            for i in 0..<360 { freq[i] = le16(base, pos + 50 + 2 * i) }
            return
        }
        var src = pos + LZFSEConstants.v2FixedHeaderSize
        let srcEnd = pos + h.headerSize
        if src == srcEnd {  // tables omitted: all zero
            freq.update(repeating: 0, count: 360)
            return
        }
        var accum: UInt32 = 0
        var accumBits = 0
        for i in 0..<360 {
            while src < srcEnd && accumBits + 8 <= 32 {
                accum |= UInt32(base.load(fromByteOffset: src, as: UInt8.self)) &<< UInt32(accumBits)
                accumBits += 8
                src += 1
            }
            // Fixed prefix code, read from the least significant bit.
            let nbits: Int
            let value: UInt16
            switch accum & 31 {
            case 0, 4, 8, 12, 16, 20, 24, 28: nbits = 2; value = 0
            case 2, 6, 10, 14, 18, 22, 26, 30: nbits = 2; value = 1
            case 1, 9, 17, 25: nbits = 3; value = 2
            case 5, 13, 21, 29: nbits = 3; value = 3
            case 3: nbits = 5; value = 4
            case 11: nbits = 5; value = 5
            case 19: nbits = 5; value = 6
            case 27: nbits = 5; value = 7
            case 7, 23: nbits = 8; value = UInt16(8 + ((accum &>> 4) & 0xf))
            default: nbits = 14; value = UInt16(24 + ((accum &>> 4) & 0x3ff))  // 15, 31
            }
            guard nbits <= accumBits else {
                throw .corruptBlock(offset: pos, reason: .badFrequencyTableEncoding)
            }
            freq[i] = value
            accum = accum &>> UInt32(nbits)
            accumBits -= nbits
        }
        guard accumBits < 8, src == srcEnd else {
            throw .corruptBlock(offset: pos, reason: .badFrequencyTableEncoding)
        }
    }

    /// Checks that `freq[0..<nSymbols]` sums to `nStates` (or to 0 when the table is unused).
    static func checkFrequencies(
        _ freq: UnsafePointer<UInt16>, nSymbols: Int, nStates: Int, used: Bool, blockOffset: Int
    ) throws(LZFSEError) {
        var sum = 0
        for i in 0..<nSymbols { sum += Int(freq[i]) }
        guard sum == nStates || (sum == 0 && !used) else {
            throw .corruptBlock(offset: blockOffset, reason: .frequencySumMismatch)
        }
    }

    /// Builds the literal decoding table (frequencies already checked).
    static func buildLiteralTable(
        _ freq: UnsafePointer<UInt16>, nSymbols: Int, nStates: Int, table: UnsafeMutablePointer<FSELiteralEntry>
    ) {
        let nClz = UInt32(nStates).leadingZeroBitCount
        var t = 0
        for i in 0..<nSymbols {
            let f = Int(freq[i])
            if f == 0 { continue }
            let k = UInt32(f).leadingZeroBitCount - nClz
            let j0 = ((2 * nStates) >> k) - f
            for j in 0..<f where t < nStates {
                if j < j0 {
                    table[t] = FSELiteralEntry(
                        k: UInt8(k), symbol: UInt8(truncatingIfNeeded: i),
                        delta: Int16(truncatingIfNeeded: ((f + j) << k) - nStates))
                } else {
                    table[t] = FSELiteralEntry(
                        k: UInt8(k - 1), symbol: UInt8(truncatingIfNeeded: i),
                        delta: Int16(truncatingIfNeeded: (j - j0) << (k - 1)))
                }
                t += 1
            }
        }
        while t < nStates {
            table[t] = FSELiteralEntry()
            t += 1
        }
    }

    /// Builds an L, M or D value decoding table (frequencies already checked).
    static func buildValueTable(
        _ freq: UnsafePointer<UInt16>, nSymbols: Int, nStates: Int,
        extraBits: [UInt8], baseValue: [Int32], table: UnsafeMutablePointer<FSEValueEntry>
    ) {
        let nClz = UInt32(nStates).leadingZeroBitCount
        var t = 0
        for i in 0..<nSymbols {
            let f = Int(freq[i])
            if f == 0 { continue }
            let k = UInt32(f).leadingZeroBitCount - nClz
            let j0 = ((2 * nStates) >> k) - f
            let vbits = extraBits[i]
            let vbase = baseValue[i]
            for j in 0..<f where t < nStates {
                if j < j0 {
                    table[t] = FSEValueEntry(
                        totalBits: UInt8(k) + vbits, valueBits: vbits,
                        delta: Int16(truncatingIfNeeded: ((f + j) << k) - nStates), vbase: vbase)
                } else {
                    table[t] = FSEValueEntry(
                        totalBits: UInt8(k - 1) + vbits, valueBits: vbits,
                        delta: Int16(truncatingIfNeeded: (j - j0) << (k - 1)), vbase: vbase)
                }
                t += 1
            }
        }
        while t < nStates {
            table[t] = FSEValueEntry()
            t += 1
        }
    }

    // MARK: LZFSE block body

    static func decodeLZFSEBlock(
        _ base: UnsafeRawPointer, count: Int, at pos: Int, header h: LZFSEBlockHeader, magic: UInt32,
        out: UnsafeMutablePointer<UInt8>, dstStart: Int, scratch: LZFSEDecoderScratch
    ) throws(LZFSEError) {
        typealias C = LZFSEConstants
        let freq = scratch.freq
        try readFrequencies(base, at: pos, header: h, magic: magic, freq: freq)
        try checkFrequencies(freq, nSymbols: C.lSymbols, nStates: C.lStates, used: h.nMatches > 0, blockOffset: pos)
        try checkFrequencies(
            freq + 20, nSymbols: C.mSymbols, nStates: C.mStates, used: h.nMatches > 0, blockOffset: pos)
        try checkFrequencies(
            freq + 40, nSymbols: C.dSymbols, nStates: C.dStates, used: h.nMatches > 0, blockOffset: pos)
        try checkFrequencies(
            freq + 104, nSymbols: C.literalSymbols, nStates: C.literalStates, used: h.nLiterals > 0,
            blockOffset: pos)
        buildValueTable(
            freq, nSymbols: C.lSymbols, nStates: C.lStates, extraBits: C.lExtraBits, baseValue: C.lBaseValue,
            table: scratch.lTable)
        buildValueTable(
            freq + 20, nSymbols: C.mSymbols, nStates: C.mStates, extraBits: C.mExtraBits,
            baseValue: C.mBaseValue, table: scratch.mTable)
        buildValueTable(
            freq + 40, nSymbols: C.dSymbols, nStates: C.dStates, extraBits: C.dExtraBits,
            baseValue: C.dBaseValue, table: scratch.dTable)
        buildLiteralTable(freq + 104, nSymbols: C.literalSymbols, nStates: C.literalStates, table: scratch.literalTable)

        // Literals: four interleaved FSE streams read backwards from the end of
        // the literal payload. Like the reference, the initial load may look a
        // few bytes before the payload (into this block's header) when the
        // payload is shorter than 8 bytes; those bits are never consumed by a
        // valid stream.
        let literalStart = pos + h.headerSize
        let literalEnd = literalStart + h.nLiteralPayloadBytes
        let nLiterals = (h.nLiterals + 3) & ~3  // <= 40000
        if nLiterals > 0 {
            var reader = try FSEBitReader(
                n: h.literalBits, end: literalEnd, lower: pos, base: base, count: count, blockOffset: pos)
            let table = scratch.literalTable
            let lits = scratch.literals
            var s0 = h.literalState.0
            var s1 = h.literalState.1
            var s2 = h.literalState.2
            var s3 = h.literalState.3
            var i = 0
            while i < nLiterals {
                try reader.flush(blockOffset: pos)
                var e = table[s0 & 1023]
                s0 = Int(e.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(e.k)))
                lits[i] = e.symbol
                e = table[s1 & 1023]
                s1 = Int(e.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(e.k)))
                lits[i &+ 1] = e.symbol
                e = table[s2 & 1023]
                s2 = Int(e.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(e.k)))
                lits[i &+ 2] = e.symbol
                e = table[s3 & 1023]
                s3 = Int(e.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(e.k)))
                lits[i &+ 3] = e.symbol
                i &+= 4
            }
        }

        // L, M, D triples.
        let lmdStart = literalEnd
        let lmdEnd = lmdStart + h.nLMDPayloadBytes
        let dstEnd = dstStart + h.nRawBytes
        var dst = dstStart
        if h.nMatches > 0 {
            var reader = try FSEBitReader(
                n: h.lmdBits, end: lmdEnd, lower: lmdStart, base: base, count: count, blockOffset: pos)
            let lTable = scratch.lTable
            let mTable = scratch.mTable
            let dTable = scratch.dTable
            let lits = UnsafePointer(scratch.literals)
            var litPos = 0
            var lState = h.lState
            var mState = h.mState
            var dState = h.dState
            var D = -1  // no previous distance yet: a repeat-distance symbol is invalid
            var remaining = h.nMatches
            while remaining > 0 {
                remaining &-= 1
                try reader.flush(blockOffset: pos)
                // At most 14 + 17 + 23 = 54 bits are pulled per triple; the flush left >= 56.
                let le = lTable[lState & 63]
                let lBits = reader.pull(Int(le.totalBits))
                lState = Int(le.delta) &+ Int(truncatingIfNeeded: lBits &>> UInt64(le.valueBits))
                let L = Int(le.vbase) &+ Int(truncatingIfNeeded: lBits & ((1 &<< UInt64(le.valueBits)) &- 1))
                let me = mTable[mState & 63]
                let mBits = reader.pull(Int(me.totalBits))
                mState = Int(me.delta) &+ Int(truncatingIfNeeded: mBits &>> UInt64(me.valueBits))
                let M = Int(me.vbase) &+ Int(truncatingIfNeeded: mBits & ((1 &<< UInt64(me.valueBits)) &- 1))
                let de = dTable[dState & 255]
                let dBits = reader.pull(Int(de.totalBits))
                dState = Int(de.delta) &+ Int(truncatingIfNeeded: dBits &>> UInt64(de.valueBits))
                let newD = Int(de.vbase) &+ Int(truncatingIfNeeded: dBits & ((1 &<< UInt64(de.valueBits)) &- 1))
                if newD != 0 { D = newD }

                // L <= 315, M <= 2359, D <= 262139: no overflow possible below.
                guard L <= nLiterals &- litPos else { throw .corruptBlock(offset: pos, reason: .literalOverrun) }
                guard L &+ M <= dstEnd &- dst else { throw .corruptBlock(offset: pos, reason: .outputOverrun) }
                guard D > 0, D <= dst &+ L else { throw .corruptBlock(offset: pos, reason: .invalidMatchDistance) }

                // Literal copy: the literal buffer has 64 bytes of padding and the
                // output 64 bytes of slack, so 8-byte chunks may overshoot.
                var o = out + dst
                var s = lits + litPos
                var n = 0
                while n < L {
                    UnsafeMutableRawPointer(o).storeBytes(
                        of: UnsafeRawPointer(s).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    o += 8
                    s += 8
                    n &+= 8
                }
                litPos &+= L
                dst &+= L
                if M > 0 {
                    copyMatch(out: out, dst: dst, distance: D, length: M)
                    dst &+= M
                }
            }
        }
        guard dst == dstEnd else { throw .corruptBlock(offset: pos, reason: .rawSizeMismatch) }
    }

    /// Copies an LZ match of `length` bytes from `dst - distance` to `dst`.
    /// Requires 1 <= distance <= dst and `dst + length + 8 <= capacity` (64 bytes of slack).
    @inline(__always)
    static func copyMatch(out: UnsafeMutablePointer<UInt8>, dst: Int, distance: Int, length: Int) {
        var o = out + dst
        var s = o - distance
        if distance >= 8 {
            var n = 0
            while n < length {
                UnsafeMutableRawPointer(o).storeBytes(
                    of: UnsafeRawPointer(s).loadUnaligned(as: UInt64.self), as: UInt64.self)
                o += 8
                s += 8
                n &+= 8
            }
        } else {
            // Overlapping short-distance match: replicate the pattern byte by byte
            // until the distance is at least 8, then copy in 8-byte chunks.
            var n = 0
            let warm = min(length, 16)
            while n < warm {
                o[n] = s[n]
                n &+= 1
            }
            if n < length {
                // The period `distance` repeats; copying from `dst + n - p` where p is
                // a multiple of distance >= 8 yields the same bytes.
                let p = distance * ((8 + distance - 1) / distance)  // in 8...14
                var oo = o + n
                var ss = oo - p
                while n < length {
                    UnsafeMutableRawPointer(oo).storeBytes(
                        of: UnsafeRawPointer(ss).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    oo += 8
                    ss += 8
                    n &+= 8
                }
            }
        }
    }
}
#endif
