import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashTestSupport
import Testing

/// Raw ATX payloads whose length fits row order and Morton tiles alike (sides that are multiples of
/// 128 pixels: the 1536×2048 iPads): the third hostile round (issue 27, N13) found one row-order
/// file in four read as tiles and decoded scrambled, with exit 0. The expectation is the case's:
/// a row-order file is never read as tiles; where the blocks do not clearly decide, the reader
/// refuses to guess.
@Suite struct RawLayoutTests {
    /// The same blocks in each layout, as a raw ATX file of `width`×`height`.
    static func raw(_ rows: Data, width: Int, height: Int, _ layout: RawLayout) -> Data {
        let across = (width + 3) / 4, down = (height + 3) / 4, side = RawLayout.tileBlocks
        guard layout != .rows else { return ATXFile(head: ATXFile.launchHead(width: width, height: height), rowOrderBlocks: rows, tag: "ASTC").serialized() }
        var tiled = Data()
        for tileY in 0..<(down / side) {
            for tileX in 0..<(across / side) {
                for index in 0..<(side * side) {
                    var x = 0, y = 0
                    for bit in 0..<5 {
                        x |= (index >> (2 * bit) & 1) << bit
                        y |= (index >> (2 * bit + 1) & 1) << bit
                    }
                    if layout == .mortonYFirst { swap(&x, &y) }
                    let at = ((tileY * side + y) * across + tileX * side + x) * 16
                    tiled += rows[at..<at + 16]
                }
            }
        }
        return ATXFile(head: ATXFile.launchHead(width: width, height: height), rowOrderBlocks: tiled, tag: "ASTC").serialized()
    }

    /// The case as the hostile run met it: the shipped campaigns' snapshots of a 1536×2048 iPad (portrait
    /// and landscape, light and dark), as raw row-order payloads: each reads as row order, back to its
    /// blocks, or is refused; none is read as tiles.
    @Test(arguments: ["double11.yaml", "default.yaml"])
    func aShippedCampaignsIPadSnapshotsInRowOrderAreNeverReadAsTiles(_ file: String) throws {
        let catalogue = try DeviceCatalogue.bundled()
        var campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: Fixtures.campaigns.appendingPathComponent(file))
        campaign.screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named("iPad (6th generation)")]), displayZoom: false))
        let bundle = try BundleBuilder(outputRoot: temporaryFolder()).build(campaign).bundle
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        var decided = 0
        for snapshot in manifest.campaigns.flatMap(\.snapshots) {
            let object = try Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object))
            let blocks = try SnapshotHeader.astcBlocks(of: object)
            #expect([blocks.width, blocks.height].sorted() == [1536, 2048])
            let file = try ATXFile(parsing: Self.raw(blocks.blocks, width: blocks.width, height: blocks.height, .rows))
            do {
                let read = try file.rowOrderBlocks()
                #expect(read.layout == .rows, "\(file): \(snapshot.orientation) \(snapshot.appearance) read as \(read.layout?.rawValue ?? "")")
                let same = read.blocks == blocks.blocks  // a Bool: a failure never prints 3 MB
                #expect(same)
                decided += 1
            } catch {
                #expect(error == .undecidedRawLayout)
            }
        }
        print("raw layout, \(file) on a 1536x2048 iPad: \(decided) of 4 row-order payloads decided, the rest refused")
    }

    /// A vertical gradient with a disc (rows that are each nearly one value: the picture the fewest
    /// differing neighbours reads as tiles), made by astcenc: in row order it reads as row order; the
    /// same blocks in either Morton interleaving read as that interleaving.
    @Test func aGradientReadsInTheLayoutItWasStoredIn() throws {
        let (width, height) = (1536, 2048)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let t = Double(y) / Double(height - 1)
            for x in 0..<width {
                let inDisc = (x - 768) * (x - 768) + (y - 1024) * (y - 1024) < 200 * 200
                let colour: [Double] = inDisc ? [214, 58, 140] : [250 - 210 * t, 240 - 180 * t, 230 - 110 * t]
                for c in 0..<3 { pixels[(y * width + x) * 4 + c] = UInt8(colour[c].rounded()) }
            }
        }
        let picture = RGBAImage(width: width, height: height, pixels: pixels)
        let blocks = try ASTCCodec(quality: .fast).compress(picture)
        for layout in RawLayout.allCases {
            let data = Self.raw(blocks, width: width, height: height, layout)
            let read = try ATXFile(parsing: data).rowOrderBlocks()
            #expect(read.layout == layout)
            let same = read.blocks == blocks  // a Bool: a failure never prints 3 MB
            #expect(same, "\(layout)")
        }
        #expect(psnr(try SnapshotDecoder().decode(Self.raw(blocks, width: width, height: height, .rows)), picture) > 35)
    }

    /// Blocks that are all different say nothing about their order: refused, by `decode` too (a
    /// non-zero exit), and `inspect` says the order cannot be told.
    @Test func blocksThatSayNothingAreRefusedNotGuessed() throws {
        let (width, height) = (1536, 2048)
        var blocks = Data()
        for index in 0..<(width / 4 * height / 4) {
            let word = withUnsafeBytes(of: UInt32(index).littleEndian) { Array($0) }
            blocks += word + word + word + word
        }
        let data = Self.raw(blocks, width: width, height: height, .rows)
        #expect(throws: SnapshotFormatError.undecidedRawLayout) { try ATXFile(parsing: data).astcBlocks() }
        #expect(throws: SnapshotFormatError.undecidedRawLayout) { try SnapshotDecoder().decode(data) }
        let payload = try FileInspector.describe(data).first { $0.label == "payload" }?.value
        #expect(payload?.contains("an order that cannot be told") == true, "\(payload ?? "")")
    }
}
