// Expectations: the layout typed in from the table of docs/ios-launch-cache.md §3 and KTX 1.1;
// counts from §8's 22 screens plus DisplayZoomTests' ZoomTable; marker colours from double11.yaml;
// grey values hand-worked (Rec. 709 on linear light). The rebuild, cache and dedup checks compare
// splashgen with itself (determinism), not with an outside oracle.
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashTestSupport
import Testing

@Suite struct BundleBuilderTests {
    /// The default encoding lays every object out as device-written launch snapshots are (§3): read
    /// here byte by byte from the table of docs/ios-launch-cache.md §3, not through splashgen's ATX reader.
    @Test func everySnapshotIsALaunchSnapshotInTheDeviceLayoutOfItsPixelSize() throws {
        let built = try Built.double11.get()
        #expect(built.manifest.campaigns[0].encoding == .atx)
        let snapshots = built.manifest.campaigns[0].snapshots
        #expect(snapshots.count == (22 + ZoomTable.newSizes.count + ZoomTable.sideLayoutScreens) * 2 * 2)
        #expect(built.report.snapshotsByFamily == [.iphone: (13 + ZoomTable.newSizes.count) * 4, .ipad: (9 + ZoomTable.sideLayoutScreens) * 4])
        func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        for snapshot in snapshots {
            let data = [UInt8](try built.object(snapshot))
            #expect(data.count == snapshot.bytes)
            #expect(sha256Hex(Data(data)) == snapshot.object)
            let w = snapshot.points.width * snapshot.scale, h = snapshot.points.height * snapshot.scale
            // A side-layout window is given as it shows, 375x1032 pt in landscape (§1); a screen portrait.
            let (width, height) = snapshot.orientation == .portrait || snapshot.screen != nil ? (w, h) : (h, w)
            #expect(snapshot.pixels == Manifest.Size(width: width, height: height))
            let head: [UInt32] = [1, 0, 0, 0, 0x93B0, 0x1908, UInt32(width), UInt32(height), 1, 0, 1, 1, 0, 1, 1]
            let expected: [UInt8] =
                Array("AAPL\r\n\u{1A}\n".utf8) + le(84) + Array("HEAD".utf8) + head.flatMap(le)
                + Array(repeating: 0x55, count: 16) + le(1) + le(5) + le(136) + Array("FILL".utf8) + Array(repeating: 0, count: 136)
            #expect(Array(data[0..<244]) == expected)
            let stream = data.count - 256 - 8
            #expect(Array(data[244..<256]) == le(UInt32(stream + 4)) + Array("LZFS".utf8) + le(UInt32(stream)))
            #expect(Array(data.suffix(8)) == le(0) + Array("END ".utf8))
            let blocks = try LZFSE.decompress(Array(data[256..<(256 + stream)]), limit: 1 << 26)
            #expect(blocks.count == ((width + 3) / 4) * ((height + 3) / 4) * 16)
        }
        // Flat launch art compresses as the OS's files do (the reference encoder's bvx2 streams,
        // ObjectStreamTests): the whole bundle is a few MB (issue 41: at most 3.6 MB; 6.0 MB with LZVN).
        #expect(built.report.bytes <= 3_600_000, "\(built.report.bytes) bytes")
    }

