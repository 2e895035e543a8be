import Foundation

// Pure-Swift LZFSE stream decoder (all block kinds). See LZFSE.swift for the
// format overview and the list of refused inputs.
//
// Safety strategy: every input read is preceded by an explicit range check
// against the input length; output is written into one buffer of exactly the
// total size declared by the block headers (validated against `limit` first)
// plus 64 bytes of slack for wide copies, and every literal/match is checked
// against the current block's declared end before it is copied.

enum LZFSEConstants {
    static let magicEnd: UInt32 = 0x2478_7662  // bvx$
    static let magicStored: UInt32 = 0x2d78_7662  // bvx-
    static let magicV1: UInt32 = 0x3178_7662  // bvx1
    static let magicV2: UInt32 = 0x3278_7662  // bvx2
    static let magicLZVN: UInt32 = 0x6e78_7662  // bvxn

    static let lSymbols = 20
    static let mSymbols = 20
    static let dSymbols = 64
    static let literalSymbols = 256
    static let lStates = 64
    static let mStates = 64
    static let dStates = 256
    static let literalStates = 1024
    static let matchesPerBlock = 10_000
    static let literalsPerBlock = 40_000

    static let v1HeaderSize = 772
    static let v2FixedHeaderSize = 32
    /// 360 frequency values of at most 14 bits each.
    static let v2MaxHeaderSize = 32 + (360 * 14 + 7) / 8

    static let lExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 5, 8]
    static let lBaseValue: [Int32] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 28, 60]
    static let mExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 5, 8, 11]
    static let mBaseValue: [Int32] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 56, 312]
    static let dExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
        4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7,
        8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11,
        12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15,
    ]
    static let dBaseValue: [Int32] = [
        0, 1, 2, 3, 4, 6, 8, 10, 12, 16,
        20, 24, 28, 36, 44, 52, 60, 76, 92, 108,
        124, 156, 188, 220, 252, 316, 380, 444, 508, 636,
        764, 892, 1020, 1276, 1532, 1788, 2044, 2556, 3068, 3580,
        4092, 5116, 6140, 7164, 8188, 10236, 12284, 14332, 16380, 20476,
        24572, 28668, 32764, 40956, 49148, 57340, 65532, 81916, 98300, 114684,
        131068, 163836, 196604, 229372,
    ]
}

/// Decoded (v1-equivalent) LZFSE block header.
struct LZFSEBlockHeader {
    var headerSize = 0
    var nRawBytes = 0
    var nLiterals = 0
    var nMatches = 0
    var nLiteralPayloadBytes = 0
    var nLMDPayloadBytes = 0
    var literalBits = 0
    var literalState: (Int, Int, Int, Int) = (0, 0, 0, 0)
    var lmdBits = 0
    var lState = 0
    var mState = 0
    var dState = 0
}

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

enum LZFSEDecoder {
    // MARK: Little-endian reads (callers check bounds first)

