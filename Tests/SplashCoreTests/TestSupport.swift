// Expectations: none here; test support: fixture paths, scratch campaigns, PSNR, plain bundles.
import Foundation
import SplashCore
import SplashFormat
import SplashTestSupport
import Testing

/// Fixture files shipped with the tests.
enum Fixtures {
    static let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
    static let campaigns = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../campaigns").standardizedFileURL
}

/// A scratch folder holding `c.yaml` (the `good.yaml` fixture) and its `logo.png`, free to damage.
func scratchCopyOfGoodCampaign() throws -> URL {
    let folder = temporaryFolder()
    try FileManager.default.copyItem(at: Fixtures.url("campaigns/good.yaml"), to: folder.appendingPathComponent("c.yaml"))
    try FileManager.default.copyItem(at: Fixtures.url("campaigns/logo.png"), to: folder.appendingPathComponent("logo.png"))
    return folder
}

/// Loads a campaign with the bundled catalogue.
func loadCampaign(_ url: URL) throws -> Campaign {
    try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: url, displayPath: url.lastPathComponent)
}

/// Peak signal-to-noise ratio of the colour channels, in dB (infinity when identical).
/// Images of different sizes are a failure recorded where it is called, and compare as -infinity.
func psnr(_ a: RGBAImage, _ b: RGBAImage, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Double {
    guard a.width == b.width && a.height == b.height else {
        Issue.record("psnr of a \(a.width)x\(a.height) image against a \(b.width)x\(b.height) one", sourceLocation: sourceLocation)
        return -.infinity
    }
    var sum = 0.0
    var count = 0
    a.pixels.withUnsafeBufferPointer { p in
        b.pixels.withUnsafeBufferPointer { q in
            var i = 0
            while i < p.count {
                for c in 0..<3 {
                    let d = Double(p[i + c]) - Double(q[i + c])
                    sum += d * d
                }
                count += 3
                i += 4
            }
        }
    }
    let mse = sum / Double(count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Every file below `root`, by relative path, with its bytes.
func tree(_ root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
    for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
        files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))] = try Data(contentsOf: url)
    }
    return files
}

/// A PNG-encoded campaign file for tests (PNG so every pixel is exact), with `appearances` as
/// its YAML block, written into `folder` as `<name>.yaml`.
func writeTestCampaign(
    _ name: String, in folder: URL, devices: String, orientations: String = "[portrait, landscape]", extra: String = "",
    appearances: String
) throws -> URL {
    let yaml = """
        schema: 1
        name: \(name)
        app: {bundle_id: com.example.shop}
        schedule: {start: 2026-11-10T20:00:00+08:00, end: 2026-11-12T02:00:00+08:00}
        encoding: png
        orientations: \(orientations)
        devices: [\(devices)]
        marker: {size: 1}\(extra)
        appearances:
        \(appearances)
        """
    let url = folder.appendingPathComponent("\(name).yaml")
    try Data(yaml.utf8).write(to: url)
    return url
}

/// A bundle of plain backgrounds (no art) for one device: a snapshot's expected colour is the
/// YAML's, whatever the drawing code does.
func plainBundle(
    device: String, light: String, dark: String, orientations: String = "[portrait, landscape]", encoding: SnapshotEncoding = .png
) throws -> URL {
    let file = try writeTestCampaign(
        "plain", in: temporaryFolder(), devices: "\"\(device)\"", orientations: orientations, extra: "\ndisplay_zoom: false",
        appearances: "  light: {background: \"\(light)\"}\n  dark: {background: \"\(dark)\"}")
    var campaign = try loadCampaign(file)
    campaign.encoding = encoding
    return try BundleBuilder(outputRoot: temporaryFolder()).build(campaign).bundle
}
