import Foundation
import SplashFormat
import SplashImaging

/// Describes a snapshot file's container without decoding pixels: for `splashgen inspect`.
package enum FileInspector {
    /// Labelled facts about `data`, in a stable order.
    package static func describe(_ data: Data) throws -> [(label: String, value: String)] {
        switch SnapshotContent(sniffing: data) {
        case .ktx:
            let file = try KTXFile(parsing: data)
            let format = file.glInternalFormat == KTXFile.astc4x4RGBA ? "ASTC 4x4 RGBA (0x93B0)" : String(format: "0x%04X", file.glInternalFormat)
            var lines: [(String, String)] = [
                ("format", "KTX 1.1, little-endian"),
                ("size", "\(file.pixelWidth)x\(file.pixelHeight)"),
                ("glInternalFormat", format),
                ("glBaseInternalFormat", String(format: "0x%04X", file.glBaseInternalFormat)),
                ("glType / glFormat / glTypeSize", "\(file.glType) / \(file.glFormat) / \(file.glTypeSize)"),
                (
                    "levels",
                    "\(max(1, file.numberOfMipmapLevels)) (faces \(file.numberOfFaces), array elements \(file.numberOfArrayElements), depth \(file.pixelDepth))"
                ),
                ("level 0 bytes", "\(file.levelData.count)" + (file.isAppleCompressed ? " (8-byte lead + LZFSE stream)" : "")),
            ]
            if file.isAppleCompressed { lines.append(payloadLine(try file.astcBlocks(), stream: file.levelData.dropFirst(8), prefix: nil)) }
            if file.keyValues.isEmpty { lines.append(("key/values", "none")) }
            for pair in file.keyValues {
                let text = String(data: pair.value.prefix { $0 != 0 }, encoding: .utf8) ?? "\(pair.value.count) bytes"
                lines.append(("key " + pair.key, text))
            }
            return lines
        case .png:
            let size = try PNGCodec.size(of: data)
            guard let header = PNGHeader(data) else { throw ImageError.notPNG(data) }
            let colorTypes = [0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"]
            return [
                ("format", "PNG"),
                ("size", "\(size.width)x\(size.height)"),
                ("bit depth", "\(header.bitDepth)"),
                ("colour type", colorTypes[Int(header.colourType)] ?? "unknown (\(header.colourType))"),
                ("interlace", header.interlace == 1 ? "Adam7" : "none"),
                ("bytes", "\(data.count)"),
            ]
        case .atx:
            let file = try ATXFile(parsing: data)
            var lines: [(String, String)] = [
                ("format", "Apple ATX container (AAPL), as recent iOS releases write launch snapshots"),
                ("size", "\(file.pixelWidth)x\(file.pixelHeight)"),
                ("glInternalFormat", file.glInternalFormat == KTXFile.astc4x4RGBA ? "ASTC 4x4 RGBA (0x93B0)" : String(format: "0x%04X", file.glInternalFormat)),
                ("glBaseInternalFormat", String(format: "0x%04X", file.glBaseInternalFormat)),
                ("depth / faces", "\(file.pixelDepth) / \(file.head[10])"),
                ("chunks", file.chunks.map { "\($0.tag.trimmingCharacters(in: .whitespaces)) \($0.length) at \($0.offset)" }.joined(separator: ", ")),
            ]
            for (index, word) in file.head.enumerated() {
                lines.append(("HEAD word \(index)", String(format: "0x%08X", word) + (Self.atxWordNames[index].map { " \($0)" } ?? "")))
            }
            switch file.payload {
            case .lzfse(let stream):
                lines.append(payloadLine(try file.astcBlocks(), stream: stream, prefix: file.payloadPrefix))
            case .raw(let raw):
                // Where rows and tiles fit alike and the blocks do not say which, the reader says so.
                var order = "an order that cannot be told (row order or Morton tiles fit its length alike; decode refuses to guess)"
                if let layout = try? file.rowOrderBlocks().layout {
                    order = layout == .rows ? "row order" : "Morton tiles of 32x32 blocks, \(layout.rawValue)"
                }
                lines.append(("payload", "\(file.payloadTag) chunk, UInt32 \(file.payloadPrefix), \(raw.count) bytes of raw blocks in \(order)"))
            }
            lines.append(("bytes", "\(data.count)"))
            return lines
        case .jpeg:
            return [("format", "JPEG"), ("bytes", "\(data.count)")]
        case nil:
            throw SnapshotDecodeError.unrecognised
        }
    }

    /// The LZFSE payload line: block kinds of the stream and the ratio (the stream is inflated to
    /// check it), with the UInt32 an ATX payload chunk stores before it.
    private static func payloadLine(_ blocks: Data, stream: Data, prefix: UInt32?) -> (label: String, value: String) {
        let kinds = LZFSE.blockKinds([UInt8](stream)).joined(separator: " ")
        let stored = prefix.map { "UInt32 \($0)\($0 == stream.count ? " (the stream's byte count)" : ""), " } ?? ""
        return ("payload", "LZFSE, \(stored)\(stream.count) bytes → \(blocks.count) bytes of ASTC blocks (\(kinds))")
    }

    /// What docs/ios-launch-cache.md §3 calls each `HEAD` word of a launch snapshot; the others are unnamed.
    private static let atxWordNames: [Int: String] = [
        4: "(glInternalFormat)", 5: "(glBaseInternalFormat)", 6: "(width)", 7: "(height)", 8: "(depth)", 10: "(faces)",
    ]
}
