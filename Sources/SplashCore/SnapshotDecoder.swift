import Foundation
import SplashFormat

/// Reads the pixels of a snapshot file whatever it holds: KTX 1.1 or ATX with ASTC 4×4, plain or
/// LZFSE-compressed (through splashgen's LZFSE and astcenc's decompressor), or PNG (through
/// libpng). It is the applier's decoder on Linux.
public struct SnapshotDecoder: SnapshotPixelDecoder {
    /// The ceiling on decoded pixels.
    public var maxPixels: Int

    /// Makes a decoder.
    public init(maxPixels: Int = PNGCodec.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// The decoded image.
    public func decode(_ data: Data) throws -> RGBAImage {
        switch SnapshotContent(sniffing: data) {
        case .png:
            return try PNGCodec.decode(data, maxPixels: maxPixels)
        case .ktx, .atx:
            let header = try SnapshotHeader.pixelSize(of: data)
            guard header.width * header.height <= maxPixels else { throw ImageError.tooLarge(width: header.width, height: header.height, limit: maxPixels) }
            let (width, height, blocks) = try SnapshotHeader.astcBlocks(of: data)
            return try ASTCCodec(decodeOnly: ()).decompress(blocks, width: width, height: height)
        case .jpeg:
            throw SnapshotDecodeError.unsupported("JPEG")
        case nil:
            throw SnapshotDecodeError.unrecognised
        }
    }
}

extension SnapshotDecoder {
    /// What the classifier reads. For KTX and ATX only the blocks it needs go through astcenc: the
    /// last two block rows and columns (the corner where the marker view lands) and a grid of at
    /// most 32×32 blocks for the light. ASTC blocks decode independently, so the chosen blocks are
    /// laid side by side as a small image of their own. PNG is decoded whole.
    public func sample(_ data: Data) throws -> SnapshotSample {
        guard let content = SnapshotContent(sniffing: data), content == .ktx || content == .atx else {
            return SnapshotSample(image: try decode(data))
        }
        let header = try SnapshotHeader.pixelSize(of: data)
        guard header.width * header.height <= maxPixels else { throw ImageError.tooLarge(width: header.width, height: header.height, limit: maxPixels) }
        // Only the blocks read are kept; the inflated level is gone before astcenc's context exists.
        let picked = try PickedBlocks(data)
        let (width, height) = (picked.width, picked.height)
        let codec = try ASTCCodec(decodeOnly: ())
        let decodedCorner = try codec.decompress(picked.corner, width: picked.cornerAcross * 4, height: picked.cornerDown * 4)
        // The last block row and column may reach past the image: keep the real pixels only.
        let cornerWidth = width - (picked.across - picked.cornerAcross) * 4, cornerHeight = height - (picked.down - picked.cornerDown) * 4
        var corner = [UInt8]()
        corner.reserveCapacity(cornerWidth * cornerHeight * 4)
        for y in 0..<cornerHeight {
            let start = y * decodedCorner.width * 4
            corner.append(contentsOf: decodedCorner.pixels[start..<start + cornerWidth * 4])
        }
        let grid = try codec.decompress(picked.grid, width: picked.gridAcross * 4, height: picked.gridDown * 4)
        var sum = 0.0
        for i in stride(from: 0, to: grid.pixels.count, by: 4) {
            sum += SnapshotSample.luma(grid.pixels[i], grid.pixels[i + 1], grid.pixels[i + 2])
        }
        return SnapshotSample(width: width, height: height, corner: RGBAImage(width: cornerWidth, height: cornerHeight, pixels: corner),
                              luma: sum / Double(max(1, grid.pixels.count / 4)))
    }
}

/// The ASTC blocks a sample reads, copied out of a file's level: the last two block rows and
/// columns, and a grid of at most 32×32 blocks, each laid out as a small image of its own.
private struct PickedBlocks {
    let width: Int, height: Int
    let across: Int, down: Int
    let cornerAcross: Int, cornerDown: Int
    let gridAcross: Int, gridDown: Int
    let corner: Data, grid: Data

    init(_ data: Data) throws {
        let (width, height, blocks) = try SnapshotHeader.astcBlocks(of: data)
        let across = (width + 3) / 4, down = (height + 3) / 4
        func gather(_ columns: [Int], _ rows: [Int]) -> Data {
            var out = Data(capacity: columns.count * rows.count * 16)
            blocks.withUnsafeBytes { raw in
                for row in rows {
                    for column in columns {
                        let start = (row * across + column) * 16
                        out.append(contentsOf: raw[start..<start + 16])
                    }
                }
            }
            return out
        }
        let cornerColumns = Array(max(0, across - 2)..<across), cornerRows = Array(max(0, down - 2)..<down)
        let gridAcross = min(across, 32), gridDown = min(down, 32)
        self.width = width
        self.height = height
        self.across = across
        self.down = down
        cornerAcross = cornerColumns.count
        cornerDown = cornerRows.count
        self.gridAcross = gridAcross
        self.gridDown = gridDown
        corner = gather(cornerColumns, cornerRows)
        grid = gather((0..<gridAcross).map { $0 * across / gridAcross }, (0..<gridDown).map { $0 * down / gridDown })
    }
}

/// Why a snapshot file could not be decoded.
public enum SnapshotDecodeError: Error, Equatable, CustomStringConvertible {
    /// A known format splashgen does not decode.
    case unsupported(String)
    /// Not KTX, ATX, PNG or JPEG.
    case unrecognised

    public var description: String {
        switch self {
        case .unsupported(let what): return "cannot decode \(what)"
        case .unrecognised: return "not a snapshot file: neither KTX, ATX, PNG nor JPEG"
        }
    }
}
