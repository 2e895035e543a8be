import Foundation
import SplashApplier
import SplashFormat
import Testing

/// A decoder that hands back a picture drawn by the test.
struct PictureDecoder: SnapshotPixelDecoder {
    let image: RGBAImage
    func decode(_ data: Data) throws -> RGBAImage { image }
}

/// Where the 0.5 pt marker view lands and how it is read. The pictures are drawn here from first
/// principles (coverage of a 0.5 pt square at the bottom-right corner), not by any splashgen code.
@Suite struct SnapshotClassifierTests {
    static let navy = RGBAColor(r: 0x10, g: 0x18, b: 0x28)
    static let marker = AppearanceCue.markerView(light: RGBAColor(r: 255, g: 255, b: 255), dark: RGBAColor(r: 0, g: 0, b: 0))

    /// A 40×40 picture of `background` with a 0.5 pt view of `colour` at @`scale` blended in.
    static func picture(background: RGBAColor, marker colour: RGBAColor?, scale: Int) -> RGBAImage {
        var image = RGBAImage(width: 40, height: 40, fill: background)
        guard let colour else { return image }
        let side = 0.5 * Double(scale)
        for y in 36..<40 {
            for x in 36..<40 {
                let cx = max(0, min(1, Double(x + 1) - (40 - side))), cy = max(0, min(1, Double(y + 1) - (40 - side)))
                let c = cx * cy
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * c + Double(b) * (1 - c)).rounded()) }
                let i = (y * 40 + x) * 4
                image.pixels[i] = mix(colour.r, background.r)
                image.pixels[i + 1] = mix(colour.g, background.g)
                image.pixels[i + 2] = mix(colour.b, background.b)
            }
        }
        return image
    }

    func classify(_ image: RGBAImage, name: String = "A@3x.ktx", style: InterfaceStyle = .automatic) -> SnapshotClassifier.Result? {
        SnapshotClassifier(decoder: PictureDecoder(image: image), cue: Self.marker, interfaceStyle: style)
            .classify([(name, Data())])[name]
    }

    @Test(arguments: [2, 3])
    func theMarkerIsReadWhereTheViewLands(_ scale: Int) {
        let light = classify(Self.picture(background: Self.navy, marker: RGBAColor(r: 255, g: 255, b: 255), scale: scale), name: "A@\(scale)x.ktx")
        #expect(light?.appearance == .light && light?.decidedBy == .marker)
        let dark = classify(
            Self.picture(background: RGBAColor(r: 250, g: 250, b: 250), marker: RGBAColor(r: 0, g: 0, b: 0), scale: scale), name: "A@\(scale)x.ktx")
        #expect(dark?.appearance == .dark && dark?.decidedBy == .marker)
    }

    /// A `UILaunchScreen` app has no marker view: its renders are told by the background colour over
    /// the whole corner (docs/ios-launch-cache.md §10). The colours are systemGroupedBackground's,
    /// #F2F2F7 and #000000, and a logo-free corner of each is drawn here.
    @Test func aLaunchScreenAppIsToldByItsBackgroundWithNoMarker() {
        let light = RGBAColor(r: 0xF2, g: 0xF2, b: 0xF7), dark = RGBAColor(r: 0, g: 0, b: 0)
        func read(_ background: RGBAColor, cue: AppearanceCue) -> SnapshotClassifier.Result? {
            SnapshotClassifier(decoder: PictureDecoder(image: RGBAImage(width: 40, height: 40, fill: background)), cue: cue, interfaceStyle: .automatic)
                .classify([("A@3x.ktx", Data())])["A@3x.ktx"]
        }
        let byBackground = AppearanceCue.background(light: light, dark: dark)
        #expect(read(light, cue: byBackground)?.appearance == .light && read(light, cue: byBackground)?.decidedBy == .launchScreenBackground)
        #expect(read(dark, cue: byBackground)?.appearance == .dark && read(dark, cue: byBackground)?.decidedBy == .launchScreenBackground)
        // A background that is neither colour (a bar, or art, over the corner) is no reading: it is
        // a guess, by name.
        let blue = RGBAColor(r: 0x1E, g: 0x40, b: 0xA0)
        #expect(read(blue, cue: byBackground)?.decidedBy == .luminance)
        // One colour in both appearances: the same picture, never guessed.
        let same = read(light, cue: .background(light: light, dark: light))
        #expect(same?.appearance == nil && same?.decidedBy == .samePicture)
        // Colours too close for the rule ever to decide (7 apart: its margin is under one step) are
        // the same picture too, not a guess that is wrong half the time.
        let near = read(light, cue: .background(light: light, dark: RGBAColor(r: 0xEB, g: 0xEB, b: 0xF0)))
        #expect(near?.appearance == nil && near?.decidedBy == .samePicture)
        #expect(read(light, cue: .background(light: light, dark: RGBAColor(r: 0xEA, g: 0xEA, b: 0xEF)))?.decidedBy == .launchScreenBackground)
    }

    @Test func aNavyCornerWithNoMarkerIsAGuessNeverAMarkerReading() {
        // Navy is 40 from black on its blue channel: near, but not the marker.
        let result = classify(Self.picture(background: Self.navy, marker: nil, scale: 3))
        #expect(result?.decidedBy == .luminance)
    }

    @Test func aDeclaredInterfaceStyleSettlesItWithoutDecoding() {
        struct Refusing: SnapshotPixelDecoder {
            struct Refused: Error {}
            func decode(_ data: Data) throws -> RGBAImage { throw Refused() }
        }
        var ktx = KTXFile(astc4x4Width: 8, height: 12, blocks: Data(count: KTXFile.astc4x4ByteCount(width: 8, height: 12)))
        ktx.keyValues = []
        let result = SnapshotClassifier(decoder: Refusing(), cue: Self.marker, interfaceStyle: .light).classify([("A@3x.ktx", ktx.serialized())])["A@3x.ktx"]
        #expect(result?.appearance == .light && result?.decidedBy == .interfaceStyle && result?.width == 8 && result?.height == 12)
        #expect(InterfaceStyle(infoPlistValue: "Dark") == .dark && InterfaceStyle(infoPlistValue: nil) == .automatic)
    }

    @Test func aFileThatDoesNotDecodeKeepsItsHeaderSize() {
        struct Refusing: SnapshotPixelDecoder {
            struct Refused: Error {}
            func decode(_ data: Data) throws -> RGBAImage { throw Refused() }
        }
        let atx = ATXFile(astc4x4Width: 20, height: 36, blocks: Data(count: KTXFile.astc4x4ByteCount(width: 20, height: 36))).serialized()
        let result = SnapshotClassifier(decoder: Refusing(), cue: Self.marker, interfaceStyle: .automatic).classify([("A@3x.ktx", atx)])["A@3x.ktx"]
        #expect(result?.decidedBy == .undecodable && result?.width == 20 && result?.height == 36)
    }

    @Test func theScaleComesFromTheOSFileName() {
        #expect(SnapshotClassifier.scale(ofFileNamed: "B6C097B0-5F66-4740-A20A-5FBDAA2EE484@3x.ktx") == 3)
        #expect(SnapshotClassifier.scale(ofFileNamed: "B6C097B0@2x.ktx") == 2)
        #expect(SnapshotClassifier.scale(ofFileNamed: "plain.ktx") == 1)
    }
}

