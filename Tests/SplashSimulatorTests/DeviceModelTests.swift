import Foundation
import SplashApplier
import SplashCore
import Testing

@testable import SplashSimulator

/// The simulator's OS writes what a phone writes (reference §3, §6, §9). Each expectation comes
/// from the reference facts, Apple's LZFSE through pyliblzfse, or coverage arithmetic, never from
/// splashgen's generator.
@Suite struct DeviceModelTests {
    @Test func theDefaultInstallCachesATXFilesWhoseLZFSChunkTheReferenceDecodes() throws {
        let sim = try sandbox(Installed.iPhone15)
        let files = try sim.cachedFiles()
        #expect(files.count == 4)
        for (name, data) in files {
            #expect(Array(data.prefix(8)) == Array("AAPL\r\n\u{1A}\n".utf8), "\(name) is an ATX file")
            let file = try ATXFile(parsing: data)
            guard case .lzfse(let stream) = file.payload else {
                Issue.record("\(name) has no LZFS chunk")
                continue
            }
            let reference = try referenceLZFSEDecompress(stream)
            let width = Int(file.pixelWidth), height = Int(file.pixelHeight)
            #expect(Set([width, height]) == [1179, 2556])
            #expect(reference.count == ((width + 3) / 4) * ((height + 3) / 4) * 16, "one 16-byte block per 4x4 pixels")
            #expect(try file.astcBlocks() == reference)
            #expect(data.count < 400_000, "\(name): \(data.count) bytes; the OS's compressed files are a few KB to ~1.7 MB")
        }
        // The ASTC inside decodes (astcenc) to the storyboard as the simulator's OS drew it.
        let model = try sim.model()
        let campaign = try CampaignLoader(catalogue: DeviceCatalogue.bundled()).load(contentsOf: Repo.campaign("default.yaml"))
        let art = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
        let drawn = StoryboardRenderer(campaign: campaign, art: try art.decode(Set(art.items.keys), maxPixels: PNGCodec.defaultMaxPixels))
        let device = try #require(try DeviceCatalogue.bundled().device(named: "iPhone 15"))
        for (name, variant) in model.variants {
            let decoded = try SnapshotDecoder().decode(try #require(files[name]))
            let expected = drawn.render(on: device, variant, blackImages: false)
            var worst = 0
            for i in stride(from: 0, to: expected.pixels.count, by: 4) {
                for c in 0..<3 { worst = max(worst, abs(Int(decoded.pixels[i + c]) - Int(expected.pixels[i + c]))) }
            }
            #expect(worst < 64, "\(name): largest channel error \(worst) after ASTC")
        }
    }

    @Test(arguments: [("17.0", SnapshotContent.atx, true), ("15.4", .ktx, true), ("12.4", .ktx, false)])
    func eachIOSVersionWritesItsOwnFormatInItsOwnFolder(_ ios: String, _ content: SnapshotContent, _ hasDark: Bool) throws {
        let device = ios == "12.4" ? "iPhone 8" : "iPhone 15"
        let sim = SandboxSimulator(root: try Installed.install(device: device, ios: ios))
        let model = try sim.model()
        let folder = try sim.snapshotFolder(model).path
        #expect(folder.hasSuffix(hasDark ? "Library/SplashBoard/Snapshots/com.example.shop - {DEFAULT GROUP}" : "Library/Caches/Snapshots/com.example.shop"))
        #expect(Set(model.variants.values.map(\.appearance)) == (hasDark ? [.light, .dark] : [.light]), "no dark mode before iOS 13")
        for (name, data) in try sim.cachedFiles() {
            #expect(SnapshotContent(sniffing: data) == content, "\(name)")
            if content == .ktx {
                #expect(try KTXFile(parsing: data).isAppleCompressed == (ios == "15.4"), "Compression_APPLE from iOS 13 to 16")
            }
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
    @Test(arguments: [("iPhone 15", 3), ("iPhone 8", 2)])
    func theMarkerViewIsBlendedWhereItLands(_ name: String, _ scale: Int) throws {
        let campaign = try CampaignLoader(catalogue: DeviceCatalogue.bundled()).load(contentsOf: Repo.storyboard("brand-storyboard.yaml"))
        let device = try #require(try DeviceCatalogue.bundled().device(named: name))
        let art = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
        let renderer = StoryboardRenderer(campaign: campaign, art: try art.decode(Set(art.items.keys), maxPixels: PNGCodec.defaultMaxPixels))
        let image = renderer.render(on: device, portraitLight, blackImages: false)
        #expect((image.width, image.height) == (device.points.width * scale, device.points.height * scale))
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
            #expect(Set([size.width, size.height]) == [640, 1136], "zoomed iPhone 8: 320x568 pt @2x (reference §9)")
        }
        let bundle = try buildBundle("double11.yaml", device: "iPhone 8")
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(Set(manifest.campaigns[0].snapshots.map(\.pixels.width)).isSuperset(of: [640, 750]), "naming a device brings its zoomed screen")
        let opening = date("2026-11-10T21:00:00+08:00")
        _ = try sim.launch(bundle: bundle, now: opening)
        let shown = try sim.launch(bundle: bundle, now: opening.addingTimeInterval(60))
        #expect(shown.contentHash == (try object(in: bundle, portraitLight, pixels: Manifest.Size(width: 640, height: 1136))))
    }

    @Test func leftoversAreAnotherLibrarysPNGRendersInTheOSsNames() throws {
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", leftovers: Repo.campaign("double11.yaml")))
        let model = try sim.model()
        for (name, data) in try sim.cachedFiles() {
            #expect(name.hasSuffix("@3x.ktx"))
            #expect(SnapshotContent(sniffing: data) == .png)
            let image = try SnapshotDecoder().decode(data)
            let expected = try sim.snapshotFolder(model).appendingPathComponent(name)
            #expect(try SnapshotHeader.pixelSize(of: Data(contentsOf: expected)) == (image.width, image.height))
        }
        let shown = try sim.launch(bundle: nil, now: date("2026-11-01T12:00:00+08:00"))
        #expect(shown.regenerated == nil, "the OS shows PNG bytes in a .ktx name (field reports, reference §3)")
        #expect(colouredPixels(shown.image) > 100_000, "the old campaign's red art, not the app's white screen")
    }
}
