// Expectations: first principles on a 200×100 red PNG over blue: fill covers the screen, fit scales
// by the smaller ratio and centres, none is 100 pt wide at the device's scale; the 34/21 pt bottom
// insets are the catalogue's (docs/ios-launch-cache.md §8).
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashTestSupport
import Testing

/// Fill and fit on a tall phone and a wide tablet, portrait and landscape, checked on real pixels
/// (PNG encoding, so no compression blurs the edges).
@Suite struct SnapshotPlannerTests {
    static let red = RGBAColor(r: 255, g: 0, b: 0)
    static let blue = RGBAColor(r: 0, g: 0, b: 255)

    /// Builds a one-layer campaign with a 200x100 red image and returns each snapshot's pixels.
    func render(fit: String, extra: String = "", devices: String) throws -> [(Manifest.Snapshot, RGBAImage)] {
        let folder = temporaryFolder()
        try PNGCodec.encode(RGBAImage(width: 200, height: 100, fill: Self.red)).write(to: folder.appendingPathComponent("wide.png"))
        let file = try writeTestCampaign(
            "geometry", in: folder, devices: devices,
            appearances: "  light:\n    background: \"#0000FF\"\n    layers:\n      - {image: wide.png, fit: \(fit)\(extra)}")
        let campaign = try loadCampaign(file)
        let report = try BundleBuilder(outputRoot: temporaryFolder()).build(campaign)
        return try report.manifest.campaigns[0].snapshots.map { snapshot in
            let data = try Data(contentsOf: report.bundle.appendingPathComponent("objects/" + snapshot.object))
            return (snapshot, try SnapshotDecoder().decode(data))
        }
    }

    /// The bounding box of the red pixels.
    func redBox(_ image: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].r > 128 && image[x, y].b < 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    @Test func fillCoversTheWholeScreenInEveryOrientation() throws {
        for (snapshot, image) in try render(fit: "fill", devices: "\"iPhone 16 Pro Max\", \"iPad Pro 13-inch (M4)\"") {
            let box = redBox(image)
            // Everything but the 1-pixel marker is art: no background shows.
            #expect(box.x == 0 && box.y == 0 && box.width == image.width && box.height == image.height, "\(snapshot.devices[0]) \(snapshot.orientation)")
            #expect(image[image.width / 2, image.height / 2] == Self.red)
        }
    }

    @Test func fitLetterboxesTheArtAtItsAspectRatioCentred() throws {
        for (snapshot, image) in try render(fit: "fit", devices: "\"iPhone 16 Pro Max\", \"iPad Pro 13-inch (M4)\"") {
            let box = redBox(image)
            let name = "\(snapshot.devices[0]) \(snapshot.orientation)"
            // The 200x100 image scales by the smaller of the two ratios and is centred.
            let factor = min(Double(image.width) / 200, Double(image.height) / 100)
            let width = Int((200 * factor).rounded()), height = Int((100 * factor).rounded())
            #expect(box.width == width && box.height == height, "\(name): \(box)")
            #expect(abs(box.x - (image.width - width) / 2) <= 1 && abs(box.y - (image.height - height) / 2) <= 1, "\(name): \(box)")
            let barsAbove = box.y > 0, barsBeside = box.x > 0
            #expect(barsAbove != barsBeside, "\(name): the letterbox is on one axis only")
            #expect(image[barsAbove ? image.width / 2 : 0, barsAbove ? 0 : image.height / 2] == Self.blue)
        }
    }

    @Test func anchoredArtIsSizedInPointsAndKeptClearOfTheSafeArea() throws {
        for (snapshot, image) in try render(fit: "none", extra: ", width: 100, anchor: bottom, margin: 10", devices: "\"iPhone 16 Pro Max\"") {
            let box = redBox(image)
            let scale = snapshot.scale
            let bottomInset = snapshot.orientation == .portrait ? 34 : 21
            #expect(box.width == 100 * scale && box.height == 50 * scale)
            #expect(box.y + box.height == image.height - (bottomInset + 10) * scale, "\(snapshot.orientation)")
            #expect(abs(box.x - (image.width - box.width) / 2) <= 1)
        }
    }

    @Test func layersCanBeLimitedToOneOrientation() throws {
        let shots = try render(fit: "fill", extra: ", orientation: landscape", devices: "\"iPhone 15\"")
        #expect(shots.count == 2)
        for (snapshot, image) in shots {
            let centre = image[image.width / 2, image.height / 2]
            #expect(centre == (snapshot.orientation == .landscape ? Self.red : Self.blue))
        }
    }
}
