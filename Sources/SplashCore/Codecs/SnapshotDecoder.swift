import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
import SplashImaging
#endif

/// Reads the pixels of a snapshot file whatever it holds: KTX 1.1 or ATX with ASTC 4×4, plain or
/// LZFSE-compressed (through splashgen's LZFSE and astcenc's decompressor), or PNG (through
/// libpng). It is the applier's decoder on Linux.
package struct SnapshotDecoder: SnapshotPixelDecoder {
    /// The ceiling on decoded pixels.
    package var maxPixels: Int

    /// Makes a decoder.
    package init(maxPixels: Int = PNGCodec.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// The decoded image.
    package func decode(_ data: Data) throws -> RGBAImage {
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
    package func sample(_ data: Data) throws -> SnapshotSample {
        try samples(count: 1) { _ in data }[0].get()
    }

    /// The samples of several files with one astcenc context (making one costs about 4 ms and 4 MB
    /// of tables). Every file's blocks are picked first, one file at a time: each inflated level is
    /// freed before the next is made, and the last one's pages go back to the system before the
    /// context exists, so no level is resident beside it.
    package func samples(count: Int, read: (Int) throws -> Data) -> [Result<SnapshotSample, any Error>] {
        var results = [Result<SnapshotSample, any Error>?](repeating: nil, count: count)
        var picked: [(index: Int, blocks: PickedBlocks)] = []
        var level: Data?
        for index in 0..<count {
            do {
                let data = try read(index)
                guard let content = SnapshotContent(sniffing: data), content == .ktx || content == .atx else {
                    results[index] = .success(SnapshotSample(image: try decode(data)))
                    continue
                }
                let header = try SnapshotHeader.pixelSize(of: data)
                guard header.width * header.height <= maxPixels else {
                    throw ImageError.tooLarge(width: header.width, height: header.height, limit: maxPixels)
                }
                picked.append((index, try PickedBlocks(data, level: &level)))
            } catch {
                results[index] = .failure(error)
            }
        }
        if level != nil { releasePages(of: &level) }
        level = nil
        if !picked.isEmpty {
            do {
                let codec = try ASTCCodec(decodeOnly: ())
                for (index, blocks) in picked { results[index] = Result { try blocks.sample(with: codec) } }
            } catch {
                for (index, _) in picked { results[index] = .failure(error) }
            }
        }
        return results.map { $0 ?? .failure(SnapshotDecodeError.unrecognised) }
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

    /// The blocks of `data`. A compressed level is inflated into `level`, after the one `level`
    /// held before is freed, and is kept there (the caller gives its pages back once, at the end).
    init(_ data: Data, level: inout Data?) throws {
        let width: Int, height: Int
        let picked: (cornerAcross: Int, cornerDown: Int, gridAcross: Int, gridDown: Int, corner: Data, grid: Data)
        if let plain = try KTXFile.plainLevel(of: data) {
            // A plain KTX file holds its blocks as they are: they are read where they lie, no copy of the level.
            (width, height) = (plain.width, plain.height)
            picked = data.withUnsafeBytes { raw in
                Self.pick(
                    UnsafeRawBufferPointer(rebasing: raw[plain.offset..<plain.offset + plain.bytes]),
                    across: (width + 3) / 4, down: (height + 3) / 4)
            }
        } else {
            level = nil
            let inflated = try SnapshotHeader.astcBlocks(of: data)
            (width, height) = (inflated.width, inflated.height)
            picked = inflated.blocks.withUnsafeBytes { raw in Self.pick(raw, across: (width + 3) / 4, down: (height + 3) / 4) }
            level = inflated.blocks
        }
        self.width = width
        self.height = height
        across = (width + 3) / 4
        down = (height + 3) / 4
        (cornerAcross, cornerDown, gridAcross, gridDown, corner, grid) = picked
    }

    /// The sample these blocks give, decoded by `codec`.
    func sample(with codec: ASTCCodec) throws -> SnapshotSample {
        let decodedCorner = try codec.decompress(corner, width: cornerAcross * 4, height: cornerDown * 4)
        // The last block row and column may reach past the image: keep the real pixels only.
        let cornerWidth = width - (across - cornerAcross) * 4, cornerHeight = height - (down - cornerDown) * 4
        var pixels: [UInt8] = []
        pixels.reserveCapacity(cornerWidth * cornerHeight * 4)
        for y in 0..<cornerHeight {
            let start = y * decodedCorner.width * 4
            pixels.append(contentsOf: decodedCorner.pixels[start..<start + cornerWidth * 4])
        }
        let decodedGrid = try codec.decompress(grid, width: gridAcross * 4, height: gridDown * 4)
        var sum = 0.0
        for i in stride(from: 0, to: decodedGrid.pixels.count, by: 4) {
            sum += SnapshotSample.luma(decodedGrid.pixels[i], decodedGrid.pixels[i + 1], decodedGrid.pixels[i + 2])
        }
        return SnapshotSample(
            width: width, height: height, corner: RGBAImage(width: cornerWidth, height: cornerHeight, pixels: pixels),
            luma: sum / Double(max(1, decodedGrid.pixels.count / 4)))
    }

    /// The corner's and the grid's blocks out of a level of `across`×`down` blocks.
    private static func pick(
        _ raw: UnsafeRawBufferPointer, across: Int, down: Int
    )
        -> (cornerAcross: Int, cornerDown: Int, gridAcross: Int, gridDown: Int, corner: Data, grid: Data)
    {
        func gather(_ columns: [Int], _ rows: [Int]) -> Data {
            var out = Data(capacity: columns.count * rows.count * 16)
            for row in rows {
                for column in columns {
                    let start = (row * across + column) * 16
                    out.append(contentsOf: raw[start..<start + 16])
                }
            }
            return out
        }
        let cornerColumns = Array(max(0, across - 2)..<across), cornerRows = Array(max(0, down - 2)..<down)
        let gridAcross = min(across, 32), gridDown = min(down, 32)
        return (
            cornerColumns.count, cornerRows.count, gridAcross, gridDown, gather(cornerColumns, cornerRows),
            gather((0..<gridAcross).map { $0 * across / gridAcross }, (0..<gridDown).map { $0 * down / gridDown })
        )
    }
}

fileprivate extension KTXFile {
    /// Where a plain (not Apple-compressed) KTX file's ASTC 4×4 level lies in `data`, after every
    /// check of ``KTXFile/init(parsing:includingLevel:)`` (which also makes its size exactly what
    /// the pixel size needs); nil for any other content or a compressed level.
    static func plainLevel(of data: Data) throws -> (width: Int, height: Int, offset: Int, bytes: Int)? {
        guard SnapshotContent(sniffing: data) == .ktx else { return nil }
        let file = try KTXFile(parsing: data, includingLevel: false)
        guard !file.isAppleCompressed else { return nil }
        let width = Int(file.pixelWidth), height = Int(file.pixelHeight)
        let bytes = KTXFile.astc4x4ByteCount(width: width, height: height)
        // bytesOfKeyValueData is the header's last field; the level's imageSize follows the key/values.
        let keyValueBytes = (60..<64).reduce(0) { $0 | Int(data[data.startIndex + $1]) << (8 * ($1 - 60)) }
        let offset = KTXFile.headerSize + keyValueBytes + 4
        guard offset <= data.count, bytes <= data.count - offset else { throw SnapshotFormatError.truncated(needed: offset + bytes, found: data.count) }
        return (width, height, offset, bytes)
    }
}

/// Gives the whole pages of a large buffer that is about to be freed back to the system (Linux).
/// glibc keeps freed heap memory resident, and raises its mmap and trim thresholds after a large
/// block is freed, so without this a 3 MB inflated level would stay resident for the rest of the
/// process, beside every astcenc context made afterwards (4 MB of tables each). The buffer's bytes
/// read as zero afterwards: call it only on a buffer whose contents are no longer needed.
private func releasePages(of data: inout Data?) {
    #if os(Linux)
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    guard page > 0, let count = data?.count, count >= 16 * page else { return }
    data?.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + raw.count) / page * page
        if end > start, let first = UnsafeMutableRawPointer(bitPattern: start) {
            _ = madvise(first, end - start, Int32(MADV_DONTNEED))
        }
    }
    #endif
}

/// Why a snapshot file could not be decoded.
package enum SnapshotDecodeError: Error, Equatable, CustomStringConvertible {
    /// A known format splashgen does not decode.
    case unsupported(String)
    /// Not KTX, ATX, PNG or JPEG.
    case unrecognised

    package var description: String {
        switch self {
        case .unsupported(let what): return "cannot decode \(what)"
        case .unrecognised: return "not a snapshot file: neither KTX, ATX, PNG nor JPEG"
        }
    }
}