/// Paths and state read from disk are hostile input.
@Suite struct ApplierPathTests {
    @Test func onlyBundleIdentifiersNameAFolder() {
        for good in ["com.example.shop", "cn.example.my-app", "a.b"] { #expect(ApplierPaths.isBundleIdentifier(good), "\(good)") }
        for bad in ["../../../../x", "com", "a..b", "a/b.c", "com.example.", "com.exa mple", ".hidden.app", "com.éxample.app"] {
            #expect(!ApplierPaths.isBundleIdentifier(bad), "\(bad)")
        }
        #expect(throws: ApplierError.self) { try ApplierPaths(container: URL(fileURLWithPath: "/tmp"), bundleID: "../../x", os: OSVersion(major: 17)) }
    }

    @Test func aStateThatPointsOutsideItsFoldersIsNotTrusted() throws {
        let paths = try ApplierPaths(container: URL(fileURLWithPath: "/tmp/c"), bundleID: "com.example.shop", os: OSVersion(major: 17))
        let hash = String(repeating: "a", count: 64)
        let record = ApplierState.FileRecord(width: 10, height: 20, appearance: .light, decidedBy: .marker, original: hash, current: hash)
        let key = ApplierState.Key(version: "1", build: "1", fingerprint: hash)
        let good = ApplierState(
            key: key, bundleID: "com.example.shop", folder: paths.folder,
            backup: ApplierPaths.backupFolder(for: key, folder: paths.folder), files: ["A@3x.ktx": record])
        #expect(good.problem(for: paths) == nil)
        var outside = good
        outside.backup = "Library/Application Support/splashgen/backups/../../../../../Documents"
        #expect(outside.problem(for: paths) != nil)
        var escaping = good
        escaping.files = ["../../Documents/x.ktx": record]
        #expect(escaping.problem(for: paths) != nil)
        var otherFolder = good
        otherFolder.folder = "Documents"
        #expect(otherFolder.problem(for: paths) != nil)
        var huge = good
        huge.files["A@3x.ktx"]?.width = Int.max
        #expect(huge.problem(for: paths) != nil)
        var checked = good
        checked.verified = [hash]
        #expect(checked.problem(for: paths) == nil)
        var notAHash = good
        notAHash.verified = [hash, "objects/../../x"]
        #expect(notAHash.problem(for: paths) != nil)
    }
}

/// The marker's size is defined once (``MarkerReading``): the build's default stamp and the
/// suggestion its art check makes are what the applier's reading needs. Worked from the geometry: a
/// 0.5 pt view covers ⌈0.5 × scale⌉ pixels, and the reading takes the pixel beside them for the
/// colour under the view; a square stamp one pixel wider than that makes it the marker's own.
@Suite struct MarkerSizeTests {
    /// A 16×16 `background` picture with a square `stamp`-pixel marker of `colour` in the corner.
    static func stamped(_ stamp: Int, colour: RGBAColor, on background: RGBAColor) -> RGBAImage {
        var image = RGBAImage(width: 16, height: 16, fill: background)
        for y in (16 - stamp)..<16 {
            for x in (16 - stamp)..<16 {
                let i = (y * 16 + x) * 4
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (colour.r, colour.g, colour.b)
            }
        }
        return image
    }

