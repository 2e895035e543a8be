import Foundation

/// What a cached snapshot file declares, read from its header without decoding pixels: the one
/// place that knows every container a `.ktx` launch snapshot can be (docs/ios-launch-cache.md §3).
package enum SnapshotHeader {
    /// The width and height a file declares: KTX 1.1 (plain or Apple-compressed), ATX, PNG or JPEG.
    /// Nothing is decompressed.
    package static func pixelSize(of data: Data) throws(SnapshotFormatError) -> (width: Int, height: Int) {
        switch SnapshotContent(sniffing: data) {
        case .ktx:
            let file = try KTXFile(parsing: data, includingLevel: false)
            return (Int(file.pixelWidth), Int(file.pixelHeight))
        case .atx:
            let file = try ATXFile(parsing: data, includingPayload: false)
            return (Int(file.pixelWidth), Int(file.pixelHeight))
        case .png:
            guard let header = PNGHeader(data) else { throw .unsupported("a PNG without an IHDR header") }
            return try checked(width: Int(header.width), height: Int(header.height))
        case .jpeg:
            return try jpegSize(data)
        case nil:
            throw .unsupported("content that is neither KTX, ATX, PNG nor JPEG")
        }
    }

    /// The ASTC 4×4 blocks of a KTX or ATX file (inflated when LZFSE-compressed) with its pixel size;
    /// never more bytes than that size needs.
    package static func astcBlocks(of data: Data) throws(SnapshotFormatError) -> (width: Int, height: Int, blocks: Data) {
        switch SnapshotContent(sniffing: data) {
        case .ktx:
            let file = try KTXFile(parsing: data)
            return (Int(file.pixelWidth), Int(file.pixelHeight), try file.astcBlocks())
        case .atx:
            let file = try ATXFile(parsing: data)
            return (Int(file.pixelWidth), Int(file.pixelHeight), try file.astcBlocks())
        case .png, .jpeg, nil:
            throw .unsupported("ASTC blocks from a file that is not KTX or ATX")
        }
    }

    /// A JPEG's size from its first start-of-frame segment, walking the segments with bounds checks.
    private static func jpegSize(_ data: Data) throws(SnapshotFormatError) -> (width: Int, height: Int) {
        var offset = 2
        while offset + 4 <= data.count {
            guard data[data.startIndex + offset] == 0xFF else { throw .unsupported("a JPEG whose segments do not parse") }
            let marker = data[data.startIndex + offset + 1]
            if marker == 0xFF { offset += 1; continue }
            let length = Int(bigEndian(data, at: offset + 2, bytes: 2))
            guard length >= 2 else { throw .unsupported("a JPEG whose segments do not parse") }
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard offset + 9 <= data.count else { break }
                return try checked(width: Int(bigEndian(data, at: offset + 7, bytes: 2)), height: Int(bigEndian(data, at: offset + 5, bytes: 2)))
            }
            offset += 2 + length
        }
        throw .unsupported("a JPEG without a frame header")
    }

    private static func checked(width: Int, height: Int) throws(SnapshotFormatError) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { throw .notA2DImage }
        guard width <= Int(KTXFile.maxDimension), height <= Int(KTXFile.maxDimension) else { throw .tooLarge(width: width, height: height) }
        return (width, height)
    }

    private static func bigEndian(_ data: Data, at offset: Int, bytes: Int) -> UInt32 {
        (0..<bytes).reduce(UInt32(0)) { $0 << 8 | UInt32(data[data.startIndex + offset + $1]) }
    }
}
