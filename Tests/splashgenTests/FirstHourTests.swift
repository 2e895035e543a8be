import Foundation
import SplashTestSupport
import Testing

/// The first hour of a new user (issue 28): the README's quickstart, run as written right after the
/// two commands, and the small commands people expect.
@Suite struct FirstHourTests {
    let cli = CommandLineTests()

    /// The README's quickstart block, run as written (with the clone's debug binary for the alias and
    /// a scratch folder for `/tmp/phone` and `Output/`): every command exits 0, and every line the
    /// README shows is a line it printed ("…" stands for any text).
    @Test func theQuickstartRunsAsWrittenRightAfterTheTwoCommands() throws {
        let readme = ReadmeFactsTests.readme
        let start = try #require(readme.range(of: "## Quickstart"))
        let fence = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: fence.upperBound..<readme.endIndex))
        let folder = cli.temporaryFolder()
        try FileManager.default.copyItem(at: CommandLineTests.repo.appendingPathComponent("campaigns"), to: folder.appendingPathComponent("campaigns"))
        let phone = folder.appendingPathComponent("phone").path
        var printed: [String] = []
        var commands = 0
        func check(_ expected: [String], against printed: [String], after command: String) {
            for line in expected where line.trimmingCharacters(in: .whitespaces) != "…" {
                let pattern = "^" + NSRegularExpression.escapedPattern(for: line).replacingOccurrences(of: "…", with: ".*") + "$"
                let found = printed.contains { $0.range(of: pattern, options: .regularExpression) != nil }
                #expect(found, "after `\(command)` the README shows \"\(line)\", which it did not print:\n\(printed.joined(separator: "\n"))")
            }
        }
        var expected: [String] = []
        var last = ""
        for line in readme[fence.upperBound..<end.lowerBound].split(separator: "\n").map(String.init) {
            guard line.hasPrefix("$ ") else {
                expected.append(line)
                continue
            }
            check(expected, against: printed, after: last)
            expected = []
            last = line
            var words = String(line.dropFirst(2).split(separator: "#")[0]).replacingOccurrences(of: "/tmp/phone", with: phone)
                .split(separator: " ").map(String.init)
            guard words.first == "splashgen" else {
                #expect(line.hasPrefix("$ alias splashgen=\"$PWD/.build/debug/splashgen\""), "\(line)")
                continue
            }
            words.removeFirst()
            let run = try runProcess(CommandLineTests.binary, words, in: folder)
            #expect(run.status == 0, "`\(line)` exited \(run.status): \(run.stderr)")
            printed = (run.stdout + run.stderr).split(separator: "\n").map(String.init)
            commands += 1
        }
        check(expected, against: printed, after: last)
        #expect(commands == 8)
    }

    /// `sim restore` runs the app's restore with what the sandbox knows (issue 28, C7): no
    /// `--app-version` or `--app-build`, and the originals are back.
    @Test func simRestoreNeedsNothingTheSandboxKnows() throws {
        let folder = cli.temporaryFolder()
        let bundle = try cli.smallBundle(in: folder)
        let sandbox = folder.appendingPathComponent("phone").path
        #expect(try cli.splashgen("sim", "install", "--sandbox", sandbox, "--app-version", "5.2", "--app-build", "100").status == 0)
        let snapshots = folder.appendingPathComponent("phone/container/Library/SplashBoard/Snapshots/com.example.shop - {DEFAULT GROUP}")
        func files() throws -> [String: Data] {
            try Dictionary(
                uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: snapshots.path).map {
                    ($0, try Data(contentsOf: snapshots.appendingPathComponent($0)))
                })
        }
        let originals = try files()
        let now = "2026-11-10T21:00:00+08:00"
        #expect(try cli.splashgen("sim", "launch", "--sandbox", sandbox, "--bundle", bundle.path, "--now", now).status == 0)
        #expect(try files() != originals)
        let restore = try cli.splashgen("sim", "restore", "--sandbox", sandbox)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.hasPrefix("app ran the applier's restore:\n"), "\(restore.stdout)")
        #expect(try files() == originals)
    }

    /// bundles.yml's signing step (scripts/sign-release.sh) without its secret, or in a repository
    /// without the root key the apps pin (a copy of the script in a folder of its own): it stops at
    /// once, naming what is missing, before anything is signed or written.
    @Test(arguments: [
        ("SIGNING_KEY_TEXT=", "::error::sign-release: SIGNING_KEY_TEXT is empty: set the secret SPLASHGEN_SIGNING_KEY of the release environment"),
        ("SIGNING_KEY_TEXT=ed25519-private x", "::error::sign-release: keys/root.pub is missing: commit the public key the apps pin"),
    ])
    func theSigningStepNamesWhatIsMissing(_ setting: String, _ message: String) throws {
        let workflow = ReadmeFactsTests.document(".github/workflows/bundles.yml")
        #expect(workflow.contains("run: scripts/sign-release.sh .build/release/splashgen unsigned signed"))
        let folder = cli.temporaryFolder()
        let script = folder.appendingPathComponent("repository/scripts/sign-release.sh")
        try FileManager.default.createDirectory(at: script.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CommandLineTests.repo.appendingPathComponent("scripts/sign-release.sh"), to: script)
        let out = folder.appendingPathComponent("signed")
        let run = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["-i", "PATH=/usr/bin:/bin", setting, "bash", script.path, "/bin/false", folder.path, out.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix(message), "\(run.stdout)\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}

extension CommandLineTests {
    /// A small bundle (the app's own screen, one device) built under `folder/Output`; its folder.
    func smallBundle(in folder: URL, name: String = "own") throws -> URL {
        let campaign = folder.appendingPathComponent("\(name).yaml")
        let text = try String(contentsOf: Self.repo.appendingPathComponent("campaigns/default.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "name: default", with: "name: \(name)")
            .replacingOccurrences(of: "orientations:", with: "devices: [\"iPhone 15\"]\norientations:")
            .replacingOccurrences(of: "art/", with: Self.repo.path + "/campaigns/art/")
        try Data(text.utf8).write(to: campaign)
        let run = try splashgen("build", campaign.path, "-o", folder.appendingPathComponent("Output").path)
        #expect(run.status == 0, "\(run.stderr)")
        return folder.appendingPathComponent("Output/\(name)")
    }
}
