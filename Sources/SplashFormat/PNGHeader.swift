import Foundation

/// A PNG's IHDR chunk, read from the fixed offsets where every PNG keeps it (the signature, then
/// IHDR first: length 13, type, width and height big-endian, bit depth, colour type, compression,
/// filter, interlace). Nothing past the first 29 bytes is read.
package struct PNGHeader: Equatable, Sendable {
    package var width: UInt32
    package var height: UInt32
    package var bitDepth: UInt8
    /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    package var colourType: UInt8
    /// 1: Adam7.
    package var interlace: UInt8

    /// The header of `data`, or nil when its first chunk is not a whole IHDR.
    package init?(_ data: Data) {
        guard data.count >= 29, data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        let bytes = [UInt8](data.prefix(29))
        guard Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        width = word(16)
        height = word(20)
        bitDepth = bytes[24]
        colourType = bytes[25]
        interlace = bytes[28]
    }
}