    @Test func everyKTXSnapshotIsAWellFormedKTXOfItsPixelSize() throws {
        let built = try Built.double11KTX.get()
        for snapshot in built.manifest.campaigns[0].snapshots {
            let data = try built.object(snapshot)
            #expect(data.count == snapshot.bytes)
            #expect(sha256Hex(data) == snapshot.object)
            let file = try KTXFile(parsing: data)
            let w = snapshot.points.width * snapshot.scale, h = snapshot.points.height * snapshot.scale
            let expected = snapshot.orientation == .portrait || snapshot.screen != nil ? (w, h) : (h, w)
            #expect((Int(file.pixelWidth), Int(file.pixelHeight)) == expected)
            #expect(file.glInternalFormat == 0x93B0 && file.glBaseInternalFormat == 0x1908)
            #expect(file.glType == 0 && file.glFormat == 0 && file.glTypeSize == 1)
            #expect(file.numberOfMipmapLevels == 1 && file.numberOfFaces == 1 && file.pixelDepth == 0 && file.numberOfArrayElements == 0)
            // Apple's compressed form by default: `Compression_APPLE`, the level an LZFSE stream of the blocks.
            #expect(file.isAppleCompressed && file.keyValues.map(\.key) == ["Compression_APPLE"])
            #expect(try file.astcBlocks().count == ((expected.0 + 3) / 4) * ((expected.1 + 3) / 4) * 16)
        }
        // As small as ATX (issue 41: within 1.2x), where plain KTX is 1 byte a pixel.
        let atx = try Built.double11.get()
        #expect(Double(built.report.bytes) <= 1.2 * Double(atx.report.bytes), "ktx \(built.report.bytes) bytes, atx \(atx.report.bytes)")
    }

    @Test func theMarkerSitsBottomRightInEachAppearanceAfterASTC() throws {
        let built = try Built.double11.get()
        for snapshot in built.manifest.campaigns[0].snapshots {
            let image = try built.decoded(snapshot)
            let corner = image[image.width - 1, image.height - 1]
            let want = snapshot.appearance == .light ? RGBAColor(r: 255, g: 255, b: 255) : RGBAColor(r: 0, g: 0, b: 0)
            let distance = [(corner.r, want.r), (corner.g, want.g), (corner.b, want.b)].map { abs(Int($0) - Int($1)) }.max()!
            #expect(distance <= 8, "\(snapshot.devices[0]) \(snapshot.orientation) \(snapshot.appearance): corner \(corner)")
            // And the applier's own rule reads it as what it is, after ASTC, over the red hero
            // (marker colours from double11.yaml: white in light, black in dark).
            let read = MarkerReading.appearance(
                of: image, scale: snapshot.scale, light: RGBAColor(r: 255, g: 255, b: 255), dark: RGBAColor(r: 0, g: 0, b: 0))
            #expect(read == snapshot.appearance, "\(snapshot.devices[0]) \(snapshot.orientation) \(snapshot.appearance) read as \(String(describing: read))")
        }
    }

