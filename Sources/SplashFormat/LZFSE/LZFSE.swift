// LZFSE codec for splashgen.
//
// LZFSE is Apple's LZ77-style compression format (the `COMPRESSION_LZFSE`
// algorithm of the Compression framework). A stream is a sequence of blocks,
// each starting with a four-byte little-endian magic:
//
//   * `bvx-`  stored block: a raw byte count followed by that many raw bytes.
//   * `bvxn`  LZVN block: raw size, payload size, then LZVN opcodes (literal
//             runs and matches, terminated by an end-of-stream opcode).
//   * `bvx1`  LZFSE block with an uncompressed (v1, 772-byte) header: literals
//             and (L, M, D) match triples, each entropy-coded with finite state
//             entropy (tANS) using the frequency tables stored in the header.
//   * `bvx2`  the same as `bvx1`, but the header fields are bit-packed and the
//             frequency tables are compressed with a small fixed prefix code.
//             This is what Apple's encoder emits for inputs of 4 KB and more.
//   * `bvx$`  end of stream.
//
// Matches may refer to output produced by earlier blocks of the same stream.
//
// What the pure-Swift decoder (`LZFSEDecoder`) refuses, always by throwing a
// named `LZFSEError` (it never traps, never reads or writes out of bounds, and
// never allocates more than `limit` + 64 bytes of output):
//
//   * an unknown block magic (`badBlockMagic`),
//   * input that ends inside a block (`truncated`) or at a block boundary
//     without a `bvx$` block (`missingEndOfStream`),
//   * streams whose block headers claim more than `limit` output bytes in total
//     (`outputLimitExceeded`); this is checked over all block headers before
//     any output memory is reserved,
//   * any inconsistency inside a block (`corruptBlock` with a `Reason`): header
//     fields out of range, frequency tables that do not sum to the state count,
//     bad bit-stream padding, reads before a payload's start, literal or match
//     lengths that run past the decoded literals or the block's declared raw
//     size, match distances of 0 or reaching before the start of the output,
//     undefined LZVN opcodes, and blocks whose decoded size differs from the
//     size declared in their header.
//
// Bytes after the `bvx$` block are ignored, as Apple's decoder does.
//
// On Apple platforms (`canImport(Compression)`), `LZFSE.decompress` first
// validates the block framing and the output size with the pure-Swift framing
// (LZFSEFraming.swift), then lets the Compression framework decode, and refuses
// a stream it does not decode to exactly the declared size; `LZFSE.compress`
// uses the framework's encoder. The pure-Swift decoders are not compiled there.
// On every other platform they do the work (`LZFSEDecoder`), and `LZFSEEncoder`
// writes what Apple's reference encoder writes for the same input, byte for byte
// (`bvx-`, `bvxn` or `bvx2` blocks; docs/ios-launch-cache.md §3, docs/lzfse-encoder.md).
// On Apple platforms the encoder is compiled in debug builds only, so a test there
// can compare it with the framework's while an app's release build carries none of it.

import Foundation

