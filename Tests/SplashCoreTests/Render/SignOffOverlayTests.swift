import Foundation
import SplashCore
import SplashFormat
import Testing

/// The overlays against Apple's published geometry, drawn one pixel per point so every expected
/// pixel is worked out by hand: iPhone 15 is 393 × 852 pt, corner radius 55 pt, a 126 × 37.33 pt
/// Dynamic Island 11 pt from the top and centred, safe-area insets 59/34 pt (portrait) and
/// 59/59/21 pt (landscape), a 134 × 5 pt home indicator 8 pt above the bottom edge.
@Suite struct SignOffOverlayTests {
    static let canvas = RGBAColor(r: 40, g: 80, b: 120)
    static let outside = RGBAColor(r: 255, g: 255, b: 255)

    func snapshot(_ device: String, _ points: (Int, Int), scale: Int, _ orientation: Orientation, _ appearance: Appearance = .light) -> Manifest.Snapshot {
        let pixels =
            orientation == .portrait
            ? Manifest.Size(width: points.0 * scale, height: points.1 * scale)
            : Manifest.Size(width: points.1 * scale, height: points.0 * scale)
        return Manifest.Snapshot(
            points: Manifest.Size(width: points.0, height: points.1), scale: scale, pixels: pixels, orientation: orientation,
            appearance: appearance, family: "iphone", devices: [device], object: String(repeating: "0", count: 64), bytes: 0)
    }

    /// `color` at `alpha` over `under`, straight alpha, rounded: the textbook "source over".
    func over(_ color: RGBAColor, _ alpha: Int, _ under: RGBAColor) -> RGBAColor {
        func mix(_ s: UInt8, _ d: UInt8) -> UInt8 { UInt8((Int(s) * alpha + Int(d) * (255 - alpha) + 127) / 255) }
        return RGBAColor(r: mix(color.r, under.r), g: mix(color.g, under.g), b: mix(color.b, under.b))
    }

    func drawn(_ snapshot: Manifest.Snapshot) throws -> RGBAImage {
        let overlay = try #require(SignOffOverlay(snapshot, catalogue: try DeviceCatalogue.bundled()))
        let width = snapshot.orientation == .portrait ? snapshot.points.width : snapshot.points.height
        let height = snapshot.orientation == .portrait ? snapshot.points.height : snapshot.points.width
        var image = RGBAImage(width: width, height: height, fill: Self.canvas)
        overlay.draw(on: &image, x: 0, y: 0, width: width, height: height, appearance: snapshot.appearance, outside: Self.outside)
        return image
    }

    @Test func iPhone15PortraitHasItsCornersIslandInsetsAndHomeIndicator() throws {
        let image = try drawn(snapshot("iPhone 15", (393, 852), scale: 3, .portrait))
        let tinted = over(SignOffOverlay.unsafeTint, Int(SignOffOverlay.unsafeTint.a), Self.canvas)
        // Pixel (0, 0) lies about 77 pt from the corner circle's centre (55, 55): cut away whole.
        #expect(image[0, 0] == Self.outside)
        #expect(image[392, 851] == Self.outside)
        // (196, 29): the island spans x 133.5…259.5, y 11…48.33.
        #expect(image[196, 29] == RGBAColor(r: 0, g: 0, b: 0))
        // (30, 30): inside the rounded screen, above the 59 pt top inset, beside the island.
        #expect(image[30, 30] == tinted)
        // (196, 400): the safe area, untouched.
        #expect(image[196, 400] == Self.canvas)
        // (196, 60): just below the top inset.
        #expect(image[196, 60] == Self.canvas)
        // (196, 841): the home indicator (y 839…844) over the bottom inset's tint, dark on light.
        #expect(image[196, 841] == over(SignOffOverlay.indicatorOnLight, Int(SignOffOverlay.indicatorOnLight.a), tinted))
        // (100, 841): beside the indicator (x 129.5…263.5), in the bottom inset only.
        #expect(image[100, 841] == tinted)
    }

    @Test func landscapeTurnsTheIslandToTheLeftAndUsesLandscapeInsets() throws {
        let image = try drawn(snapshot("iPhone 15", (393, 852), scale: 3, .landscape, .dark))
        let tinted = over(SignOffOverlay.unsafeTint, Int(SignOffOverlay.unsafeTint.a), Self.canvas)
        // Turned counter-clockwise: the island spans x 11…48.33, y 133.5…259.5.
        #expect(image[29, 196] == RGBAColor(r: 0, g: 0, b: 0))
        #expect(image[29, 100] == tinted)
        // No top inset in landscape; 59 pt left and right, 21 pt at the bottom.
        #expect(image[426, 2] == Self.canvas)
        #expect(image[820, 196] == tinted)
        #expect(image[426, 380] == over(SignOffOverlay.indicatorOnDark, Int(SignOffOverlay.indicatorOnDark.a), tinted))
        #expect(image[426, 375] == tinted)
        #expect(image[426, 300] == Self.canvas)
    }

    @Test func aHomeButtonPhoneHasSquareCornersAndOnlyTheStatusBar() throws {
        let image = try drawn(snapshot("iPhone 8", (375, 667), scale: 2, .portrait))
        #expect(image[0, 0] == over(SignOffOverlay.unsafeTint, Int(SignOffOverlay.unsafeTint.a), Self.canvas))
        #expect(image[0, 20] == Self.canvas)
        #expect(image[187, 660] == Self.canvas)
        #expect(image[374, 666] == Self.canvas)
    }

    @Test func aDeviceOutsideTheCatalogueHasNoOverlay() throws {
        #expect(SignOffOverlay(snapshot("Foldy", (400, 900), scale: 3, .portrait), catalogue: try DeviceCatalogue.bundled()) == nil)
    }
}

/// Rotation checked where a mistake shows: an off-centre cutout on a made-up 400 × 900 pt screen
/// (x 20…80, y 5…35 in portrait) turned counter-clockwise lands at x 5…35, y 400 − 80 … 400 − 20 = 320…380.
@Suite struct SignOffOverlayRotationTests {
    @Test func anOffCentreCutoutTurnsWithTheScreen() throws {
        let device = Device(
            name: "Offset", family: .iphone, points: Manifest.Size(width: 400, height: 900), scale: 1, safeArea: SafeAreas(),
            cutout: Device.Cutout(kind: .notch, x: 20, y: 5, width: 60, height: 30))
        let catalogue = DeviceCatalogue(devices: [device])
        let snapshot = Manifest.Snapshot(
            points: device.points, scale: 1, pixels: Manifest.Size(width: 900, height: 400), orientation: .landscape, appearance: .light,
            family: "iphone", devices: ["Offset"], object: String(repeating: "0", count: 64), bytes: 0)
        let overlay = try #require(SignOffOverlay(snapshot, catalogue: catalogue))
        let canvas = RGBAColor(r: 40, g: 80, b: 120)
        var image = RGBAImage(width: 900, height: 400, fill: canvas)
        overlay.draw(on: &image, x: 0, y: 0, width: 900, height: 400, appearance: .light, outside: RGBAColor(r: 255, g: 255, b: 255))
        #expect(image[20, 350] == RGBAColor(r: 0, g: 0, b: 0))
        // Where a turn without the flip would put it (y 20…80): untouched.
        #expect(image[20, 50] == canvas)
    }
}