    @Test func theSmallestStampReadsAtItsScaleAndOneNarrowerDoesNot() {
        let white = RGBAColor(r: 255, g: 255, b: 255), black = RGBAColor(r: 0, g: 0, b: 0), red = RGBAColor(r: 200, g: 0, b: 0)
        #expect((1...4).map(MarkerReading.span) == [1, 1, 2, 2])
        #expect((1...4).map(MarkerReading.smallestStamp) == [2, 2, 3, 3])
        #expect(MarkerReading.defaultStamp == 3, "readable on every phone: @3x at most")
        // The scales of the catalogue (every device since iOS 12 is @2x or @3x; at @1x the view covers
        // a quarter pixel, and a stamp of the marker's colour all round leaves nothing to tell by).
        for scale in 2...3 {
            let stamp = MarkerReading.smallestStamp(scale: scale)
            for (marker, appearance) in [(white, Appearance.light), (black, .dark)] {
                let picture = Self.stamped(stamp, colour: marker, on: red)
                #expect(MarkerReading.appearance(of: picture, scale: scale, light: white, dark: black) == appearance, "@\(scale)x, \(stamp) px")
            }
        }
        // At @3x a 2-pixel stamp leaves red beside it: the colour under the view is not the marker's,
        // and the reading cannot decide.
        let narrow = Self.stamped(MarkerReading.smallestStamp(scale: 3) - 1, colour: white, on: red)
        #expect(MarkerReading.appearance(of: narrow, scale: 3, light: white, dark: black) == nil)
    }
}