/// Why an LZFSE stream was refused.
package enum LZFSEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside the block (or block header) that starts at `offset`.
    case truncated(offset: Int)
    /// The input ended at the block boundary `offset` without a `bvx$` end-of-stream block.
    case missingEndOfStream(offset: Int)
    /// The four bytes at `offset` are not a known block magic (`found` is their little-endian value).
    case badBlockMagic(offset: Int, found: UInt32)
    /// The stream declares (or would produce) more than `limit` output bytes.
    case outputLimitExceeded(limit: Int)
    /// Apple's Compression framework did not decode the stream to the size its blocks declare.
    case notDecodedBySystem
    /// The block at (or the opcode at) `offset` is internally inconsistent.
    case corruptBlock(offset: Int, reason: Reason)

    /// The specific inconsistency found inside a block.
    package enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// A `bvx2` header's `header_size` field is smaller than the fixed header or larger than any valid table encoding.
        case invalidHeaderSize
        /// A `bvx2` header's compressed frequency tables do not end exactly at `header_size`.
        case badFrequencyTableEncoding
        /// A frequency table does not sum to its number of FSE states.
        case frequencySumMismatch
        /// The header declares more literals or matches than an LZFSE block can hold.
        case tooManySymbols
        /// An initial FSE state in the header is outside its table.
        case stateOutOfRange
        /// A bit-stream bit count in the header is outside [-8, 0].
        case badBitCount
        /// A bit stream's final byte has nonzero padding bits.
        case badBitStreamPadding
        /// A bit stream tried to read before the start of its payload.
        case bitStreamOverrun
        /// A match triple needs more literal bytes than the block decoded.
        case literalOverrun
        /// A literal or match would write past the block's declared raw size.
        case outputOverrun
        /// A match distance is 0 or points before the start of the output.
        case invalidMatchDistance
        /// The block decoded to a different number of bytes than its header declares.
        case rawSizeMismatch
        /// An LZVN opcode is undefined.
        case undefinedOpcode
        /// An LZVN payload ended before its end-of-stream opcode, or the opcode was not at the payload's end.
        case payloadSizeMismatch

        package var description: String {
            switch self {
            case .invalidHeaderSize: return "the compressed header size field is out of range"
            case .badFrequencyTableEncoding: return "the compressed frequency tables do not fill the header exactly"
            case .frequencySumMismatch: return "a frequency table does not sum to its number of states"
            case .tooManySymbols: return "the header declares more literals or matches than a block may hold"
            case .stateOutOfRange: return "an initial entropy-coder state is outside its table"
            case .badBitCount: return "a bit-stream bit count is out of range"
            case .badBitStreamPadding: return "a bit stream has nonzero padding bits"
            case .bitStreamOverrun: return "a bit stream reads before the start of its payload"
            case .literalOverrun: return "a match triple uses more literal bytes than were decoded"
            case .outputOverrun: return "the block writes more bytes than its header declares"
            case .invalidMatchDistance: return "a match distance is zero or points before the start of the output"
            case .rawSizeMismatch: return "the block decodes to fewer bytes than its header declares"
            case .undefinedOpcode: return "an LZVN opcode is undefined"
            case .payloadSizeMismatch: return "the LZVN end-of-stream opcode is missing or not at the end of the payload"
            }
        }
    }

    package var description: String {
        switch self {
        case .truncated(let offset):
            return "The LZFSE input ends inside the block that starts at byte \(offset)."
        case .missingEndOfStream(let offset):
            return "The LZFSE input ends at byte \(offset) without an end-of-stream (bvx$) block."
        case .badBlockMagic(let offset, let found):
            return "The LZFSE input has an unknown block magic 0x\(String(found, radix: 16)) at byte \(offset)."
        case .outputLimitExceeded(let limit):
            return "The LZFSE stream would decompress to more than the allowed \(limit) bytes."
        case .notDecodedBySystem:
            return "The Compression framework did not decode the LZFSE stream to the size its blocks declare."
        case .corruptBlock(let offset, let reason):
            return "The LZFSE block at byte \(offset) is corrupt: \(reason)."
        }
    }
}

/// LZFSE compression and decompression.
package enum LZFSE {
    /// Decodes a whole stream (blocks until `bvx$`); refuses anything that would produce more than `limit` bytes.
    package static func decompress(_ input: [UInt8], limit: Int) throws(LZFSEError) -> [UInt8] {
        #if canImport(Compression)
        let expected = try input.withUnsafeBufferPointer { (src) throws(LZFSEError) -> Int in
            try LZFSEDecoder.scan(src, limit: limit)
        }
        guard expected > 0 else { return [] }
        guard let out = SystemLZFSE.decode(input, expectedSize: expected) else { throw .notDecodedBySystem }
        return out
        #else
        return try LZFSEDecoder.decode(input, limit: limit)
        #endif
    }

    /// ``decompress(_:limit:)`` into `Data`, with no second copy of the output off Apple platforms.
    package static func decompressData(_ input: [UInt8], limit: Int) throws(LZFSEError) -> Data {
        #if canImport(Compression)
        return Data(try decompress(input, limit: limit))
        #else
        return try LZFSEDecoder.decodeData(input, limit: limit)
        #endif
    }

    /// Encodes bytes as an LZFSE stream the reference decoder reads.
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        #if canImport(Compression)
        // The framework encodes every non-empty input; the empty one, and a failure, are stored.
        if let out = SystemLZFSE.encode(input) { return out }
        var stored: [UInt8] = []
        if !input.isEmpty {
            stored = Array("bvx-".utf8) + (0..<4).map { UInt8(input.count >> (8 * $0) & 0xFF) } + input
        }
        return stored + Array("bvx$".utf8)
        #else
        return LZFSEEncoder.encode(input)
        #endif
    }

    /// The magics of a stream's blocks in order, `bvx$` included, as far as the framing reads
    /// (for `inspect`); nothing is decoded, and a damaged frame ends the list with `damaged`.
    package static func blockKinds(_ input: [UInt8]) -> [String] {
        input.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress.map(UnsafeRawPointer.init) else { return ["damaged"] }
            var kinds: [String] = []
            var position = 0
            while true {
                do throws(LZFSEError) {
                    guard let frame = try LZFSEDecoder.frame(base, count: buffer.count, at: position) else { return kinds + ["bvx$"] }
                    kinds.append(String(decoding: (0..<4).map { UInt8(frame.magic >> (8 * $0) & 0xFF) }, as: UTF8.self))
                    position += frame.inputSize
                } catch {
                    return kinds + ["damaged"]
                }
            }
        }
    }
}