    @Test func greyCampaignsHaveNoColourAtAll() throws {
        let built = try Built.mourning.get()
        #expect(built.manifest.campaigns[0].grey)
        for snapshot in built.manifest.campaigns[0].snapshots.prefix(8) {
            let image = try built.decoded(snapshot)
            var coloured = 0
            for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i] != image.pixels[i + 1] || image.pixels[i] != image.pixels[i + 2] {
                coloured += 1
            }
            #expect(coloured == 0, "\(snapshot.devices[0]) \(snapshot.orientation) \(snapshot.appearance)")
        }
    }

    @Test func greyIsLuminanceInLinearLight() {
        var image = RGBAImage(width: 3, height: 1, pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255])
        SnapshotRenderer.makeGrey(&image)
        // Rec. 709 weights on linear light, encoded back to sRGB: red 127, green 220, blue 76.
        #expect(image.pixels == [127, 127, 127, 255, 220, 220, 220, 255, 76, 76, 76, 255])
    }

    @Test func twoBuildsGiveIdenticalBytes() throws {
        let first = try Built.double11.get()
        let again = try BuiltBundle.build("double11.yaml", cache: false).get()
        #expect(again.report.rendered == again.report.uniqueObjects)
        #expect(try tree(first.report.bundle) == tree(again.report.bundle))
    }

    @Test func identicalSnapshotsAreStoredOnce() throws {
        // A 1179x2556 @1 screen draws exactly what the iPhone 15's 393x852 @3 does when there is no art.
        let yaml = """
            schema: 1
            name: twins
            app: {bundle_id: com.example.shop}
            schedule: {start: 2026-11-10T20:00:00+08:00, end: 2026-11-12T02:00:00+08:00}
            devices: ["iPhone 15", "Twin"]
            catalogue:
              - {name: Twin, family: ipad, points: {width: 1179, height: 2556}, scale: 1}
            appearances:
              light: {background: "#336699"}
            """
        let campaign = try CampaignLoader(catalogue: try DeviceCatalogue.bundled())
            .load(yaml: yaml, file: "twins.yaml", baseDirectory: temporaryFolder())
        let report = try BundleBuilder(outputRoot: temporaryFolder()).build(campaign)
        let snapshots = report.manifest.campaigns[0].snapshots
        #expect(snapshots.count == 2)
        #expect(snapshots[0].object == snapshots[1].object)
        #expect(report.uniqueObjects == 1 && report.rendered == 1)
        let objects = try FileManager.default.contentsOfDirectory(atPath: report.bundle.appendingPathComponent("objects").path)
        #expect(objects == [snapshots[0].object])
    }

    @Test func anUnchangedRebuildReusesEverythingAndAChangeRendersAgain() throws {
        let output = temporaryFolder()
        let folder = try scratchCopyOfGoodCampaign()
        let campaign = try loadCampaign(folder.appendingPathComponent("c.yaml"))
        let first = try BundleBuilder(outputRoot: output).build(campaign)
        let second = try BundleBuilder(outputRoot: output).build(campaign)
        #expect(first.rendered == 1 && first.reused == 0)
        #expect(second.rendered == 0 && second.reused == 1)
        #expect(first.manifest == second.manifest)
        // New art bytes mean a new recipe.
        let other = try PNGCodec.encode(RGBAImage(width: 20, height: 10, fill: RGBAColor(r: 1, g: 2, b: 3)))
        try other.write(to: folder.appendingPathComponent("logo.png"))
        let third = try BundleBuilder(outputRoot: output).build(try loadCampaign(folder.appendingPathComponent("c.yaml")))
        #expect(third.rendered == 1)
        #expect(third.manifest.campaigns[0].snapshots[0].object != first.manifest.campaigns[0].snapshots[0].object)
    }

    @Test func aFailedBuildLeavesThePreviousBundleUntouched() throws {
        let output = temporaryFolder()
        let folder = try scratchCopyOfGoodCampaign()
        let campaign = try loadCampaign(folder.appendingPathComponent("c.yaml"))
        let report = try BundleBuilder(outputRoot: output).build(campaign)
        let before = try tree(report.bundle)
        // Truncate the art: the header still reads, the pixels do not.
        let art = try Data(contentsOf: folder.appendingPathComponent("logo.png"))
        try art.prefix(art.count / 2).write(to: folder.appendingPathComponent("logo.png"))
        #expect(throws: CampaignError.self) { _ = try BundleBuilder(outputRoot: output).build(try loadCampaign(folder.appendingPathComponent("c.yaml"))) }
        #expect(try tree(report.bundle) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".staging") || $0.hasPrefix(".old") }
        #expect(leftovers.isEmpty)
    }

    @Test func anOutputFolderThatCannotBeWrittenIsNamed() throws {
        let blocker = temporaryFolder().appendingPathComponent("Output")
        try Data("a file, not a folder".utf8).write(to: blocker)
        let campaign = try loadCampaign(Fixtures.url("campaigns/good.yaml"))
        do {
            _ = try BundleBuilder(outputRoot: blocker).build(campaign)
            Issue.record("built into a file")
        } catch let error as BuildError {
            guard case .outputNotWritable(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.path == blocker.path)
            #expect(error.description.hasPrefix("cannot write the output folder \(blocker.path): "))
            // Foundation's own error is kept beneath it, and where splashgen raised it.
            #expect(failure.cause is CocoaError)
            #expect(failure.location.file == "SplashCore/BundleWriter.swift")
            #expect(failure.detailedDescription().contains("  cause: CocoaError: "))
        }
        #expect(try Data(contentsOf: blocker) == Data("a file, not a folder".utf8))
    }
}
