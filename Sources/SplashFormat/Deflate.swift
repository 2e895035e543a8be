import Foundation

#if canImport(Compression)
import Compression
#else
import CSystemZlib
#endif

/// Raw DEFLATE (RFC 1951, no zlib or gzip wrapper): how `splashgen publish` stores each object for
/// download, in the one form a phone inflates with no extra library (Apple's Compression framework,
/// `COMPRESSION_ZLIB`; zlib elsewhere). Inflating is bounded by the size the signed manifest states.
package enum Deflate {
    /// Inflates `data`, which must give exactly `expectedSize` bytes (at most ``ReadLimits/snapshotBytes``):
    /// a stream that is damaged, ends early, would give more, or has bytes after its end is refused
    /// without ever holding more than `expectedSize + 1` bytes.
    package static func inflate(_ data: Data, expectedSize: Int) throws(DeflateError) -> Data {
        guard (0...ReadLimits.snapshotBytes).contains(expectedSize) else { throw .tooLarge(expectedSize) }
        let capacity = expectedSize + 1
        var output = Data(count: capacity)
        #if canImport(Compression)
        guard !data.isEmpty else { throw .damaged("empty stream") }
        let written = output.withUnsafeMutableBytes { out -> Int in
            data.withUnsafeBytes { input -> Int in
                guard let target = out.bindMemory(to: UInt8.self).baseAddress, let source = input.bindMemory(to: UInt8.self).baseAddress else { return 0 }
                return compression_decode_buffer(target, capacity, source, data.count, nil, COMPRESSION_ZLIB)
            }
        }
        guard written == expectedSize else { throw .wrongSize(expected: expectedSize, found: written) }
        return output.prefix(written)
        #else
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .failed("inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        let status = zlibFinish(&stream, data, into: &output, with: CSystemZlib.inflate)
        switch status {
        case Z_STREAM_END:
            guard stream.avail_in == 0 else { throw .damaged("\(stream.avail_in) bytes after the end of the stream") }
            guard Int(stream.total_out) == expectedSize else { throw .wrongSize(expected: expectedSize, found: Int(stream.total_out)) }
            return output.prefix(expectedSize)
        case Z_BUF_ERROR where stream.avail_out == 0:
            throw .wrongSize(expected: expectedSize, found: capacity)
        case Z_BUF_ERROR:
            throw .damaged("the stream ends early")
        default:
            throw .damaged(stream.msg.map { String(cString: $0) } ?? "inflate returned \(status)")
        }
        #endif
    }
}

#if !canImport(Compression)
/// Runs one zlib stream over all of `input` into `output` in a single `Z_FINISH` call.
package func zlibFinish(
    _ stream: inout z_stream, _ input: Data, into output: inout Data,
    with step: (UnsafeMutablePointer<z_stream>, Int32) -> Int32
) -> Int32 {
    let capacity = output.count
    return output.withUnsafeMutableBytes { out -> Int32 in
        input.withUnsafeBytes { bytes -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
            stream.avail_out = uInt(capacity)
            return step(&stream, Z_FINISH)
        }
    }
}
#endif

/// Why DEFLATE data could not be made or read.
package enum DeflateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The codec could not be set up or did not finish.
    case failed(String)
    /// The stream is not valid DEFLATE, ends early, or has trailing bytes.
    case damaged(String)
    /// It inflates to another size than stated (`found` is `expected + 1` when it would give more).
    case wrongSize(expected: Int, found: Int)
    /// The stated size is beyond any snapshot.
    case tooLarge(Int)

    package var description: String {
        switch self {
        case .failed(let detail): return "deflate failed: \(detail)"
        case .damaged(let detail): return "not a valid DEFLATE stream: \(detail)"
        case .wrongSize(let expected, let found):
            return found > expected ? "inflates to more than the \(expected) bytes stated" : "inflates to \(found) bytes, not the \(expected) stated"
        case .tooLarge(let size): return "stated size \(size) is beyond any snapshot"
        }
    }
}
