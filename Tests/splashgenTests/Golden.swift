import Foundation
import SplashImaging
import SplashTestSupport
import Testing

/// Golden files: what the CLI prints and writes, kept under `Tests/splashgenTests/Goldens/` and
/// compared byte for byte. `RECORD_GOLDENS=1 swift test` writes them anew and fails every test that
/// recorded one, so a recording is never mistaken for a pass: review the diff, then run again.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    /// Compares `actual` with the golden file `name`, or records it. With `encodedBytes`, the golden
    /// also pins what the Linux imaging backend encodes (object hashes and sizes): each backend is
    /// reproducible but the two differ in bytes, so elsewhere those values are compared masked.
    static func check(_ actual: String, _ name: String, encodedBytes: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if recording {
            try Data(actual.utf8).write(to: url)
            Issue.record("recorded \(name); check `git diff Tests/splashgenTests/Goldens`, then run without RECORD_GOLDENS", sourceLocation: sourceLocation)
            return
        }
        guard let golden = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no golden file \(name): run `RECORD_GOLDENS=1 swift test --filter GoldenTests` to make it", sourceLocation: sourceLocation)
            return
        }
        let masked = encodedBytes && ImagingBackend.name != "linux"
        let (actual, expected) = masked ? (maskingEncodedBytes(actual), maskingEncodedBytes(golden)) : (actual, golden)
        guard actual != expected else { return }
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false), e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
        Issue.record(
            """
            \(name) differs from its golden file at line \(line + 1):
              golden: \(line < e.count ? String(e[line]) : "(end)")
              actual: \(line < a.count ? String(a[line]) : "(end)")
            (RECORD_GOLDENS=1 records the new output once it is right)
            """, sourceLocation: sourceLocation)
    }

    /// `text` with every SHA-256 in hex and every `"bytes" : N` of a manifest masked.
    static func maskingEncodedBytes(_ text: String) -> String {
        text.replacing(/[0-9a-f]{64}/, with: "<sha256>").replacing(/"bytes" : [0-9]+/, with: "\"bytes\" : <n>")
    }
}

/// The CLI's outputs against their golden files: the catalogue, `inspect` of each container the
/// OS writes, a built manifest, and the art warnings.
@Suite struct GoldenTests {
    let cli = CommandLineTests()

    @Test func devicesListAndJSON() throws {
        try Golden.check(try cli.splashgen("devices").stdout, "devices.txt")
        try Golden.check(try cli.splashgen("devices", "--json").stdout, "devices.json")
    }

    @Test(arguments: ["atx-lzfs.ktx", "atx-raw.ktx", "launch-lzfs.ktx", "tiles-morton-y.ktx", "ktx-apple.ktx", "ktx-plain.ktx", "scene.png"])
    func inspect(_ file: String) throws {
        let run = try cli.splashgen("inspect", "Tests/SplashCoreTests/Fixtures/snapshots/" + file)
        #expect(run.status == 0, "\(run.stderr)")
        try Golden.check(run.stdout, "inspect-\(file).txt")
    }

    @Test func builtManifest() throws {
        // good.yaml: iPhone 15, portrait, light, KTX: one object whose hash pins libpng's, the
        // resampler's and astcenc's output (on the Linux backend), and the manifest's every field.
        let output = cli.temporaryFolder().appendingPathComponent("Output")
        let run = try cli.splashgen("build", "Tests/SplashCoreTests/Fixtures/campaigns/good.yaml", "-o", output.path, "--no-cache")
        #expect(run.status == 0, "\(run.stderr)")
        try Golden.check(try String(contentsOf: output.appendingPathComponent("good/manifest.json"), encoding: .utf8), "good-manifest.json", encodedBytes: true)
    }

    /// The shipped campaigns are what `make run` builds first: no warning a newcomer meets unexplained (issue 28, A2).
    @Test func theShippedCampaignsValidateWithoutAWarning() throws {
        let run = try cli.splashgen("validate", "campaigns/double11.yaml", "campaigns/default.yaml")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        try Golden.check(run.stdout + "--- stderr\n" + run.stderr, "validate-shipped.txt")
    }
}
