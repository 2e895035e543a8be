import Foundation

// LZFSE block framing, shared by every platform. See LZFSE.swift for the format overview and
// the list of refused inputs.
//
// Every input read is preceded by an explicit range check against the input length, and the
// declared output sizes are summed with overflow checks against the caller's limit.

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

/// What every platform needs of LZFSE without decoding it: the block framing (kinds, extents,
/// declared sizes) and the header fields, so a stream's output size is checked against a limit
/// before anything is decoded, and `inspect` can list its blocks. The decoders are in
/// LZFSEDecoder.swift (not compiled where the Compression framework decodes).
package enum LZFSEDecoder {
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
}

#if !canImport(Compression) || DEBUG
/// The value tables of the L, M and D symbols: extra bits and base values (the decoder's and the
/// encoder's, compiled wherever either is).
extension LZFSEConstants {
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
#endif
