import Foundation

/// The container the OS wrote an original launch snapshot in, read from the original's own bytes,
/// and the same container around a campaign's picture: a replacement is the original with only its
/// picture changed (docs/ios-launch-cache.md §3, §4). The applier decides this per file, never from
/// the iOS version: the field holds both containers on current releases (§9).
///
/// A container is reproduced only when splashgen can write the original again byte for byte from
/// what it read of it (its parse, serialized, is the original). Then the replacement keeps every
/// header word, chunk and key/value of the original, and only the picture's data changes:
/// - ATX (`HEAD`, `FILL` to byte 256, the payload, `END `): every `HEAD` word is kept, the unnamed
///   ones included (field files differ in words 13 and 19–20); an `LZFS` payload carries the
///   campaign's LZFSE stream, a raw `ASTC` (or `astc`) payload its blocks in row order, when the
///   original's length says row order and nothing else (a length Morton tiles could have too is a
///   layout splashgen cannot tell).
/// - KTX 1.1, plain: every header field and key/value is kept; the level holds the raw blocks.
/// - KTX 1.1 with `Compression_APPLE`: likewise, the level holding the 8-byte lead and the LZFSE
///   stream; reproduced only when the original's lead reads as the block and stream byte counts,
///   the one layout known.
///
/// Anything else (a tiled ATX payload, other chunks, a KTX whose lead is something else, a PNG or
/// JPEG the OS did not write) is ``Unsupported``: the file is left as the OS wrote it.
package enum ReplacementFraming: Equatable, Sendable {
    /// ATX laid out as launch snapshots are, with these `HEAD` words and this payload chunk's tag
    /// (`LZFS`, or `ASTC`/`astc` for raw blocks in row order).
    case atx(head: [UInt32], payload: String)
    /// KTX 1.1: the original's header fields and key/values (its level emptied).
    case ktx(KTXFile)

    /// Why an original's container cannot be reproduced, naming what it holds.
    package struct Unsupported: Error, Equatable, CustomStringConvertible {
        /// What the original holds, in a reader's words ("ATX with an ASTC payload", …).
        package let holds: String

        package init(holds: String) { self.holds = holds }

        package var description: String { "holds \(holds), a container splashgen cannot write again exactly; left as the OS wrote it" }
    }

    /// The framing of `original`, or why it cannot be reproduced.
    package init(original: Data) throws(Unsupported) {
        switch SnapshotContent(sniffing: original) {
        case .atx:
            let file: ATXFile
            do { file = try ATXFile(parsing: original) } catch { throw Unsupported(holds: "ATX that does not parse (\(error))") }
            let tags = file.chunks.map(\.tag)
            guard tags == ["HEAD", "FILL", file.payloadTag, "END "], file.serialized() == original else {
                throw Unsupported(
                    holds: "ATX with chunks \(tags.joined(separator: ", ")) laid out otherwise than HEAD, FILL to byte 256, the payload, END")
            }
            // The word before the payload is its byte count in every launch snapshot known; one that
            // says something else would have to be kept or made, and its meaning is not known.
            let payloadBytes: Int
            switch file.payload {
            case .lzfse(let stream): payloadBytes = stream.count
            case .raw(let blocks): payloadBytes = blocks.count
            }
            guard Int(file.payloadPrefix) == payloadBytes else {
                throw Unsupported(holds: "ATX whose \(file.payloadTag) count word (\(file.payloadPrefix)) is not its payload's byte count (\(payloadBytes))")
            }
            if case .raw(let blocks) = file.payload {
                let layouts = try? RawLayout.candidates(width: Int(file.pixelWidth), height: Int(file.pixelHeight), payloadBytes: blocks.count)
                guard layouts == [.rows] else {
                    throw Unsupported(holds: "ATX with raw blocks whose length Morton tiles could have too (rows or tiles cannot be told apart)")
                }
            }
            self = .atx(head: file.head, payload: file.payloadTag)
        case .ktx:
            var file: KTXFile
            do { file = try KTXFile(parsing: original) } catch { throw Unsupported(holds: "KTX 1.1 that does not parse (\(error))") }
            guard file.serialized() == original else { throw Unsupported(holds: "KTX 1.1 with bytes its header does not account for") }
            if file.isAppleCompressed {
                let blocks = KTXFile.astc4x4ByteCount(width: Int(file.pixelWidth), height: Int(file.pixelHeight))
                let stream = file.levelData.dropFirst(KTXFile.appleCompressedLead)
                guard file.levelData == KTXFile.appleCompressedLevel(blockBytes: blocks, stream: Data(stream)) else {
                    throw Unsupported(holds: "KTX 1.1 with Compression_APPLE whose 8-byte lead is not the block and stream byte counts")
                }
            }
            file.levelData = Data()
            self = .ktx(file)
        case .png: throw Unsupported(holds: "PNG")
        case .jpeg: throw Unsupported(holds: "JPEG")
        case nil: throw Unsupported(holds: "neither KTX, ATX, PNG nor JPEG")
        }
    }

    /// The replacement: this framing around the picture of `object`, a bundle object (ATX or KTX
    /// around ASTC 4×4 blocks) already checked whole. A PNG object is written as it is: it is what
    /// run-time libraries leave, which the OS reads by its content (§9), not a container of the OS's.
    package func replacement(of object: Data) throws(SnapshotFormatError) -> Data {
        guard SnapshotContent(sniffing: object) != .png else { return object }
        let picture = try Picture(object)
        switch self {
        case .atx(let head, let tag) where tag == "LZFS":
            return ATXFile(head: head, lzfseStream: try picture.stream()).serialized()
        case .atx(let head, let tag):
            return ATXFile(head: head, rowOrderBlocks: try picture.blocks(), tag: tag).serialized()
        case .ktx(var file):
            if file.isAppleCompressed {
                let blocks = KTXFile.astc4x4ByteCount(width: Int(file.pixelWidth), height: Int(file.pixelHeight))
                file.levelData = KTXFile.appleCompressedLevel(blockBytes: blocks, stream: try picture.stream())
            } else {
                file.levelData = try picture.blocks()
            }
            return file.serialized()
        }
    }

    /// Whether `file` carries the picture of `object` (a bundle object), in whatever container:
    /// what ``replacement(of:)`` makes of it. A replacement carries the object's own LZFSE stream
    /// when the object has one, so two streams are compared as bytes, nothing inflated; otherwise
    /// the ASTC 4×4 blocks are.
    package static func file(_ file: Data, carriesPictureOf object: Data) -> Bool {
        guard let mine = try? Picture(file) else { return false }
        var blocks: Data?? = nil
        return carries(mine, blocks: &blocks, pictureOf: object)
    }

    /// Whether `mine` carries the picture of `object`; `blocks` keeps `mine`'s blocks once they are
    /// inflated (nil until then), so a file compared with several objects is inflated once.
    private static func carries(_ mine: Picture, blocks: inout Data??, pictureOf object: Data) -> Bool {
        guard let theirs = try? Picture(object) else { return false }
        if let a = mine.carriedStream, let b = theirs.carriedStream { return a == b }
        if blocks == nil { blocks = .some(try? mine.blocks()) }
        guard let a = blocks ?? nil, let b = try? theirs.blocks() else { return false }
        return a == b
    }

    /// The first campaign of `manifest`, in its order, with a snapshot that `include` admits whose
    /// picture `data` carries (``file(_:carriesPictureOf:)``). Only snapshots of the file's screen
    /// (its header's size, or one pixel less) are looked at; `object` gives a snapshot's object bytes.
    package static func campaign(
        whosePicture data: Data, in manifest: Manifest, object: (Manifest.Snapshot) -> Data?,
        where include: (Manifest.Campaign, Manifest.Snapshot) -> Bool = { _, _ in true }
    ) -> String? {
        guard let size = try? SnapshotHeader.pixelSize(of: data), let mine = try? Picture(data) else { return nil }
        let recorded = Manifest.Size(width: size.width, height: size.height)
        var blocks: Data?? = nil
        for campaign in manifest.campaigns {
            for snapshot in campaign.snapshots where snapshot.pixels.isScreen(ofRecorded: recorded) && include(campaign, snapshot) {
                if let bytes = object(snapshot), carries(mine, blocks: &blocks, pictureOf: bytes) { return campaign.id }
            }
        }
        return nil
    }

    /// An object's ASTC 4×4 picture, as the LZFSE stream it carries or its raw blocks, each made
    /// from the other only when a framing needs it.
    private struct Picture {
        let object: Data
        let carriedStream: Data?

        init(_ object: Data) throws(SnapshotFormatError) {
            self.object = object
            switch SnapshotContent(sniffing: object) {
            case .atx:
                let file = try ATXFile(parsing: object)
                if case .lzfse(let stream) = file.payload { carriedStream = stream } else { carriedStream = nil }
            case .ktx:
                let file = try KTXFile(parsing: object)
                carriedStream = file.isAppleCompressed ? file.levelData.dropFirst(KTXFile.appleCompressedLead) : nil
            default:
                throw .unsupported("a replacement picture from an object that is not KTX or ATX")
            }
        }

        func blocks() throws(SnapshotFormatError) -> Data { try SnapshotHeader.astcBlocks(of: object).blocks }

        func stream() throws(SnapshotFormatError) -> Data {
            if let carriedStream { return Data(carriedStream) }
            return Data(LZFSE.compress([UInt8](try blocks())))
        }
    }
}
