import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// SHA-256 of `data` as 64 lowercase hex digits: the name of a content-addressed object.
package func sha256Hex(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for byte in SHA256.hash(data: data) {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Whether `text` has the shape of an object name (64 lowercase hex digits, so never a path).
package func isObjectName(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
}
