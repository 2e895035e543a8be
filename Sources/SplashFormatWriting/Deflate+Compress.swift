import Foundation
import SplashFormat

#if canImport(Compression)
import Compression
#else
import CSystemZlib
#endif

// Compressing for publication is the generator's alone: an app only inflates (SplashFormat's
// `Deflate.inflate`).
extension Deflate {
    /// `data` compressed (zlib's best level; Compression's single level on Apple platforms).
    package static func compress(_ data: Data) throws(DeflateError) -> Data {
        #if canImport(Compression)
        guard !data.isEmpty else { throw .failed("nothing to compress") }
        let capacity = data.count + data.count / 16 + 1024
        var output = Data(count: capacity)
        let written = output.withUnsafeMutableBytes { out -> Int in
            data.withUnsafeBytes { input -> Int in
                guard let target = out.bindMemory(to: UInt8.self).baseAddress, let source = input.bindMemory(to: UInt8.self).baseAddress else { return 0 }
                return compression_encode_buffer(target, capacity, source, data.count, nil, COMPRESSION_ZLIB)
            }
        }
        guard written > 0 else { throw .failed("compression_encode_buffer failed") }
        return output.prefix(written)
        #else
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .failed("deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))))
        let status = zlibFinish(&stream, data, into: &output, with: deflate)
        guard status == Z_STREAM_END else { throw .failed("deflate returned \(status)") }
        return output.prefix(Int(stream.total_out))
        #endif
    }
}
