// Expectations: docs/ios-launch-cache.md §8 (22 screens + 3 Display Zoom sizes = 25, ×2×2 = 100),
// the §3 layout, hand arithmetic (295×639×16 = 3016080 bytes), the fixtures' schedules, Apple's
// iPhone 15 size; the wording and exit codes are the CLI's spec. Publish serials are bounded by
// Publisher.clockSerial() itself (the code under test).
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashSimulator
import SplashTestSupport
import Testing

/// Runs the built `splashgen` binary and checks what a user sees: output, errors, exit codes.
@Suite struct CommandLineTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("splashgen")
    }

    typealias Run = ProcessRun

    func splashgen(_ arguments: String..., in directory: URL = repo) throws -> Run {
        try runProcess(Self.binary, arguments, in: directory)
    }

    func temporaryFolder() -> URL { SplashTestSupport.temporaryFolder("cli") }

    @Test func buildWritesTheBundleAndPrintsASummary() throws {
        let output = temporaryFolder().appendingPathComponent("Output")
        let run = try splashgen("build", "campaigns/default.yaml", "-o", output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "default: wrote \(output.path)/default/")
        // The 22 screen sizes of docs/ios-launch-cache.md §8 (13 iPhone, 9 iPad), the Display Zoom sizes no model has
        // as its standard screen (1125x2001, 960x2079, 750x1624) and the 13-inch iPad Pros' side-layout window (§1),
        // × 2 orientations × 2 appearances.
        #expect(lines.contains("  snapshots  104 (iphone 64, ipad 40) for 26 screen sizes"))
        #expect(lines.contains { $0.hasPrefix("  objects    104 unique, ") && $0.hasSuffix("104 rendered, 0 reused from cache") })
        #expect(run.stderr.isEmpty, "progress is drawn only on a terminal")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("default/manifest.json").path))

        let again = try splashgen("build", "campaigns/default.yaml", "-o", output.path)
        #expect(again.stdout.contains("0 rendered, 104 reused from cache"))
    }

    @Test func campaignsNamedTogetherBuildOneSeasonThatPublishesWithAGrowingSerial() throws {
        let scratch = temporaryFolder()
        let output = scratch.appendingPathComponent("Output")
        let folder = "Tests/SplashCoreTests/Fixtures/seasons"
        let run = try splashgen("build", "\(folder)/own.yaml", "\(folder)/sale-a.yaml", "--bundle", "shop", "-o", output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "shop: wrote \(output.path)/shop/")
        // Times echoed in the offset the files wrote them with.
        #expect(lines.contains("  campaign   own: 2026-01-01T00:00:00+08:00 → no end, priority 0, all versions"))
        #expect(lines.contains("  campaign   sale-a: 2026-11-10T20:00:00+08:00 → 2026-11-12T02:00:00+08:00, priority 5, all versions"))

        let overlap = try splashgen("build", "\(folder)/overlap.yaml", "-o", output.path)
        #expect(overlap.status == 1)
        #expect(
            overlap.stderr
                == "\(folder)/sale-b.yaml:6:3: error: schedule: sale-b and sale-a (\(folder)/sale-a.yaml:6) overlap with the same priority 5 on iPhone 15; give the one that should show a higher priority\n"
        )
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("overlap").path))

        let key = scratch.appendingPathComponent("key").path, tree = scratch.appendingPathComponent("tree").path
        #expect(try splashgen("keygen", "-o", key).status == 0)
        // The serial is the clock's (seconds since 1970, or SOURCE_DATE_EPOCH when the environment
        // sets it), and one more than the tree holds when that is greater.
        func serial(_ run: Run) -> Int? {
            run.stdout.split(separator: ",").first.flatMap { Int($0.replacingOccurrences(of: "\(tree): serial ", with: "")) }
        }
        let clock = try Publisher.clockSerial()
        let first = try splashgen("publish", output.appendingPathComponent("shop").path, "-o", tree, "--signing-key", key)
        #expect(first.status == 0 && first.stdout.contains(", 1 screen slices, 2 objects ("), "\(first.stdout)\(first.stderr)")
        let held = try #require(serial(first))
        #expect((clock...(try Publisher.clockSerial())).contains(held))
        let replay = try splashgen("publish", output.appendingPathComponent("shop").path, "-o", tree, "--signing-key", key, "--serial", "1")
        #expect(replay.status == 1 && replay.stderr.contains("serial 1 is not greater than the \(held) the tree already holds"))
        let before = try Publisher.clockSerial()
        let second = try splashgen("publish", output.appendingPathComponent("shop").path, "-o", tree, "--signing-key", key)
        let next = try #require(serial(second), "\(second.stdout)")
        #expect((max(held + 1, before)...max(held + 1, try Publisher.clockSerial())).contains(next))
        // SOURCE_DATE_EPOCH set but empty (CI whose git gave no commit time): refused, the tree untouched (issue 24).
        let unset = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["SOURCE_DATE_EPOCH=", Self.binary.path, "publish", output.appendingPathComponent("shop").path, "-o", tree, "--signing-key", key])
        #expect(
            unset.status == 1
                && unset.stderr
                    == "error: \(output.path)/shop: SOURCE_DATE_EPOCH is set but empty; the serial must be the commit's time (git log -1 --format=%ct), or unset SOURCE_DATE_EPOCH to publish at the clock's time\n",
            "\(unset.stderr)")
        let kept = try Manifest.decode(from: Data(contentsOf: URL(fileURLWithPath: tree).appendingPathComponent("manifest.json")))
        #expect(kept.serial == next)

        // --signing-key and --public-key (issue 42); --key, the old spelling of both, still works for
        // one release, with a warning, and never beside the new one.
        let shop = output.appendingPathComponent("shop").path
        let signed = try splashgen("sign", shop, "--key", key)
        #expect(signed.status == 0 && signed.stderr == "warning: --key is deprecated here: write --signing-key (--key goes in the next release)\n")
        let verified = try splashgen("verify", shop, "--public-key", key + ".pub")
        #expect(verified.status == 0 && verified.stderr.isEmpty && verified.stdout.contains("signature valid"), "\(verified.stdout)\(verified.stderr)")
        let old = try splashgen("verify", shop, "--key", key + ".pub")
        #expect(old.status == 0 && old.stderr == "warning: --key is deprecated here: write --public-key (--key goes in the next release)\n")
        let both = try splashgen("verify", shop, "--key", key + ".pub", "--public-key", key + ".pub")
        #expect(both.status != 0 && both.stderr.contains("give --public-key once (--key is its old spelling)"), "\(both.stderr)")
        let unsignedCommand = try splashgen("sign", shop)
        #expect(unsignedCommand.status != 0 && unsignedCommand.stderr.contains("sign needs --signing-key, the private key file from keygen"))
    }

    @Test func devicesJSONSuggestionsAndFileErrorsReadAsAPersonWouldWant() throws {
        let devices = try splashgen("devices", "--json")
        let screens = try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]] ?? []
        // 22 screen sizes of the iOS facts' table (docs/ios-launch-cache.md §8), the 3 Display Zoom sizes no model has as
        // standard, the 13-inch iPad Pros' side-layout window and an iPhone app's 320x480 on the smaller iPads (§1).
        #expect(screens.count == 27)
        let iPhone15 = screens.first { ($0["devices"] as? [String])?.contains("iPhone 15") == true }
        #expect((iPhone15?["pixels"] as? [String: Int]) == ["width": 1179, "height": 2556])

        let typo = try splashgen("fetch", "http://127.0.0.1:9/", "--into", temporaryFolder().path, "--device", "iPhone15")
        #expect(typo.status != 0 && typo.stderr.contains("unknown device \"iPhone15\"; did you mean 'iPhone 15'?"))

        let missing = temporaryFolder().appendingPathComponent("no-such-folder/key").path
        let keygen = try splashgen("keygen", "-o", missing)
        #expect(keygen.status == 1 && keygen.stderr == "error: \(missing): no such file or directory\n")
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

    /// Two files whose bundles share a name would both write `Output/<name>/`, the second replacing
    /// the first: refused at the second's `name:` (line 4: a comment line before double11.yaml's line 3),
    /// before anything is built.
    @Test func twoFilesWhoseBundlesShareANameAreRefusedAndNothingIsWritten() throws {
        let folder = temporaryFolder()
        let output = folder.appendingPathComponent("Output")
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("campaigns/art"), to: folder.appendingPathComponent("art"))
        let text = try String(contentsOf: Self.repo.appendingPathComponent("campaigns/double11.yaml"), encoding: .utf8)
        try text.write(to: folder.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try ("# the same name again\n" + text).write(to: folder.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
        let run = try splashgen("build", "a.yaml", "b.yaml", "-o", output.path, in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("b.yaml:4:7: error: name: the bundle name double11 is already a.yaml's; both would write"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// `validate --bundle` checks what `build --bundle` would: the files as one season, so two
    /// campaigns of one name are refused at the second's `name:` (line 3 of double11.yaml).
    @Test func validateWithABundleChecksTheFilesAsOneSeason() throws {
        let folder = temporaryFolder()
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("campaigns/art"), to: folder.appendingPathComponent("art"))
        for name in ["double11.yaml", "mourning.yaml"] {
            try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("campaigns/" + name), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("double11.yaml"), to: folder.appendingPathComponent("again.yaml"))
        let twin = try splashgen("validate", "double11.yaml", "again.yaml", "--bundle", "two", in: folder)
        #expect(twin.status == 1)
        #expect(twin.stderr.contains("again.yaml:3:7: error: name: the name double11 is already used by double11.yaml"), "\(twin.stderr)")
        let pair = try splashgen("validate", "double11.yaml", "mourning.yaml", "--bundle", "two", in: folder)
        #expect(pair.status == 0)
        #expect(pair.stdout == "double11.yaml mourning.yaml: ok (double11: 104 snapshots, mourning: 104 snapshots)\n")
        // Without --bundle each file is its own bundle, and the twins validate apart.
        #expect(try splashgen("validate", "double11.yaml", "again.yaml", in: folder).status == 0)
    }

    @Test func validateChecksWithoutBuilding() throws {
        let ok = try splashgen("validate", "campaigns/double11.yaml", "campaigns/mourning.yaml")
        #expect(ok.status == 0)
        #expect(ok.stdout == "campaigns/double11.yaml: ok (double11: 104 snapshots)\ncampaigns/mourning.yaml: ok (mourning: 104 snapshots)\n")
        let bad = try splashgen("validate", "Tests/SplashCoreTests/Fixtures/campaigns/truncated-png.yaml")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("truncated-png.yaml:13:16: error: appearances.light.layers[0].image: \"../png/truncated.png\": truncated or corrupt PNG"))
    }

    @Test func validateChecksEveryCampaignOfASeasonWhateverAnEarlierOneFound() throws {
        let folder = temporaryFolder()
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("bad.png"))
        for (name, priority) in [("a", 1), ("b", 2)] {
            try """
            schema: 1
            name: \(name)
            app: {bundle_id: com.example.shop}
            schedule: {start: 2026-11-10T20:00:00+08:00}
            priority: \(priority)
            devices: ["iPhone 15"]
            appearances:
              light:
                background: "#FFFFFF"
                layers:
                  - image: bad.png
            """.write(to: folder.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        try "schema: 1\nname: both\ncampaigns: [a.yaml, b.yaml]\n".write(to: folder.appendingPathComponent("season.yaml"), atomically: true, encoding: .utf8)
        let run = try splashgen("validate", "season.yaml", in: folder)
        #expect(run.status == 1 && run.stdout.isEmpty)
        // Both campaigns' art is named, each at its own file's line 11.
        #expect(run.stderr.contains("a.yaml:11:16: error:") && run.stderr.contains("b.yaml:11:16: error:"), "\(run.stderr)")
    }

    @Test func artWarningsPrintLikeACompilersAndStrictMakesThemErrorsThatWriteNothing() throws {
        // A 40×40 PNG filled on the iPhone 15 (1179×2556): enlarged 2556 / 40 = 63.9×, and
        // 1 − 1179 / 2556 = 54 % of it cut off.
        let folder = temporaryFolder()
        try PNGCodec.encode(RGBAImage(width: 40, height: 40, fill: RGBAColor(r: 255, g: 255, b: 255))).write(to: folder.appendingPathComponent("tiny.png"))
        try """
        schema: 1
        name: tiny
        app:
          bundle_id: com.example.shop
        schedule:
          start: 2026-11-10T20:00:00+08:00
        devices: ["iPhone 15"]
        display_zoom: false
        appearances:
          light:
            background: "#FFFFFF"
            layers:
              - image: tiny.png
        """.write(to: folder.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
        let upscaled =
            "tiny.yaml:13:16: SEVERITY: appearances.light.layers[0].image: the 40×40 art is enlarged more than 2× on 1 screen: iPhone 15 portrait 63.9×"
        let cropped = "tiny.yaml:13:16: SEVERITY: appearances.light.layers[0].image: fill cuts off more than 25% of the art on 1 screen: iPhone 15 portrait 54%"
        func lines(_ text: String, _ severity: String) -> [String] {
            [upscaled, cropped].map { $0.replacingOccurrences(of: "SEVERITY", with: severity) }.filter { expected in
                text.split(separator: "\n").contains { $0.hasPrefix(expected) }
            }
        }

        let validate = try splashgen("validate", "tiny.yaml", in: folder)
        #expect(validate.status == 0 && validate.stdout == "tiny.yaml: ok (tiny: 1 snapshots)\n")
        // The two art warnings, and the campaign's missing dark appearance (at its light background, line 11).
        let noDark =
            "tiny.yaml:11:17: warning: appearances.light.background: tiny has no dark appearance: phones in dark mode keep the app's own launch screen for the whole campaign"
        #expect(lines(validate.stderr, "warning").count == 2 && validate.stderr.split(separator: "\n").count == 3, "\(validate.stderr)")
        #expect(validate.stderr.split(separator: "\n").contains { $0.hasPrefix(noDark) }, "\(validate.stderr)")
        let strict = try splashgen("validate", "tiny.yaml", "--strict", in: folder)
        #expect(strict.status == 1 && strict.stdout.isEmpty && lines(strict.stderr, "error").count == 2, "\(strict.stderr)")

        let build = try splashgen("build", "tiny.yaml", "-o", "Output", in: folder)
        #expect(build.status == 0 && build.stdout.hasPrefix("tiny: wrote Output/tiny/") && lines(build.stderr, "warning").count == 2, "\(build.stderr)")
        let strictBuild = try splashgen("build", "tiny.yaml", "-o", "Strict", "--strict", in: folder)
        #expect(strictBuild.status == 1 && lines(strictBuild.stderr, "error").count == 2, "\(strictBuild.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Strict/tiny").path))
        // A clean file named first is not built either: --strict checks every file before building any.
        let good = Self.repo.appendingPathComponent("Tests/SplashCoreTests/Fixtures/campaigns/good.yaml").path
        let both = try splashgen("build", good, "tiny.yaml", "-o", "Strict", "--strict", in: folder)
        #expect(both.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Strict").path))
        // Nor does it touch a bundle built before: Output/tiny stays byte for byte.
        let manifest = folder.appendingPathComponent("Output/tiny/manifest.json")
        let before = try Data(contentsOf: manifest)
        #expect(try splashgen("build", "tiny.yaml", "-o", "Output", "--strict", "--no-cache", in: folder).status == 1)
        #expect(try Data(contentsOf: manifest) == before)
    }

    @Test func inspectAndDecodeReadWhatBuildWrote() throws {
        let folder = temporaryFolder()
        let output = folder.appendingPathComponent("Output")
        #expect(try splashgen("build", "Tests/SplashCoreTests/Fixtures/campaigns/good.yaml", "-o", output.path).status == 0)
        let objects = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("good/objects").path)
        let object = output.appendingPathComponent("good/objects/" + objects[0]).path

        let inspect = try splashgen("inspect", object)
        #expect(inspect.status == 0)
        // Values line up two spaces after the longest label ("glBaseInternalFormat"); the layout is
        // docs/ios-launch-cache.md's (§3): HEAD at 8, FILL to 244, the payload's blocks from 256, depth 1.
        #expect(inspect.stdout.contains("  size                  1179x2556\n"))
        #expect(inspect.stdout.contains("  glInternalFormat      ASTC 4x4 RGBA (0x93B0)\n"))
        #expect(inspect.stdout.contains("  chunks                HEAD 84 at 8, FILL 136 at 100, LZFS "))
        #expect(inspect.stdout.contains("  HEAD word 8           0x00000001 (depth)\n"))
        #expect(inspect.stdout.contains("→ 3016080 bytes of ASTC blocks"))

        let png = folder.appendingPathComponent("out.png").path
        let decode = try splashgen("decode", object, "-o", png)
        #expect(decode.status == 0)
        #expect(decode.stdout == "\(png): 1179x2556\n")
        let again = try splashgen("inspect", png)
        #expect(again.stdout.contains("  format       PNG\n") && again.stdout.contains("1179x2556"))

        let notASnapshot = try splashgen("inspect", "campaigns/double11.yaml")
        #expect(notASnapshot.status == 1)
        #expect(notASnapshot.stderr == "error: campaigns/double11.yaml: not a snapshot file: neither KTX, ATX, PNG nor JPEG\n")
    }

    /// `-o` writes a new path or a regular file, nothing else: a folder, a named pipe or a link
    /// there is refused by name and left as it was (a device node the same way: `-o /dev/null` run
    /// as root must never replace the system's). The pipe stands in for a device, which only root
    /// can make.
    @Test func outputsAreWrittenOnlyToARegularFileOrANewPath() throws {
        let folder = temporaryFolder()
        let output = folder.appendingPathComponent("Output")
        #expect(try splashgen("build", "Tests/SplashCoreTests/Fixtures/campaigns/good.yaml", "-o", output.path).status == 0)
        let bundle = output.appendingPathComponent("good")
        let objects = try FileManager.default.contentsOfDirectory(atPath: bundle.appendingPathComponent("objects").path)
        let object = bundle.appendingPathComponent("objects/" + objects[0]).path
        // Named .png, as preview requires of a sheet: what is there decides, not the name.
        let pipe = folder.appendingPathComponent("pipe.png"), link = folder.appendingPathComponent("link.png")
        let target = folder.appendingPathComponent("target"), subfolder = folder.appendingPathComponent("sheet.png")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: false)
        #expect(mkfifo(pipe.path, 0o644) == 0)
        try Data("mine".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let cases: [(path: URL, message: String)] = [
            (subfolder, "\(subfolder.path) is a folder; name the file to write, e.g. \(subfolder.path)/"),
            (pipe, "\(pipe.path) is a named pipe, not a regular file; refusing to replace it"),
            (link, "\(link.path) is a symbolic link, not a regular file; refusing to replace it"),
        ]
        for (path, message) in cases {
            for run in [
                try splashgen("decode", object, "-o", path.path), try splashgen("preview", bundle.path, "-o", path.path),
                try splashgen("pack", bundle.path, "-o", path.path),
            ] {
                #expect(run.status == 1)
                #expect(run.stderr.hasPrefix("error: " + message), "\(run.stderr)")
            }
        }
        var info = stat()
        #expect(lstat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
        #expect(lstat(link.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
        #expect(try Data(contentsOf: target) == Data("mine".utf8))
        let page = try splashgen("preview", bundle.path, "-o", folder.appendingPathComponent("index.html").path)
        #expect(page.status == 0, "\(page.stderr)")
        // A JPEG name would hold PNG bytes: refused before anything is drawn.
        let jpeg = try splashgen("preview", bundle.path, "-o", folder.appendingPathComponent("x.jpg").path)
        #expect(jpeg.status == 64 && jpeg.stderr.contains("-o must name a .png sheet or an .html page"), "\(jpeg.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.jpg").path))
    }

    @Test func devicesListsTheCatalogue() throws {
        let run = try splashgen("devices")
        #expect(run.status == 0)
        #expect(run.stdout.contains("iPhone 14 Pro, iPhone 15, iPhone 15 Pro, iPhone 16"))
        #expect(run.stdout.contains("iPhone 13 Pro (Display Zoom)"))
        #expect(
            run.stdout.hasSuffix(
                "118 devices (27 of them Display Zoom screens, marked \"(Display Zoom)\"; 4 windows an iPad caches, a side layout or an iPhone app on an iPad, docs/ios-launch-cache.md §1; 9 of sizes a source gives only in part, marked [inferred] or [community]; sources in devices.json), 27 screen sizes\n"
            ))
        #expect(run.stdout.contains("iPad Pro 13-inch (M5) (side layout) (landscape 375x1032)"))
    }
}

/// The applier and the simulator through the command line, as a person would drive them.
@Suite struct SandboxCommandLineTests {
    let cli = CommandLineTests()

    @Test func installLaunchApplyStatusRestore() throws {
        let folder = cli.temporaryFolder()
        let sandbox = folder.appendingPathComponent("sandbox").path, output = folder.appendingPathComponent("Output").path
        #expect(try cli.splashgen("build", "Tests/SplashCoreTests/Fixtures/campaigns/good.yaml", "-o", output).status == 0)
        let bundle = output + "/good"

        let install = try cli.splashgen("sim", "install", "--sandbox", sandbox, "--app-version", "5.2", "--build", "100")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.hasPrefix("com.example.shop 5.2 (100) on iPhone 15, iOS 17.0; now portrait, light\n"))
        #expect(install.stdout.split(separator: "\n").count == 5, "four cached variants")

        let first = try cli.splashgen("sim", "launch", "--sandbox", sandbox, "--bundle", bundle, "--now", "2026-11-11T09:00:00+08:00")
        // The app's run lists three screens the bundle lacks: exit 3, the rule status follows below.
        #expect(first.status == 3, "\(first.stderr)")
        #expect(first.stdout.contains("campaign   good\n"))
        #expect(first.stdout.contains("the OS rendered the cache anew: originals backed up"))
        // good.yaml is light-only and portrait-only: one file replaced, three left with a reason.
        #expect(first.stdout.components(separatedBy: "  replaced, showing good").count == 2)
        #expect(first.stdout.contains("left-alone, showing original: good has no dark snapshot of 1179x2556"))
        // Issue 28, C8: the missing screen comes with the catalogue's devices that have it; issue 42:
        // the phone in hand (the sandbox's iPhone 15) first, the others in the catalogue's order.
        #expect(
            first.stdout.contains(
                "1179x2556 px = 393x852 pt @3x: add the screen to the campaign (a device in devices:, or a catalogue: entry) and build again (the catalogue's devices with this screen: iPhone 15, iPhone 14 Pro, iPhone 15 Pro, iPhone 16)"
            ), "\(first.stdout)")

        let container = sandbox + "/container"
        // --app-version/--app-build; the first spelling --build (used for install above) still works.
        let status = try cli.splashgen(
            "status", "--container", container, "--bundle", bundle, "--app-version", "5.2", "--app-build", "100",
            "--now", "2026-11-11T09:01:00+08:00", "--json")
        // Three cached files have no snapshot in this bundle: done as far as it goes, exit 3, each named.
        #expect(status.status == 3)
        #expect(status.stdout.components(separatedBy: "\"code\" : \"missing-snapshot\"").count == 4)
        #expect(status.stdout.contains("\"campaign\" : \"good\""))
        #expect(status.stdout.contains("\"decided_by\" : \"marker\""))
        #expect(status.stdout.contains("\"next_change\" : \"2026-11-11T18:00:00Z\""))
        // Each missing snapshot names its screen as a catalogue entry does: the iPhone 15 is
        // 393x852 pt @3x = 1179x2556 px (Apple's specifications), the scale inferred from the pixels
        // (1179 is odd, so only 3 divides it).
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let missing = (json["problems"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "missing-snapshot" }
        #expect(missing.count == 3)
        for problem in missing {
            let screen = problem["screen"] as? [String: Any]
            #expect(screen?["pixels"] as? [String: Int] == ["width": 1179, "height": 2556])
            #expect(screen?["points"] as? [String: Int] == ["width": 393, "height": 852])
            #expect(screen?["scale"] as? Int == 3)
        }
        // And why good is not shown on them, by stable code: light-only (no dark), portrait-only.
        let why = (json["not_shown"] as? [[String: Any]] ?? []).map { "\($0["campaign"] ?? ""):\($0["reason"] ?? "")" }
        #expect(Set(why) == ["good:appearance-missing", "good:orientation-missing"])
        // Outside its window (20:00 on the 10th to 02:00 on the 12th, Beijing time = 12:00Z to 18:00Z):
        // the reason and the boundary, and no problem, so exit 0. Times in the offset the campaign was
        // written in, UTC beside (issue 28, A5), as the next run is.
        for (now, line) in [
            ("2026-11-10T19:59:59+08:00", "not shown not-started: good: starts 2026-11-10T20:00:00+08:00 (12:00:00Z)"),
            ("2026-11-12T02:00:00+08:00", "not shown ended: good: ended 2026-11-12T02:00:00+08:00 (2026-11-11T18:00:00Z)"),
        ] {
            let outside = try cli.splashgen(
                "status", "--container", container, "--bundle", bundle, "--app-version", "5.2", "--app-build", "100", "--now", now)
            #expect(outside.status == 0, "\(outside.stdout)")
            #expect(outside.stdout.contains("campaign   none (the app's own launch screen)\n"))
            #expect(outside.stdout.contains(line + "\n"), "\(outside.stdout)")
        }

        let screenshot = folder.appendingPathComponent("seen.png").path
        let second = try cli.splashgen(
            "sim", "launch", "--sandbox", sandbox, "--bundle", bundle, "--now", "2026-11-11T09:02:00+08:00",
            "--screenshot", screenshot)
        #expect(second.stdout.contains("nothing to do"))
        // The launch path's no-op run still says why, from what the settled run found.
        #expect(second.stdout.contains("not shown appearance-missing: good: no dark snapshot of 1179x2556 px = 393x852 pt @3x, portrait"))
        #expect(FileManager.default.fileExists(atPath: screenshot))

        let restore = try cli.splashgen("restore", "--container", container, "--app-version", "5.2", "--app-build", "100")
        #expect(restore.status == 0)
        #expect(restore.stdout.contains("restored, showing original"))
        // A damaged state is rebuilt, and the report says so: a problem listed, so exit 3 (it was 0,
        // while status exited 3 for any problem that left work undone).
        try Data("{".utf8).write(to: URL(fileURLWithPath: container + "/Library/Application Support/splashgen/state.json"))
        let rebuilt = try cli.splashgen("restore", "--container", container, "--app-version", "5.2", "--app-build", "100", "--json")
        #expect(rebuilt.status == 3, "\(rebuilt.stdout)\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("\"code\" : \"state-rebuilt\""), "\(rebuilt.stdout)")
    }

    /// `sim install` needs no `--launch-screen` and no repository: the default launch screen ships with
    /// splashgen, a storyboard stand-in of the screen `campaigns/default.yaml` describes, with its
    /// art byte for byte (SplashSimulatorTests compares the two descriptions).
    @Test func simInstallWorksFromAnyFolderWithTheShippedLaunchScreen() throws {
        let elsewhere = cli.temporaryFolder()
        let sandbox = elsewhere.appendingPathComponent("sandbox").path
        let install = try cli.splashgen("sim", "install", "--sandbox", sandbox, "--app-version", "5.2", "--app-build", "100", in: elsewhere)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.hasPrefix("com.example.shop 5.2 (100) on iPhone 15, iOS 17.0; now portrait, light\n"))
        let shipped = try SandboxSimulator.defaultLaunchScreen.deletingLastPathComponent()
        for file in ["art/logo.png", "art/logo-dark.png"] {
            let original = CommandLineTests.repo.appendingPathComponent("campaigns/" + file)
            #expect(try Data(contentsOf: shipped.appendingPathComponent(file)) == Data(contentsOf: original), "\(file) is campaigns/\(file)")
        }
    }

    /// Numbers that cannot be used are usage errors (exit 64) before anything runs, never clamped in
    /// silence or trapped on.
    @Test(arguments: [
        ("--jobs=0", "--jobs must be from 1 to 256; found 0"), ("--jobs=-5", "--jobs must be from 1 to 256; found -5"),
        ("--jobs=100000", "--jobs must be from 1 to 256; found 100000"),
        ("--max-image-pixels=0", "--max-image-pixels must be from 1 to 268435456; found 0"),
    ])
    func numbersABuildCannotUseAreUsageErrors(_ option: String, _ message: String) throws {
        let output = cli.temporaryFolder().appendingPathComponent("Output")
        let run = try cli.splashgen("build", "campaigns/double11.yaml", option, "-o", output.path)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: " + message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func badInputIsNamed() throws {
        let folder = cli.temporaryFolder()
        let missing = try cli.splashgen("apply", "--container", folder.path, "--bundle", folder.path, "--app-version", "1", "--app-build", "1")
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: bad bundle: no manifest.json in the bundle\n")
        let ios = try cli.splashgen("status", "--container", folder.path, "--app-version", "1", "--app-build", "1", "--ios", "seventeen")
        #expect(ios.status != 0)
        #expect(ios.stderr.contains("--ios expects a version such as 17.4"))
        let noBuild = try cli.splashgen("status", "--container", folder.path, "--app-version", "1")
        #expect(noBuild.status == 64)
        #expect(noBuild.stderr.hasPrefix("Error: missing --app-build (the app's CFBundleShortVersionString and CFBundleVersion"))
        // The first spelling of --app-version is splashgen's own --version now: a clear refusal, never exit 0.
        let old = try cli.splashgen("status", "--container", folder.path, "--version", "1", "--build", "1", "--ios", "seventeen")
        #expect(old.status == 64)
        #expect(old.stderr.hasPrefix("Error: missing --app-version"))
        let noSandbox = try cli.splashgen("sim", "launch", "--sandbox", folder.appendingPathComponent("none").path)
        #expect(noSandbox.status == 1)
        #expect(noSandbox.stderr.contains("run `splashgen sim install` first"))
    }

    @Test func versionAndPreviewForSignOff() throws {
        let version = try cli.splashgen("--version")
        #expect(version.status == 0 && version.stdout == "0.1.0\n")
        // Shell completion of --device offers the catalogue's names (the generated script passes the
        // word's index, the cursor's place in it, then the words).
        let completion = try cli.splashgen("---completion", "preview", "--", "--device", "3", "0", "splashgen", "preview", "--device", "")
        #expect(completion.stdout.split(separator: "\n").contains("iPhone 15"))
        let folder = cli.temporaryFolder()
        let output = folder.appendingPathComponent("Output").path
        // good.yaml: iPhone 15, portrait, light: one snapshot.
        let page = folder.appendingPathComponent("page/index.html").path
        let run = try cli.splashgen("preview", "Tests/SplashCoreTests/Fixtures/campaigns/good.yaml", "--output-root", output, "-o", page)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(page): 1 snapshots, sheet "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("page").path).contains { $0.hasPrefix("index-files-") })
        let device = try cli.splashgen("preview", output + "/good", "--device", "iPhone 15", "--no-overlays", "-o", folder.appendingPathComponent("d.png").path)
        #expect(device.status == 0, "\(device.stderr)")
        #expect(device.stdout.contains(": 1 tiles, "))
        let unknown = try cli.splashgen("preview", output + "/good", "--device", "iPhone15", "-o", folder.appendingPathComponent("u.png").path)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown device \"iPhone15\"; did you mean 'iPhone 15'?"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("u.png").path))
    }
}
