// Apple platforms: delegate to the Compression framework (same format, tuned
// native code). The pure-Swift codec remains compiled and tested everywhere.

#if canImport(Compression)
import Compression

enum SystemLZFSE {
    /// Decodes with the framework into a buffer one byte larger than the size the
    /// stream's headers declare (already validated against the caller's limit).
    /// Returns nil unless the framework produced exactly `expectedSize` bytes.
    static func decode(_ input: [UInt8], expectedSize: Int) -> [UInt8]? {
        guard expectedSize > 0, !input.isEmpty else { return nil }
        let (capacity, overflow) = expectedSize.addingReportingOverflow(1)
        guard !overflow else { return nil }
        var output = [UInt8](repeating: 0, count: capacity)
        let written = input.withUnsafeBufferPointer { src -> Int in
            output.withUnsafeMutableBufferPointer { dst -> Int in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return 0 }
                return compression_decode_buffer(d, dst.count, s, src.count, nil, COMPRESSION_LZFSE)
            }
        }
        guard written == expectedSize else { return nil }
        output.removeLast()
        return output
    }

    /// Encodes with the framework; nil if it fails (the caller then uses the Swift encoder).
    static func encode(_ input: [UInt8]) -> [UInt8]? {
        guard !input.isEmpty else { return nil }
        let (capacity, overflow) = input.count.addingReportingOverflow(input.count / 16 + 1024)
        guard !overflow else { return nil }
        var output = [UInt8](repeating: 0, count: capacity)
        let written = input.withUnsafeBufferPointer { src -> Int in
            output.withUnsafeMutableBufferPointer { dst -> Int in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return 0 }
                return compression_encode_buffer(d, dst.count, s, src.count, nil, COMPRESSION_LZFSE)
            }
        }
        guard written > 0 else { return nil }
        output.removeSubrange(written...)
        return output
    }
}
#endif
