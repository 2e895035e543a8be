import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashTestSupport
import Testing

/// The sign-off page, opened by a real browser: Debian's Chromium, headless, loads `index.html`
/// from disk and screenshots it. What must show comes from the campaign file (its colours) and
/// from Apple's geometry (the island), not from the code that drew the page.
@Suite(.serialized) struct PreviewPageTests {
    static let light = RGBAColor(r: 0x33, g: 0x66, b: 0xCC), dark = RGBAColor(r: 0xCC, g: 0x66, b: 0x33)

    /// Chromium's headless screenshot of `page`, decoded.
    func screenshot(_ page: URL, width: Int = 1200, height: Int = 2000) throws -> RGBAImage {
        // $CHROMIUM first, then Debian's, then a Mac's Chrome or Chromium.
        let candidates = [
            ProcessInfo.processInfo.environment["CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium",
        ].compactMap { $0 }
        let chromium = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "Chromium is not installed: `make deps` installs Debian's chromium package (on a Mac: Chrome in /Applications, or CHROMIUM=path)")
        let work = temporaryFolder("chromium")
        defer { try? FileManager.default.removeItem(at: work) }
        let shot = work.appendingPathComponent("shot.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(work.appendingPathComponent("profile").path)", "--window-size=\(width),\(height)",
            "--screenshot=\(shot.path)", page.absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try PNGCodec.decode(try Data(contentsOf: shot))
    }

    func count(_ image: RGBAImage, _ match: (RGBAColor) -> Bool) -> Int {
        var n = 0
        for y in 0..<image.height { for x in 0..<image.width where match(image[x, y]) { n += 1 } }
        return n
    }

    func near(_ a: RGBAColor, _ b: RGBAColor) -> Bool { abs(Int(a.r) - Int(b.r)) <= 2 && abs(Int(a.g) - Int(b.g)) <= 2 && abs(Int(a.b) - Int(b.b)) <= 2 }

    func page(overlays: Bool) throws -> URL {
        let bundle = try plainBundle(device: "iPhone 15", light: "#3366CC", dark: "#CC6633")
        let sheet = try ContactSheet.render(
            try BundleFiles(bundle), font: try TextRenderer.standard(), catalogue: try DeviceCatalogue.bundled(),
            options: ContactSheet.Options(overlays: overlays, pointImages: true))
        let index = temporaryFolder("page").appendingPathComponent("preview/index.html")
        try PreviewPage.write(sheet, to: index)
        return index
    }

    @Test func chromiumShowsEverySnapshotWithItsOverlays() throws {
        let index = try page(overlays: true)
        let folder = index.deletingLastPathComponent()
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let assets = try #require(listing.first { $0.hasPrefix("index-files-") })
        #expect(Set(listing) == ["index.html", assets])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(assets).path)
        #expect(files.count == 5, "the sheet and four snapshots")
        let html = try String(contentsOf: index, encoding: .utf8)
        #expect(html.contains("<b>iPhone 15</b>"))
        // The fixture's window as written (Beijing time, +08:00), then the same instants in UTC.
        #expect(html.contains("2026-11-10T20:00:00+08:00 to 2026-11-12T02:00:00+08:00; 2026-11-10T12:00:00Z to 2026-11-11T18:00:00Z"))
        #expect(!html.contains("http"))

        let shot = try screenshot(index)
        // Each portrait figure shows 196.5 × 426 CSS px of the snapshot (one image pixel per
        // point, shown at half); ≥ 60 000 px of each colour means the images loaded, not alt text.
        #expect(count(shot) { near($0, Self.light) } >= 60_000)
        #expect(count(shot) { near($0, Self.dark) } >= 60_000)
        // The island, 126 × 37.33 pt, is 63 × 18.7 CSS px per figure: 4 figures hold ≥ 3 000
        // pure black pixels. Nothing else on the page is pure black (text is #121212).
        #expect(count(shot) { $0.r == 0 && $0.g == 0 && $0.b == 0 } >= 3_000)
    }

    @Test func withoutOverlaysNothingIsBlack() throws {
        let shot = try screenshot(try page(overlays: false))
        #expect(count(shot) { near($0, Self.light) } >= 60_000)
        #expect(count(shot) { $0.r == 0 && $0.g == 0 && $0.b == 0 } < 100)
    }

    @Test func writingAgainReplacesOnlyThePagesOwnFiles() throws {
        let index = try page(overlays: true)
        let folder = index.deletingLastPathComponent()
        // Someone else's files beside the page: never touched.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("screens"), withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("screens/keep.json"))
        try Data("mine".utf8).write(to: folder.appendingPathComponent("sheet.png"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("index-files-") }
        let bundle = try plainBundle(device: "iPhone 15", light: "#3366CC", dark: "#CC6633", orientations: "[portrait]")
        let sheet = try ContactSheet.render(
            try BundleFiles(bundle), font: try TextRenderer.standard(), catalogue: try DeviceCatalogue.bundled(),
            options: ContactSheet.Options(pointImages: true))
        try PreviewPage.write(sheet, to: index)
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let assets = after.filter { $0.hasPrefix("index-files-") }
        #expect(assets.count == 1 && assets != before, "the earlier writing's folder is gone, the new one named by the page")
        #expect(try String(contentsOf: index, encoding: .utf8).contains("src=\"\(assets[0])/sheet.png\""))
        #expect(try Data(contentsOf: folder.appendingPathComponent("screens/keep.json")) == Data("mine".utf8))
        #expect(try Data(contentsOf: folder.appendingPathComponent("sheet.png")) == Data("mine".utf8))
        #expect(throws: OutputFile.Refusal.folder(folder.appendingPathComponent("screens").path, example: "index.html")) {
            try PreviewPage.write(sheet, to: folder.appendingPathComponent("screens"))
        }
    }

    /// `inline`: one file a designer can mail, every image inside it and no folder beside it; too
    /// large a page is refused by name, nothing written (issue 28, A3).
    @Test func anInlinePageIsOneFileWithItsImagesInside() throws {
        let folder = temporaryFolder()
        let page = folder.appendingPathComponent("index.html")
        let bundle = try plainBundle(device: "iPhone 15", light: "#3366CC", dark: "#CC6633", orientations: "[portrait]")
        let sheet = try ContactSheet.render(
            try BundleFiles(bundle), font: try TextRenderer.standard(), catalogue: try DeviceCatalogue.bundled(),
            options: ContactSheet.Options(pointImages: true))
        try PreviewPage.write(sheet, to: page, inline: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["index.html"])
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == sheet.tiles.count + 2, "the sheet and every snapshot")
        var big = sheet
        big.pointImages = sheet.pointImages.map { _ in Data(count: PreviewPage.inlineLimit / 2) }
        let other = folder.appendingPathComponent("big.html")
        #expect(throws: PreviewPageError.self) { try PreviewPage.write(big, to: other, inline: true) }
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    /// The header's "app versions" never contradicts a campaign's row (issue 28, A4): a bundle for
    /// all versions whose campaign starts at 5.0 says so.
    @Test func theHeadersVersionsSayWhenACampaignNarrowsThem() throws {
        var manifest = try Manifest.decode(
            from: Data(contentsOf: try plainBundle(device: "iPhone 15", light: "#FFFFFF", dark: "#000000").appendingPathComponent("manifest.json")))
        #expect(PreviewPage.versionFact(manifest) == ("app versions", "all"))
        manifest.campaigns[0].minVersion = "5.0"
        #expect(PreviewPage.versionFact(manifest) == ("app versions", "all for the bundle; plain narrows it (see the campaigns below)"))
        #expect(PreviewPage.versions("5.0", nil) == "from 5.0")
    }

    @Test func textIsEscaped() {
        #expect(PreviewPage.escape("<b>\"Tom\" & 'Jerry'</b>") == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;")
    }
}
