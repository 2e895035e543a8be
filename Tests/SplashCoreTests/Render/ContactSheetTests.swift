// Expectations: tile colours from the test campaign's YAML (#3366CC, #CC6633); the island from
// Apple's iPhone 15 geometry (126×37.33 pt, 11 pt from the top) at 0.3 px a point; shared screens
// from docs/ios-launch-cache.md §8. The tile scale and the corner grey are the code's own constants
// (ContactSheet.scale, .background); label wording is the project's.
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import Testing

@Suite struct ContactSheetTests {
    static let light = RGBAColor(r: 0x33, g: 0x66, b: 0xCC), dark = RGBAColor(r: 0xCC, g: 0x66, b: 0x33)

    func render(_ bundle: URL, _ options: ContactSheet.Options = ContactSheet.Options()) throws -> ContactSheet.Sheet {
        try ContactSheet.render(try BundleFiles(bundle), font: try TextRenderer.standard(), catalogue: try DeviceCatalogue.bundled(), options: options)
    }

    @Test func oneTilePerVariantProportionalToItsScreenLaidOutWithoutOverlap() throws {
        let built = try Built.double11.get()
        let sheet = try render(built.report.bundle)
        let tiles = sheet.tiles
        let snapshots = built.manifest.campaigns[0].snapshots
        #expect(tiles.count == snapshots.count)
        #expect(Set(tiles.map { "\($0.snapshot.pixels.width)x\($0.snapshot.pixels.height) \($0.snapshot.appearance)" }).count == snapshots.count)
        for tile in tiles {
            #expect(abs(Double(tile.width) - Double(tile.snapshot.pixels.width) * ContactSheet.scale) <= 0.5)
            #expect(abs(Double(tile.height) - Double(tile.snapshot.pixels.height) * ContactSheet.scale) <= 0.5)
            #expect(tile.x + tile.width <= sheet.image.width && tile.y + tile.height <= sheet.image.height)
        }
        // Light and dark side by side (issue 28, A7): each screen's dark tile on its light tile's row, right after it.
        for light in tiles where light.snapshot.appearance == .light {
            let dark = try #require(
                tiles.first {
                    $0.snapshot.appearance == .dark && $0.snapshot.pixels == light.snapshot.pixels && $0.snapshot.orientation == light.snapshot.orientation
                })
            #expect(dark.y == light.y && dark.x > light.x, "\(light.snapshot.pixels)")
        }
        // Tiles do not overlap.
        for (i, a) in tiles.enumerated() {
            for b in tiles[(i + 1)...] {
                #expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y)
            }
        }
    }

    /// A scale that is not a number from 0.01 to 1 is refused by name, never trapped on when a
    /// tile's size is computed from it.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 0, -1, 1e300, 2])
    func aScaleThatIsNotAFractionIsRefused(_ scale: Double) throws {
        let bundle = try Built.double11.get().report.bundle
        do {
            _ = try render(bundle, ContactSheet.Options(scale: scale))
            Issue.record("drew at scale \(scale)")
        } catch {
            #expect("\(error)" == "the sheet's scale must be a number from 0.01 to 1; found \(scale)")  // NaN equals nothing: compared as text
        }
    }

    @Test func eachTileShowsItsObjectsColourAndTheOverlaysOnTop() throws {
        // Plain backgrounds: a tile is the YAML's colour wherever no overlay or marker covers it.
        let bundle = try plainBundle(device: "iPhone 15", light: "#3366CC", dark: "#CC6633")
        let plain = try render(bundle, ContactSheet.Options(overlays: false))
        let overlaid = try render(bundle)
        #expect(plain.tiles.count == 4 && overlaid.tiles.count == 4)
        for (tile, withOverlay) in zip(plain.tiles, overlaid.tiles) {
            let colour = tile.snapshot.appearance == .light ? Self.light : Self.dark
            // Every pixel but the last row and column (where the 1-pixel marker is averaged in).
            for y in 0..<tile.height - 1 {
                for x in 0..<tile.width - 1 where plain.image[tile.x + x, tile.y + y] != colour {
                    Issue.record("\(tile.snapshot.orientation) \(tile.snapshot.appearance) differs at \(x),\(y): \(plain.image[tile.x + x, tile.y + y])")
                    return
                }
            }
            // With overlays: the corner is cut to the sheet's grey; 0.3 sheet pixels per point
            // (117.9 / 393) puts the island (x 133.5…259.5, y 11…48.3 pt) around pixel (59, 9).
            let island = tile.snapshot.orientation == .portrait ? (59, 9) : (9, 59)
            #expect(overlaid.image[withOverlay.x, withOverlay.y] == ContactSheet.background)
            #expect(overlaid.image[withOverlay.x + island.0, withOverlay.y + island.1] == RGBAColor(r: 0, g: 0, b: 0))
            #expect(plain.image[tile.x + island.0, tile.y + island.1] == colour)
        }
    }

    @Test func aKTXTileIsItsObjectDecodedThroughASTC() throws {
        // ASTC stores a block of one colour exactly (a constant-colour block), so a plain KTX
        // snapshot decodes to the YAML's colour: the tile shows the object as astcenc decodes it.
        let bundle = try plainBundle(device: "iPhone 15", light: "#3366CC", dark: "#CC6633", orientations: "[portrait]", encoding: .ktx)
        let sheet = try render(bundle, ContactSheet.Options(overlays: false))
        #expect(sheet.tiles.count == 2)
        for tile in sheet.tiles {
            let colour = tile.snapshot.appearance == .light ? Self.light : Self.dark
            #expect(sheet.image[tile.x + tile.width / 2, tile.y + tile.height / 2] == colour)
            #expect(sheet.image[tile.x, tile.y] == colour)
        }
    }

    @Test func oneDeviceAtFullSize() throws {
        let built = try Built.double11.get()
        let sheet = try render(built.report.bundle, ContactSheet.Options(scale: 1, device: "iphone 15"))
        // iPhone 15 shares its screen (1179 × 2556 px) with the 14 Pro, 15 Pro and 16: 2 orientations × 2 appearances.
        #expect(sheet.tiles.count == 4)
        for tile in sheet.tiles {
            #expect(tile.snapshot.devices.contains("iPhone 15"))
            #expect([tile.width, tile.height].sorted() == [1179, 2556])
        }
        // A grid, under what image tools open (issue 28, A7: it was 2620x16098): orientations in rows,
        // light and dark side by side.
        #expect(sheet.scale == 1 && max(sheet.image.width, sheet.image.height) < 16384, "\(sheet.image.width)x\(sheet.image.height)")
        #expect(Set(sheet.tiles.map(\.y)).count == 2)
    }

    @Test func aDeviceTheBundleLacksIsNamedWithSuggestions() throws {
        let bundle = try plainBundle(device: "iPhone 15", light: "#3366CC", dark: "#CC6633", orientations: "[portrait]")
        #expect(throws: ContactSheetError.noSnapshots("unknown device \"iPhone15\"; did you mean 'iPhone 15'?")) {
            try render(bundle, ContactSheet.Options(device: "iPhone15"))
        }
        let missing = #expect(throws: ContactSheetError.self) { try render(bundle, ContactSheet.Options(device: "iPad Air 2")) }
        #expect(missing.map { "\($0)" }?.hasPrefix("the bundle has no snapshot for \"iPad Air 2\"") == true)
    }

    @Test func labelsAreRealTextAndNameTheDevices() throws {
        let font = try TextRenderer.standard()
        var image = RGBAImage(width: 200, height: 40, fill: RGBAColor(r: 255, g: 255, b: 255))
        font.draw("iPhone 1179x2556", pixelHeight: 15, color: RGBAColor(r: 0, g: 0, b: 0), x: 4, y: 4, on: &image)
        let inked = (0..<image.pixels.count / 4).filter { image.pixels[$0 * 4] < 128 }.count
        #expect(inked > 100)
        #expect(font.width("iPhone 1179x2556", pixelHeight: 15) > font.width("iPhone", pixelHeight: 15))
        let ipad = Manifest.Snapshot(
            points: Manifest.Size(width: 768, height: 1024), scale: 2, pixels: Manifest.Size(width: 1536, height: 2048), orientation: .portrait,
            appearance: .light, family: "ipad", devices: ["iPad Air 2"], object: String(repeating: "0", count: 64), bytes: 0)
        #expect(ContactSheet.labels(ipad) == ["iPad 1536x2048", "portrait, light"])
        #expect(ContactSheet.wrap(["iPhone 14 Pro", "iPhone 15"], width: 1000, font: font) == ["iPhone 14 Pro, iPhone 15"])
        #expect(ContactSheet.wrap(["iPhone 14 Pro", "iPhone 15"], width: 10, font: font) == ["iPhone 14 Pro,", "iPhone 15"])
    }
}
