import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// The simulator's OS writes what a phone writes (docs/ios-launch-cache.md §3, §6, §9). Each expectation comes
/// from the iOS facts (docs/ios-launch-cache.md), Apple's LZFSE through pyliblzfse, or coverage arithmetic, never from
/// splashgen's generator.
@Suite struct DeviceModelTests {
    /// The first 256 bytes of an iPhone 15 launch snapshot, typed in from the table of docs/ios-launch-cache.md §3
    /// in SplashFormatTests' fixtures; nil where a byte depends on the picture.
    static func goldenLaunchHead() throws -> [UInt8?] {
        try hexGolden(Repo.root.appendingPathComponent("Tests/SplashFormatTests/Fixtures/atx/launch-1179x2556-first-256-bytes.txt"))
    }

    @Test func theDefaultInstallCachesLaunchSnapshotsByteForByteInTheDeviceLayout() throws {
        let sim = try sandbox(Installed.iPhone15)
        let files = try sim.cachedFiles()
        #expect(files.count == 4)
        let golden = try Self.goldenLaunchHead()
        let model = try sim.model()
        for (name, data) in files {
            let bytes = [UInt8](data)
            let landscape = model.variants[name]?.orientation == .landscape
            for (offset, expected) in golden.enumerated() {
                // Words 6 and 7 (bytes 40–47) hold the size: swapped in landscape.
                guard var expected else { continue }
                if landscape, (40..<48).contains(offset) { expected = golden[offset < 44 ? offset + 4 : offset - 4] ?? 0 }
                #expect(bytes[offset] == expected, "\(name): byte \(offset)")
            }
            let stream = Data(bytes[256..<(bytes.count - 8)])
            #expect(Array(bytes.suffix(8)) == [0, 0, 0, 0] + Array("END ".utf8))
            let count = bytes[252..<256].reversed().reduce(0) { $0 << 8 | Int($1) }
            #expect(count == stream.count, "LZFS carries the stream's byte count")
            let reference = try referenceLZFSEDecompress(stream)
            #expect(reference.count == 295 * 639 * 16, "one 16-byte block per 4x4 pixels of 1179x2556")
            #expect(data.count < 400_000, "\(name): \(data.count) bytes; the OS's compressed files are a few KB to ~1.7 MB")
        }
        // The ASTC inside decodes, through the applier's decoder, to the storyboard as the simulator's OS drew it.
        let launch = try LaunchScreen(storyboardAt: try Repo.ownStoryboard, device: "iPhone 15", ios: try #require(OSVersion("17.0")))
        for (name, variant) in model.variants {
            let decoded = try SnapshotDecoder().decode(try #require(files[name]))
            let expected = launch.image(variant, black: false)
            var worst = 0
            for i in stride(from: 0, to: expected.pixels.count, by: 4) {
                for c in 0..<3 { worst = max(worst, abs(Int(decoded.pixels[i + c]) - Int(expected.pixels[i + c]))) }
            }
            #expect(worst < 64, "\(name): largest channel error \(worst) after ASTC")
        }
    }

    /// What the OS shows is what docs/ios-launch-cache.md says it writes; a file in a layout it does not write
    /// is thrown away (and the launch screen rendered again).
    @Test func theOSRefusesAnATXLayoutItDoesNotWrite() throws {
        let launch = try LaunchScreen(storyboardAt: try Repo.ownStoryboard, device: "iPhone 8", ios: try #require(OSVersion("17.0")))
        let good = [UInt8](try launch.render(portraitLight, black: false, encoder: OSCodecs.ASTCEncoder()))
        let size = (width: 750, height: 1334)
        #expect(throws: Never.self) { try CachedFileCheck.shown(Data(good), name: "A@2x.ktx", expected: size, container: .atx).get() }
        // Depth 0, as the eleven-word reading of forensic tools assumed (word 8, bytes 48–51).
        var depthZero = good
        depthZero[48] = 0
        #expect(throws: SimulatorError.rejected("does not decode (ATX HEAD is not a 2D ASTC 4x4 image of depth 1)")) {
            try CachedFileCheck.shown(Data(depthZero), name: "A@2x.ktx", expected: size, container: .atx).get()
        }
        // A 44-byte HEAD (eleven words) and no FILL.
        var eleven: [UInt8] = Array(good[0..<8])
        eleven += [44, 0, 0, 0]
        eleven += good[12..<60]
        eleven += good[244...]
        #expect(throws: SimulatorError.rejected("does not decode (ATX HEAD of 44 bytes, not 84)")) {
            try CachedFileCheck.shown(Data(eleven), name: "A@2x.ktx", expected: size, container: .atx).get()
        }
        // The LZFS count holding the blocks' byte count instead of the stream's.
        var blockCount = good
        let blockBytes = 188 * 334 * 16
        blockCount.replaceSubrange(252..<256, with: (0..<4).map { UInt8(blockBytes >> (8 * $0) & 0xFF) })
        #expect(throws: SimulatorError.rejected("does not decode (LZFS count is not its stream's length)")) {
            try CachedFileCheck.shown(Data(blockCount), name: "A@2x.ktx", expected: size, container: .atx).get()
        }
        #expect(throws: SimulatorError.rejected("is 750x1334, not 1334x750")) {
            try CachedFileCheck.shown(Data(good), name: "A@2x.ktx", expected: (1334, 750), container: .atx).get()
        }
        #expect(throws: SimulatorError.rejected("does not decode")) {
            try CachedFileCheck.shown(Data(good), name: "A@2x.jpeg", expected: size, container: .atx).get()
        }
        // A whole, decodable ATX where the OS wrote KTX (or the other way) is not what it reads back there.
        #expect(throws: SimulatorError.rejected("holds ATX, not the KTX 1.1 the OS wrote there")) {
            try CachedFileCheck.shown(Data(good), name: "A@2x.ktx", expected: size, container: .ktx).get()
        }
        let ktx = try LaunchScreen(
            storyboardAt: try Repo.ownStoryboard, device: "iPhone 8", ios: try #require(OSVersion("17.0")), format: .appleCompressedKTX)
        let appleKTX = try ktx.render(portraitLight, black: false, encoder: OSCodecs.ASTCEncoder())
        #expect(throws: Never.self) { try CachedFileCheck.shown(appleKTX, name: "A@2x.ktx", expected: size, container: .appleCompressedKTX).get() }
        #expect(throws: SimulatorError.rejected("holds KTX 1.1 with Compression_APPLE, not the ATX the OS wrote there")) {
            try CachedFileCheck.shown(appleKTX, name: "A@2x.ktx", expected: size, container: .atx).get()
        }
        #expect(throws: SimulatorError.rejected("holds KTX 1.1 with Compression_APPLE, not the KTX 1.1 the OS wrote there")) {
            try CachedFileCheck.shown(appleKTX, name: "A@2x.ktx", expected: size, container: .ktx).get()
        }
    }

    /// ATX from iOS 13, plain KTX before (docs/ios-launch-cache.md §3).
    @Test(arguments: [("17.0", SnapshotContent.atx, true), ("16.4", .atx, true), ("15.4", .atx, true), ("13.0", .atx, true), ("12.4", .ktx, false)])
    func eachIOSVersionWritesItsOwnFormatInItsOwnFolder(_ ios: String, _ content: SnapshotContent, _ hasDark: Bool) throws {
        let device = ios == "12.4" ? "iPhone 8" : "iPhone 15"
        let sim = SandboxSimulator(root: try Installed.install(device: device, ios: ios))
        let model = try sim.model()
        let folder = try sim.snapshotFolder(model).path
        #expect(folder.hasSuffix(hasDark ? "Library/SplashBoard/Snapshots/com.example.shop - {DEFAULT GROUP}" : "Library/Caches/Snapshots/com.example.shop"))
        #expect(Set(model.variants.values.map(\.appearance)) == (hasDark ? [.light, .dark] : [.light]), "no dark mode before iOS 13")
        for (name, data) in try sim.cachedFiles() {
            #expect(SnapshotContent(sniffing: data) == content, "\(name)")
            if content == .ktx { #expect(try !KTXFile(parsing: data).isAppleCompressed, "plain KTX 1.1 before iOS 13") }
        }
    }

    @Test func theAppSwitcherFolderSitsBesideTheLaunchFolderWithASmallerCopy() throws {
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        let launch = try sim.snapshotFolder(model), scene = try sim.appSwitcherFolder(model)
        #expect(scene.deletingLastPathComponent() == launch.deletingLastPathComponent())
        #expect(scene.lastPathComponent == "sceneID:com.example.shop-default")
        let full = try FileManager.default.contentsOfDirectory(atPath: scene.path).filter { $0.hasSuffix(".ktx") }
        let small = try FileManager.default.contentsOfDirectory(atPath: scene.appendingPathComponent("downscaled").path)
        #expect(full.count == 1 && small.count == 1)
        let fullSize = try SnapshotHeader.pixelSize(of: Data(contentsOf: scene.appendingPathComponent(full[0])))
        let smallSize = try SnapshotHeader.pixelSize(of: Data(contentsOf: scene.appendingPathComponent("downscaled/" + small[0])))
        #expect(fullSize == (1179, 2556) && smallSize == (393, 852))
    }

    /// A 0.5×0.5 pt view pinned to the bottom-right corner covers the last 1.5 px at @3x (the corner
    /// pixel whole, its neighbours half, the diagonal a quarter) and exactly the corner pixel at @2x.
    @Test(arguments: [("iPhone 15", 3, 1179, 2556), ("iPhone 8", 2, 750, 1334)])
    func theMarkerViewIsBlendedWhereItLands(_ name: String, _ scale: Int, _ width: Int, _ height: Int) throws {
        let launch = try LaunchScreen(storyboardAt: Repo.storyboard("brand.json"), device: name, ios: try #require(OSVersion("17.0")))
        let image = launch.image(portraitLight, black: false)
        #expect((image.width, image.height) == (width, height), "points x scale, docs/ios-launch-cache.md §8")
        let (w, h) = (image.width, image.height)
        let navy = RGBAColor(r: 0x10, g: 0x18, b: 0x28)
        func mix(_ coverage: Double) -> RGBAColor {
            func c(_ under: UInt8) -> UInt8 { UInt8((255 * coverage + Double(under) * (1 - coverage)).rounded()) }
            return RGBAColor(r: c(navy.r), g: c(navy.g), b: c(navy.b))
        }
        #expect(image[w - 1, h - 1] == RGBAColor(r: 255, g: 255, b: 255))
        #expect(image[w - 3, h - 3] == navy)
        if scale == 3 {
            #expect(image[w - 2, h - 1] == mix(0.5) && image[w - 1, h - 2] == mix(0.5))
            #expect(image[w - 2, h - 2] == mix(0.25))
        } else {
            #expect(image[w - 2, h - 1] == navy && image[w - 1, h - 2] == navy)
        }
    }

    @Test func displayZoomInstallsTheZoomedScreenAndCampaignsCoverIt() throws {
        let sim = SandboxSimulator(root: try Installed.install(device: "iPhone 8", ios: "17.0", zoomed: true))
        let model = try sim.model()
        #expect(model.device == "iPhone 8 (Display Zoom)")
        for (_, data) in try sim.cachedFiles() {
            let size = try SnapshotHeader.pixelSize(of: data)
            #expect(Set([size.width, size.height]) == [640, 1136], "zoomed iPhone 8: 320x568 pt @2x (docs/ios-launch-cache.md §9)")
        }
        let bundle = try buildBundle("double11.yaml", device: "iPhone 8")
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(Set(manifest.campaigns[0].snapshots.map(\.pixels.width)).isSuperset(of: [640, 750]), "naming a device brings its zoomed screen")
        let opening = date("2026-11-10T21:00:00+08:00")
        _ = try sim.launch(bundle: bundle, now: opening)
        let shown = try sim.launch(bundle: bundle, now: opening.addingTimeInterval(60))
        #expect(shown.contentHash == (try object(in: bundle, portraitLight, pixels: Manifest.Size(width: 640, height: 1136))))
    }

    /// `sim install --zoomed` on the default iPhone 15 is refused, saying why: no source for its zoomed
    /// size (issue 28, C1), not that the phone has no Display Zoom.
    @Test func aZoomedInstallWithoutASourcedSizeSaysWhy() throws {
        #expect(throws: SimulatorError.noDisplayZoom("iPhone 15")) { try Installed.install(ios: "17.0", zoomed: true) }
        #expect(
            SimulatorError.noDisplayZoom("iPhone 15").description.hasPrefix(
                "the simulator has no Display Zoom screen for iPhone 15: no source for its zoomed size has been found yet"))
    }

    @Test func leftoversAreAnotherLibrarysPNGRendersInTheOSsNames() throws {
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", leftovers: Repo.storyboard("colourful.json")))
        let model = try sim.model()
        for (name, data) in try sim.cachedFiles() {
            #expect(name.hasSuffix("@3x.ktx"))
            #expect(SnapshotContent(sniffing: data) == .png)
            let image = try SnapshotDecoder().decode(data)
            let expected = try sim.snapshotFolder(model).appendingPathComponent(name)
            #expect(try SnapshotHeader.pixelSize(of: Data(contentsOf: expected)) == (image.width, image.height))
        }
        let shown = try sim.launch(bundle: nil, now: date("2026-11-01T12:00:00+08:00"))
        #expect(shown.regenerated == nil, "the OS shows PNG bytes in a .ktx name (field reports, docs/ios-launch-cache.md §3)")
        #expect(colouredPixels(shown.image) > 100_000, "the old campaign's red art, not the app's white screen")
    }

    /// D11 (issue 36): a cached file the app removed (the applier clears the launch folder) is named
    /// as not there at the next launch, not as a file that "does not decode"; the OS renders again.
    @Test func aCachedFileTheAppRemovedIsNamedAsGone() throws {
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0"))
        let folder = try sim.snapshotFolder(try sim.model())
        for name in try sim.cachedFiles().keys { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let shown = try sim.launch(bundle: nil, now: date("2026-11-01T12:00:00+08:00"))
        let reason = try #require(shown.regenerated)
        #expect(reason.hasSuffix(" is not there (the launch folder no longer holds it)") && !reason.contains("decode"), "\(reason)")
    }
}
