import Crypto
import Foundation

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal, two digits a byte.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// SHA-256 of `data` as lowercase hex: the name of a content-addressed object.
func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).hexString
}
