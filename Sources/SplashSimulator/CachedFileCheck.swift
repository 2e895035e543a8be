import Foundation
import SplashFormat

/// The simulated OS's check of a cached launch image before it shows it, written from the
/// iOS facts (docs/ios-launch-cache.md §3, §4) with the simulator's own parsing: the extension picks the decoder;
/// a `.ktx` must hold the container the OS wrote for that slot (Khronos KTX 1.1, plain or with
/// `Compression_APPLE`, or ATX in the layout the OS itself writes: an 84-byte `HEAD` with depth 1,
/// the `LZFS` count equal to its stream), or PNG (field reports: content sniffing works); the image
/// must decode and have the screen's pixel size. Another ASTC container than the slot's is thrown
/// away, as strict as the facts allow: no source says the OS reads one it did not write.
package enum CachedFileCheck {
    /// What the OS shows for the file `name` holding `data` on a screen of `expected` pixels, when it
    /// wrote that slot as `container`, or why it throws the file away.
    package static func shown(
        _ data: Data, name: String, expected: (width: Int, height: Int), container: CacheFormat
    ) -> Result<RGBAImage, SimulatorError> {
        let bytes = [UInt8](data)
        let ext = (name as NSString).pathExtension.lowercased()
        let image: RGBAImage
        do {
            switch (ext, bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) {
            case ("png", true), ("ktx", true):
                guard let png = OSCodecs.pixels(png: data) else { throw SimulatorError.rejected("does not decode (PNG)") }
                image = png
            case ("ktx", false):
                let blocks = try astc(bytes)
                guard blocks.container == container else {
                    throw SimulatorError.rejected("holds \(blocks.container.name), not the \(container.name) the OS wrote there")
                }
                image = try OSCodecs.pixels(astc: blocks.data, width: blocks.width, height: blocks.height)
            default:
                throw SimulatorError.rejected("does not decode")
            }
        } catch let error as SimulatorError {
            return .failure(error)
        } catch {
            return .failure(.rejected("does not decode"))
        }
        guard image.width == expected.width, image.height == expected.height else {
            return .failure(.rejected("is \(image.width)x\(image.height), not \(expected.width)x\(expected.height)"))
        }
        return .success(image)
    }

    /// The ASTC 4×4 blocks, in row order, of a KTX or ATX file, after the OS's checks, and which
    /// container held them (for KTX, by the `Compression_APPLE` key).
    static func astc(_ bytes: [UInt8]) throws(SimulatorError) -> (width: Int, height: Int, data: Data, container: CacheFormat) {
        if bytes.starts(with: [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]) { return try ktx(bytes) }
        if bytes.starts(with: [0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]) { return try atx(bytes) }
        throw .rejected("does not decode (neither KTX nor ATX)")
    }

    /// Khronos KTX 1.1: identifier, thirteen UInt32 (LE), key/values, one level.
    private static func ktx(_ bytes: [UInt8]) throws(SimulatorError) -> (width: Int, height: Int, data: Data, container: CacheFormat) {
        func word(_ index: Int) throws(SimulatorError) -> UInt32 {
            guard let value = OSBytes.u32(bytes, 12 + 4 * index) else { throw .rejected("does not decode (KTX header cut short)") }
            return value
        }
        guard try word(0) == 0x0403_0201, try word(4) == 0x93B0 else { throw .rejected("does not decode (KTX is not little-endian ASTC 4x4)") }
        guard try word(8) == 0, try word(9) == 0, try word(10) == 1, try word(11) <= 1 else { throw .rejected("does not decode (KTX is not one 2D image)") }
        let width = Int(try word(6)), height = Int(try word(7))
        let keyValueEnd = 64 + Int(try word(12))
        var compressed = false
        var offset = 64
        while offset < keyValueEnd {
            guard let size = OSBytes.u32(bytes, offset).map(Int.init), size <= keyValueEnd - offset - 4 else {
                throw .rejected("does not decode (KTX key/values)")
            }
            if bytes[(offset + 4)..<(offset + 4 + size)].starts(with: Array("Compression_APPLE".utf8) + [0]) { compressed = true }
            offset += 4 + size + (4 - size % 4) % 4
        }
        guard let imageSize = OSBytes.u32(bytes, keyValueEnd).map(Int.init), imageSize <= bytes.count - keyValueEnd - 4 else {
            throw .rejected("does not decode (KTX level cut short)")
        }
        let level = Array(bytes[(keyValueEnd + 4)..<(keyValueEnd + 4 + imageSize)])
        let data = try blocks(compressed ? .lzfse(Array(level.dropFirst(8))) : .raw(level), width: width, height: height)
        return (width, height, data, compressed ? .appleCompressedKTX : .ktx)
    }

    /// ATX as the OS writes launch snapshots: `HEAD` of 21 words with depth 1, then the payload.
    private static func atx(_ bytes: [UInt8]) throws(SimulatorError) -> (width: Int, height: Int, data: Data, container: CacheFormat) {
        var offset = 8
        var head: [UInt32]?
        var payload: Payload?
        while true {
            guard let length = OSBytes.u32(bytes, offset).map(Int.init), bytes.count - offset - 8 >= length else {
                throw .rejected("does not decode (ATX chunk cut short)")
            }
            let tag = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            offset += 8 + length
            switch tag {
            case "HEAD":
                guard length == 84 else { throw .rejected("does not decode (ATX HEAD of \(length) bytes, not 84)") }
                head = (0..<21).compactMap { OSBytes.u32(data, 4 * $0) }
            case "LZFS":
                guard OSBytes.u32(data, 0) == UInt32(length - 4) else { throw .rejected("does not decode (LZFS count is not its stream's length)") }
                payload = .lzfse(Array(data.dropFirst(4)))
            case "ASTC", "astc":
                payload = .raw(Array(data.dropFirst(4)))
            case "END ":
                guard let head, let payload else { throw .rejected("does not decode (ATX without HEAD or payload)") }
                guard head[4] == 0x93B0, head[8] == 1, head[10] == 1 else {
                    throw .rejected("does not decode (ATX HEAD is not a 2D ASTC 4x4 image of depth 1)")
                }
                let width = Int(head[6]), height = Int(head[7])
                return (width, height, try blocks(payload, width: width, height: height), .atx)
            default:
                continue
            }
        }
    }

    private enum Payload {
        case lzfse([UInt8])
        case raw([UInt8])
    }

    /// Exactly the blocks a `width`×`height` image needs, inflated when compressed.
    private static func blocks(_ payload: Payload, width: Int, height: Int) throws(SimulatorError) -> Data {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { throw .rejected("does not decode (size \(width)x\(height))") }
        let expected = (width + 3) / 4 * ((height + 3) / 4) * 16
        let blocks: [UInt8]
        switch payload {
        case .raw(let raw): blocks = raw
        case .lzfse(let stream):
            guard let inflated = try? LZFSE.decompress(stream, limit: expected) else { throw .rejected("does not decode (LZFSE)") }
            blocks = inflated
        }
        guard blocks.count == expected else { throw .rejected("does not decode (\(blocks.count) bytes of blocks, not \(expected))") }
        return Data(blocks)
    }
}