    @inline(__always)
    static func le32(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    static func le64(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    static func le16(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16 {
        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// Converts a header's UInt32 to Int (always exact on 64-bit platforms).
    @inline(__always)
    static func int(_ v: UInt32, offset: Int) throws(LZFSEError) -> Int {
        guard let r = Int(exactly: v) else { throw .truncated(offset: offset) }
        return r
    }

    // MARK: Framing

    /// Block framing: kind, total size in the input, raw size.
    struct Frame {
        var magic: UInt32
        var inputSize: Int
        var rawSize: Int
    }

    /// Parses the header of the block at `pos` far enough to know its extent.
    /// Returns nil for the end-of-stream block.
    static func frame(_ base: UnsafeRawPointer, count: Int, at pos: Int) throws(LZFSEError) -> Frame? {
        let avail = count - pos
        guard avail >= 4 else {
            if avail == 0 { throw .missingEndOfStream(offset: pos) }
            throw .truncated(offset: pos)
        }
        let magic = le32(base, pos)
        switch magic {
        case LZFSEConstants.magicEnd:
            return nil
        case LZFSEConstants.magicStored:
            guard avail >= 8 else { throw .truncated(offset: pos) }
            let n = try int(le32(base, pos + 4), offset: pos)
            guard n <= avail - 8 else { throw .truncated(offset: pos) }
            return Frame(magic: magic, inputSize: 8 + n, rawSize: n)
        case LZFSEConstants.magicLZVN:
            guard avail >= 12 else { throw .truncated(offset: pos) }
            let raw = try int(le32(base, pos + 4), offset: pos)
            let payload = try int(le32(base, pos + 8), offset: pos)
            guard payload <= avail - 12 else { throw .truncated(offset: pos) }
            return Frame(magic: magic, inputSize: 12 + payload, rawSize: raw)
        case LZFSEConstants.magicV1, LZFSEConstants.magicV2:
            let h = try parseLZFSEHeader(base, count: count, at: pos, magic: magic)
            // Each payload is < 2^20 (v2) or < 2^32 (v1), so the sum cannot overflow on 64-bit;
            // use checked arithmetic anyway for 32-bit platforms.
            let (p1, o1) = h.headerSize.addingReportingOverflow(h.nLiteralPayloadBytes)
            let (p2, o2) = p1.addingReportingOverflow(h.nLMDPayloadBytes)
            guard !o1, !o2, p2 <= avail else { throw .truncated(offset: pos) }
            return Frame(magic: magic, inputSize: p2, rawSize: h.nRawBytes)
        default:
            throw .badBlockMagic(offset: pos, found: magic)
        }
    }

    /// Validates the block framing of the whole stream and returns the total
    /// declared output size, which is guaranteed to be <= `limit`.
    static func scan(_ input: UnsafeBufferPointer<UInt8>, limit: Int) throws(LZFSEError) -> Int {
        guard let base = input.baseAddress.map(UnsafeRawPointer.init) else {
            throw .missingEndOfStream(offset: 0)
        }
        let count = input.count
        var pos = 0
        var total = 0
        while let f = try frame(base, count: count, at: pos) {
            let (t, o) = total.addingReportingOverflow(f.rawSize)
            guard !o, t <= limit else { throw .outputLimitExceeded(limit: limit) }
            total = t
            pos += f.inputSize  // inputSize <= count - pos, checked in frame()
        }
        return total
    }

    // MARK: Entry points

    static func decode(_ input: [UInt8], limit: Int) throws(LZFSEError) -> [UInt8] {
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

    // MARK: LZFSE (bvx1 / bvx2) headers

    /// Parses a v1 or v2 header (fields only; frequency tables are read by `readFrequencies`).
    static func parseLZFSEHeader(
        _ base: UnsafeRawPointer, count: Int, at pos: Int, magic: UInt32
    ) throws(LZFSEError) -> LZFSEBlockHeader {
        let avail = count - pos
        var h = LZFSEBlockHeader()
        if magic == LZFSEConstants.magicV2 {
            guard avail >= LZFSEConstants.v2FixedHeaderSize else { throw .truncated(offset: pos) }
            h.nRawBytes = try int(le32(base, pos + 4), offset: pos)
            let v0 = le64(base, pos + 8)
            let v1 = le64(base, pos + 16)
            let v2 = le64(base, pos + 24)
            func field(_ v: UInt64, _ offset: UInt64, _ bits: UInt64) -> Int {
                Int(truncatingIfNeeded: (v &>> offset) & ((1 &<< bits) &- 1))
            }
            h.nLiterals = field(v0, 0, 20)
            h.nLiteralPayloadBytes = field(v0, 20, 20)
            h.nMatches = field(v0, 40, 20)
            h.literalBits = field(v0, 60, 3) - 7
            h.literalState = (field(v1, 0, 10), field(v1, 10, 10), field(v1, 20, 10), field(v1, 30, 10))
            h.nLMDPayloadBytes = field(v1, 40, 20)
            h.lmdBits = field(v1, 60, 3) - 7
            let headerSize = Int(truncatingIfNeeded: v2 & 0xffff_ffff)
            h.lState = field(v2, 32, 10)
            h.mState = field(v2, 42, 10)
            h.dState = field(v2, 52, 10)
            guard headerSize >= LZFSEConstants.v2FixedHeaderSize, headerSize <= LZFSEConstants.v2MaxHeaderSize else {
                throw .corruptBlock(offset: pos, reason: .invalidHeaderSize)
            }
            guard headerSize <= avail else { throw .truncated(offset: pos) }
            h.headerSize = headerSize
        } else {
            guard avail >= LZFSEConstants.v1HeaderSize else { throw .truncated(offset: pos) }
            h.headerSize = LZFSEConstants.v1HeaderSize
            h.nRawBytes = try int(le32(base, pos + 4), offset: pos)
            // pos + 8: n_payload_bytes (ignored by the reference decoder as well)
            h.nLiterals = try int(le32(base, pos + 12), offset: pos)
            h.nMatches = try int(le32(base, pos + 16), offset: pos)
            h.nLiteralPayloadBytes = try int(le32(base, pos + 20), offset: pos)
            h.nLMDPayloadBytes = try int(le32(base, pos + 24), offset: pos)
            h.literalBits = Int(Int32(bitPattern: le32(base, pos + 28)))
            h.literalState = (
                Int(le16(base, pos + 32)), Int(le16(base, pos + 34)),
                Int(le16(base, pos + 36)), Int(le16(base, pos + 38))
            )
            h.lmdBits = Int(Int32(bitPattern: le32(base, pos + 40)))
            h.lState = Int(le16(base, pos + 44))
            h.mState = Int(le16(base, pos + 46))
            h.dState = Int(le16(base, pos + 48))
        }
        guard h.nLiterals <= LZFSEConstants.literalsPerBlock, h.nMatches <= LZFSEConstants.matchesPerBlock else {
            throw .corruptBlock(offset: pos, reason: .tooManySymbols)
        }
        let ls = h.literalState
        guard ls.0 < LZFSEConstants.literalStates, ls.1 < LZFSEConstants.literalStates,
            ls.2 < LZFSEConstants.literalStates, ls.3 < LZFSEConstants.literalStates,
            h.lState < LZFSEConstants.lStates, h.mState < LZFSEConstants.mStates, h.dState < LZFSEConstants.dStates
        else {
            throw .corruptBlock(offset: pos, reason: .stateOutOfRange)
        }
        return h
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
