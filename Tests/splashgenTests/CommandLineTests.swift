import Foundation
import Testing

/// Runs the built `splashgen` binary and checks what a user sees: output, errors, exit codes.
@Suite struct CommandLineTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("splashgen")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func splashgen(_ arguments: String..., in directory: URL = repo) throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashgen-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func buildWritesTheBundleAndPrintsASummary() throws {
        let output = temporaryFolder().appendingPathComponent("Output")
        let run = try splashgen("build", "campaigns/default.yaml", "-o", output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "default: wrote \(output.path)/default/")
        #expect(lines.contains("  snapshots  88 (iphone 52, ipad 36) for 22 screen sizes"))
        #expect(lines.contains { $0.hasPrefix("  objects    88 unique, ") && $0.hasSuffix("88 rendered, 0 reused from cache") })
        #expect(run.stderr.isEmpty, "progress is drawn only on a terminal")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("default/manifest.json").path))

        let again = try splashgen("build", "campaigns/default.yaml", "-o", output.path)
        #expect(again.stdout.contains("0 rendered, 88 reused from cache"))
    }

    @Test func aBadCampaignPrintsCompilerStyleErrorsAndWritesNothing() throws {
        let output = temporaryFolder().appendingPathComponent("Output")
        let fixture = "Tests/SplashCoreTests/Fixtures/campaigns/bad-fit.yaml"
        let run = try splashgen("build", fixture, "-o", output.path)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "\(fixture):16:14: error: appearances.dark.layers[1].fit: expected one of fill, fit, none; found \"cover\"\n")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func validateChecksWithoutBuilding() throws {
        let ok = try splashgen("validate", "campaigns/double11.yaml", "campaigns/mourning.yaml")
        #expect(ok.status == 0)
        #expect(ok.stdout == "campaigns/double11.yaml: ok (double11: 88 snapshots)\ncampaigns/mourning.yaml: ok (mourning: 88 snapshots)\n")
        let bad = try splashgen("validate", "Tests/SplashCoreTests/Fixtures/campaigns/truncated-png.yaml")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("truncated-png.yaml:13:16: error: appearances.light.layers[0].image: \"../png/truncated.png\": truncated or corrupt PNG"))
    }

    @Test func inspectAndDecodeReadWhatBuildWrote() throws {
        let folder = temporaryFolder()
        let output = folder.appendingPathComponent("Output")
        #expect(try splashgen("build", "Tests/SplashCoreTests/Fixtures/campaigns/good.yaml", "-o", output.path).status == 0)
        let objects = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("good/objects").path)
        let object = output.appendingPathComponent("good/objects/" + objects[0]).path

        let inspect = try splashgen("inspect", object)
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("  size                          1179x2556\n"))
        #expect(inspect.stdout.contains("  glInternalFormat              ASTC 4x4 RGBA (0x93B0)\n"))
        #expect(inspect.stdout.contains("  level 0 bytes                 3016080\n"))

        let png = folder.appendingPathComponent("out.png").path
        let decode = try splashgen("decode", object, "-o", png)
        #expect(decode.status == 0)
        #expect(decode.stdout == "\(png): 1179x2556\n")
        let again = try splashgen("inspect", png)
        #expect(again.stdout.contains("  format                        PNG\n") && again.stdout.contains("1179x2556"))

        let notASnapshot = try splashgen("inspect", "campaigns/double11.yaml")
        #expect(notASnapshot.status == 1)
        #expect(notASnapshot.stderr == "error: campaigns/double11.yaml: not a snapshot file: neither KTX, ATX, PNG nor JPEG\n")
    }

    @Test func devicesListsTheCatalogue() throws {
        let run = try splashgen("devices")
        #expect(run.status == 0)
        #expect(run.stdout.contains("iPhone 14 Pro, iPhone 15, iPhone 15 Pro, iPhone 16"))
        #expect(run.stdout.hasSuffix("79 devices, 22 screen sizes\n"))
    }
}
