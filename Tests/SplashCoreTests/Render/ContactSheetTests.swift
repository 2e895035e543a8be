import Foundation
import SplashFormat
import Testing
@testable import SplashCore

@Suite struct ContactSheetTests {
    @Test func oneTilePerVariantProportionalToItsScreenAndDrawnFromTheRealObject() throws {
        let built = try Built.double11.get()
        let files = try BundleFiles(built.report.bundle)
        let (sheet, tiles) = try ContactSheet.render(files, font: try TextRenderer.standard())
        let snapshots = built.manifest.campaigns[0].snapshots
        #expect(tiles.count == snapshots.count)
        #expect(Set(tiles.map { "\($0.snapshot.pixels.width)x\($0.snapshot.pixels.height) \($0.snapshot.appearance)" }).count == snapshots.count)
        for tile in tiles {
            #expect(abs(Double(tile.width) - Double(tile.snapshot.pixels.width) * ContactSheet.scale) <= 0.5)
            #expect(abs(Double(tile.height) - Double(tile.snapshot.pixels.height) * ContactSheet.scale) <= 0.5)
            #expect(tile.x + tile.width <= sheet.width && tile.y + tile.height <= sheet.height)
        }
        // Light and dark in separate rows: every light tile sits above every dark one.
        let lightBottom = tiles.filter { $0.snapshot.appearance == .light }.map { $0.y + $0.height }.max()!
        let darkTop = tiles.filter { $0.snapshot.appearance == .dark }.map(\.y).min()!
        #expect(lightBottom < darkTop)
        // Tiles do not overlap.
        for (i, a) in tiles.enumerated() {
            for b in tiles[(i + 1)...] {
                #expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y)
            }
        }
        // Each tile is its object, decoded (through astcenc) and scaled: the pixels match exactly.
        for tile in tiles.filter({ $0.snapshot.devices.contains("iPhone 15") || $0.snapshot.devices.contains("iPad Pro 13-inch (M4)") }) {
            let expected = Resampler.resize(try SnapshotDecoder().decode(files.object(tile.snapshot.object)!), width: tile.width, height: tile.height)
            for y in 0..<tile.height {
                for x in 0..<tile.width where sheet[tile.x + x, tile.y + y] != expected[x, y] {
                    Issue.record("tile \(tile.snapshot.pixels) differs at \(x),\(y)")
                    return
                }
            }
        }
    }

    @Test func labelsAreRealText() throws {
        let font = try TextRenderer.standard()
        var image = RGBAImage(width: 200, height: 40, fill: RGBAColor(r: 255, g: 255, b: 255))
        font.draw("iPhone 1179x2556", pixelHeight: 15, color: RGBAColor(r: 0, g: 0, b: 0), x: 4, y: 4, on: &image)
        let inked = (0..<image.pixels.count / 4).filter { image.pixels[$0 * 4] < 128 }.count
        #expect(inked > 100)
        #expect(font.width("iPhone 1179x2556", pixelHeight: 15) > font.width("iPhone", pixelHeight: 15))
        let first = try Built.double11PNG.get().manifest.campaigns[0].snapshots[0]
        #expect(ContactSheet.labels(first) == ["iPad 1536x2048", "portrait, light"])
    }
}
