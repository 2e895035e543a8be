// Expectations: the reference-made fixtures (Fixtures/snapshots/make-fixtures.py: astcenc's blocks,
// Apple's LZFSE through pyliblzfse, the layouts of docs/ios-launch-cache.md §3) and issue 25's rule
// as written: a replacement is the original with only its picture changed, so framing an original's
// own picture gives the original back byte for byte, and framing another picture keeps every header
// word and key/value while carrying that picture's blocks. What cannot be written again exactly is
// refused by name.
import Foundation
import SplashFormat
import Testing

@Suite struct ReplacementFramingTests {
    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: Fixtures.url("snapshots/" + name)) }

    /// Every container the OS is known to write, framed around its own picture, is itself again.
    @Test(arguments: ["launch-lzfs.ktx", "launch-astc-rows.ktx", "launch-astc-wide.ktx", "ktx-plain.ktx", "ktx-apple.ktx", "launch-white-1179x2556.ktx"])
    func anOriginalFramedAroundItsOwnPictureIsItself(_ name: String) throws {
        let original = try Self.fixture(name)
        let framing = try ReplacementFraming(original: original)
        #expect(try framing.replacement(of: original) == original)
    }

    /// Another picture in each container: the original's header words (ATX `HEAD`, KTX fields and
    /// key/values) kept, the other picture's blocks carried, whichever container that picture came in.
    @Test(arguments: ["launch-lzfs.ktx", "launch-astc-wide.ktx", "ktx-plain.ktx", "ktx-apple.ktx"])
    func anotherPictureKeepsTheOriginalsHeader(_ name: String) throws {
        let original = try Self.fixture(name)
        let framing = try ReplacementFraming(original: original)
        // The same 61x45 size: the PosterBoard-worded ASTC file's blocks, as an ATX object and a KTX object.
        let blocks = try SnapshotHeader.astcBlocks(of: Self.fixture("launch-astc-wide.ktx")).blocks
        let flipped = Data(blocks.reversed())  // any other 4x4 blocks of the same count
        for object in [
            ATXFile(astc4x4Width: 61, height: 45, blocks: flipped).serialized(), KTXFile(astc4x4Width: 61, height: 45, blocks: flipped).serialized(),
        ] {
            let replacement = try framing.replacement(of: object)
            #expect(SnapshotContent(sniffing: replacement) == SnapshotContent(sniffing: original), "never ATX over KTX or KTX over ATX")
            #expect(try SnapshotHeader.astcBlocks(of: replacement).blocks == flipped)
            switch SnapshotContent(sniffing: original) {
            case .atx:
                let kept = try ATXFile(parsing: replacement), was = try ATXFile(parsing: original)
                #expect(kept.head == was.head && kept.payloadTag == was.payloadTag, "every HEAD word and the payload's form kept")
            default:
                var kept = try KTXFile(parsing: replacement), was = try KTXFile(parsing: original)
                #expect(kept.isAppleCompressed == was.isAppleCompressed)
                (kept.levelData, was.levelData) = (Data(), Data())
                #expect(kept == was, "every header field and key/value kept")
            }
        }
    }

    /// Unusual `HEAD` words (PosterBoard's: word 13 = 0, words 19–20 = 4, 1) are kept word for word.
    @Test func unusualHeadWordsAreKept() throws {
        let original = try Self.fixture("launch-lzfs.ktx")
        var file = try ATXFile(parsing: original)
        (file.head[13], file.head[19], file.head[20]) = (0, 4, 1)
        let posterboard = file.serialized()
        let object = ATXFile(astc4x4Width: 61, height: 45, blocks: try SnapshotHeader.astcBlocks(of: original).blocks).serialized()
        let replacement = try ReplacementFraming(original: posterboard).replacement(of: object)
        #expect(try ATXFile(parsing: replacement).head == file.head)
        #expect(replacement != object, "splashgen's own HEAD words would have been the wrong ones")
    }

    /// What splashgen cannot write again exactly is refused, naming what the original holds.
    @Test(arguments: [
        (
            "atx-raw.ktx",
            "holds ATX with chunks HEAD, FILL, astc, END  laid out otherwise than HEAD, FILL to byte 256, the payload, END, a container splashgen cannot write again exactly; left as the OS wrote it"
        ),
        (
            "atx-lzfs.ktx",
            "holds ATX with chunks HEAD, LZFS, END  laid out otherwise than HEAD, FILL to byte 256, the payload, END, a container splashgen cannot write again exactly; left as the OS wrote it"
        ),
        (
            "tiles-rows.ktx",
            "holds ATX with raw blocks whose length Morton tiles could have too (rows or tiles cannot be told apart), a container splashgen cannot write again exactly; left as the OS wrote it"
        ),
        ("scene.png", "holds PNG, a container splashgen cannot write again exactly; left as the OS wrote it"),
    ])
    func whatCannotBeWrittenAgainIsRefusedByName(_ name: String, _ message: String) throws {
        let original = try Self.fixture(name)
        #expect(throws: ReplacementFraming.Unsupported.self) { try ReplacementFraming(original: original) }
        do throws(ReplacementFraming.Unsupported) { _ = try ReplacementFraming(original: original) } catch { #expect(error.description == message) }
    }

    /// An ATX whose payload count word is not its payload's length: a word whose meaning is not
    /// known, so not one to write anew.
    @Test func anATXCountWordOfAnotherMeaningIsRefused() throws {
        var file = try ATXFile(parsing: Self.fixture("launch-lzfs.ktx"))
        file.payloadPrefix += 1
        #expect(throws: ReplacementFraming.Unsupported.self) { try ReplacementFraming(original: file.serialized()) }
    }

    /// An Apple-compressed KTX whose 8-byte lead is not the block and stream byte counts is a layout
    /// splashgen does not know how to write: refused, not guessed.
    @Test func anAppleCompressedLeadOfAnotherMeaningIsRefused() throws {
        var file = try KTXFile(parsing: Self.fixture("ktx-apple.ktx"))
        file.levelData.replaceSubrange(0..<4, with: [0, 0, 0, 0])
        #expect(throws: ReplacementFraming.Unsupported(holds: "KTX 1.1 with Compression_APPLE whose 8-byte lead is not the block and stream byte counts")) {
            try ReplacementFraming(original: file.serialized())
        }
    }
}
