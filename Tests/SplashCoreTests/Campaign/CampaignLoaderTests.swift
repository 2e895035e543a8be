// Expectations: each message and its line:column typed in by hand from the YAML under
// Fixtures/campaigns (the wording is the project's own spec for users); screen sizes and counts
// from docs/ios-launch-cache.md §8 and the Apple specifications cited in devices.json.
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashTestSupport
import Testing

@Suite struct CampaignLoaderTests {
    /// One fixture per way a campaign can be wrong, with the exact message a user sees.
    static let failures: [(file: String, messages: [String])] = [
        ("unknown-key.yaml", ["unknown-key.yaml:8:1: error: orientation: unknown key 'orientation'; did you mean 'orientations'?"]),
        // A UILaunchScreen app (docs/ios-launch-cache.md §10): no view to carry a marker, its own
        // screen drawn from the dictionary, the image's natural width needed to draw it.
        (
            "launch-screen-with-marker.yaml",
            [
                "launch-screen-with-marker.yaml:10:3: error: marker: the app's launch screen is its UILaunchScreen dictionary (app.launch_screen), which has no view to carry a marker: its background colours tell light from dark; remove marker"
            ]
        ),
        (
            "launch-screen-own-with-appearances.yaml",
            [
                "launch-screen-own-with-appearances.yaml:11:3: error: appearances: the own screen of a UILaunchScreen app is what the OS draws from app.launch_screen (its background and image): remove appearances"
            ]
        ),
        (
            "launch-screen-bad-colour.yaml",
            [
                "launch-screen-bad-colour.yaml:7:42: error: app.launch_screen.background.dark: expected a colour as \"#RRGGBB\" (quoted: # starts a comment in YAML); found \"#00000G\""
            ]
        ),
        // A misspelt required key is said once, at the misspelling: never a second error asking for
        // what the user did write (issue 28, A6).
        (
            "misspelt-required-key.yaml",
            [
                "misspelt-required-key.yaml:5:1: error: shedule: unknown key 'shedule'; did you mean 'schedule'? ('schedule' is required)",
                "misspelt-required-key.yaml:10:5: error: appearances.light.backgroud: unknown key 'backgroud'; did you mean 'background'? ('background' is required)",
            ]
        ),
        ("wrong-type.yaml", ["wrong-type.yaml:8:7: error: grey: expected true or false; found \"sometimes\""]),
        ("malformed.yaml", ["malformed.yaml:6:12: error: malformed YAML: while parsing a flow sequence did not find expected ',' or ']'"]),
        (
            "bad-date.yaml",
            [
                "bad-date.yaml:6:10: error: schedule.start: expected an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00; found \"2026-11-10 20:00\""
            ]
        ),
        ("end-before-start.yaml", ["end-before-start.yaml:7:8: error: schedule.end: the campaign ends before it starts; end must be after start"]),
        (
            "bad-colour.yaml",
            [
                "bad-colour.yaml:10:17: error: appearances.light.background: expected a colour as \"#RRGGBB\" (quoted: # starts a comment in YAML); found \"#FFFFZZ\""
            ]
        ),
        (
            "unknown-device.yaml",
            ["unknown-device.yaml:8:19: error: devices[1]: unknown device \"iPhone 51\"; did you mean 'iPhone 11', 'iPhone 5s', 'iPhone 12'?"]
        ),
        ("unknown-orientation.yaml", ["unknown-orientation.yaml:8:26: error: orientations[1]: expected one of portrait, landscape; found \"sideways\""]),
        ("bad-fit.yaml", ["bad-fit.yaml:16:14: error: appearances.dark.layers[1].fit: expected one of fill, fit, none; found \"cover\""]),
        (
            "missing-image.yaml",
            [
                "missing-image.yaml:12:16: error: appearances.light.layers[0].image: no such image file \"art/nowhere.png\" (paths are relative to the campaign file's folder)"
            ]
        ),
        (
            "newer-schema.yaml",
            ["newer-schema.yaml:1:9: error: schema: campaign schema 2 is newer than this splashgen understands (schema 1); update splashgen"]
        ),
        // Strict input: refused at the place, never shifted or read as something else.
        (
            "impossible-date.yaml",
            [
                "impossible-date.yaml:6:10: error: schedule.start: not a real date and time: February 2026 has 28 days, not 30; found \"2026-02-30T20:00:00+08:00\""
            ]
        ),
        ("hour-25.yaml", ["hour-25.yaml:7:8: error: schedule.end: not a real date and time: hour 25 is beyond 23; found \"2026-11-12T25:00:00+08:00\""]),
        (
            "yes-boolean.yaml",
            [
                "yes-boolean.yaml:8:7: error: grey: expected true or false; found \"yes\" (YAML 1.1 reads it as a boolean, which hides typos; write true or false)"
            ]
        ),
        (
            "huge-version.yaml",
            [
                "huge-version.yaml:5:16: error: app.min_version: version component 99999999999999999999 is too large to compare (at most 9223372036854775807); found \"99999999999999999999\""
            ]
        ),
        ("long-name.yaml", ["long-name.yaml:2:7: error: name: expected at most 200 characters (it names folders the file system must hold); found 300"]),
        ("duplicate-key.yaml", ["duplicate-key.yaml:8:3: error: start: duplicate key 'start'; it is already given at line 6"]),
        ("tab.yaml", ["tab.yaml:4:1: error: malformed YAML: a tab indents this line; YAML indents with spaces only"]),
        (
            "indent-list.yaml",
            [
                "indent-list.yaml:15:6: error: malformed YAML: indentation: this line starts at column 6, which lines up with no key or list item above it (in the mapping that starts at line 11); indent it as far as the keys or list items it belongs with"
            ]
        ),
        (
            "indent-key.yaml",
            [
                "indent-key.yaml:7:8: error: malformed YAML: indentation: a key on this line is indented deeper than the key above it, as if it were inside that key's value; line it up with the keys it belongs with (or, if the value holds ': ', put the value in quotes)"
            ]
        ),
        (
            "indent-mapping.yaml",
            [
                "indent-mapping.yaml:12:5: error: malformed YAML: indentation: this line starts at column 5, which lines up with no key or list item above it (in the mapping that starts at line 10); indent it as far as the keys or list items it belongs with"
            ]
        ),
        (
            "many-problems.yaml",
            [
                "many-problems.yaml:2:7: error: name: expected ASCII letters (A-Z, a-z), digits, '.', '_' or '-', not starting with '.' or '-' (it names the folder under Output/); found \"many problems\"",
                "many-problems.yaml:4:14: error: app.bundle_id: expected a reverse-DNS bundle identifier such as com.example.shop; found \"shop\"",
                "many-problems.yaml:6:10: error: schedule.start: expected an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00; found \"tomorrow\"",
                "many-problems.yaml:8:11: error: encoding: expected one of atx, ktx, ktx-plain, png; found \"jpeg\"; did you mean 'png'?",
                "many-problems.yaml:11:9: error: marker.dark: expected a colour as \"#RRGGBB\" (quoted: # starts a comment in YAML); found \"white\"",
                "many-problems.yaml:16:9: error: appearances.light.layers[0]: fit: none needs a width or a height in points",
            ]
        ),
    ]

    /// A UILaunchScreen app's own screen is what the OS draws from the dictionary: its background
    /// in each appearance and its image at its natural width, centred (in the safe area here), with
    /// no marker; the manifest gets its colours.
    @Test func aLaunchScreenAppsOwnScreenIsDrawnFromItsDictionary() throws {
        let campaign = try loadCampaign(Fixtures.url("campaigns/launch-screen-good.yaml"))
        #expect(campaign.marker == nil && campaign.app.marker == nil)
        #expect(campaign.app.launchScreen == Manifest.LaunchScreenColors(light: "#F2F2F7", dark: "#1C1C1E"))
        let dark = try #require(campaign.appearances[.dark])
        #expect(dark.background == RGBAColor(r: 0x1C, g: 0x1C, b: 0x1E))
        let layer = try #require(dark.layers.first)
        #expect(dark.layers.count == 1 && layer.image == "logo.png" && layer.fit == .none && layer.anchor == .center)
        #expect(layer.width == 120 && layer.height == nil && layer.safeArea && layer.margin == 0)
        // Without the width the OS's natural size cannot be drawn.
        var yaml = try String(contentsOf: Fixtures.url("campaigns/launch-screen-good.yaml"), encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "    image_width: 120\n", with: "")
        #expect(throws: CampaignError.self) {
            try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(
                yaml: yaml, file: "no-width.yaml", baseDirectory: Fixtures.url("campaigns"))
        }
        do {
            _ = try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(yaml: yaml, file: "no-width.yaml", baseDirectory: Fixtures.url("campaigns"))
        } catch let error as CampaignError {
            #expect(
                error.diagnostics.map(\.description) == [
                    "no-width.yaml:8:12: error: app.launch_screen.image: give the image's natural width in points as image_width (its pixels divided by its scale): the OS draws it at that size, centred, never scaled"
                ])
        }
    }

    @Test(arguments: failures)
    func badCampaignsReportEveryProblemAtItsPlace(_ failure: (file: String, messages: [String])) throws {
        do {
            _ = try loadCampaign(Fixtures.url("campaigns/" + failure.file))
            Issue.record("\(failure.file) loaded without error")
        } catch let error as CampaignError {
            #expect(error.diagnostics.map(\.description) == failure.messages)
        }
    }

    /// What each imaging backend's decoder says of a truncated PNG.
    static let truncatedPNG = ImagingBackend.name == "linux" ? "libpng: read beyond end of data" : "ImageIO: the image data is incomplete or damaged"

    /// Image problems surface when the art is read (validate and build), at the layer naming the file.
    static let imageFailures: [(file: String, message: String)] = [
        (
            "not-a-png.yaml",
            "not-a-png.yaml:13:16: error: appearances.light.layers[0].image: \"../png/not-a-png.png\": a GIF file, not a PNG: art must be PNG; export it as PNG (on a Mac `sips -s format png IN --out OUT.png`, or ImageMagick's `convert IN OUT.png`) and name the .png here"
        ),
        (
            "truncated-png.yaml",
            "truncated-png.yaml:13:16: error: appearances.light.layers[0].image: \"../png/truncated.png\": truncated or corrupt PNG (\(truncatedPNG))"
        ),
        (
            "too-large.yaml",
            "too-large.yaml:13:16: error: appearances.light.layers[0].image: \"../png/bomb.png\": image is 30000x30000 = 900000000 pixels, over the limit of 67108864 pixels"
        ),
    ]

    @Test(arguments: imageFailures)
    func badImagesAreNamedAtTheLayer(_ failure: (file: String, message: String)) throws {
        let campaign = try loadCampaign(Fixtures.url("campaigns/" + failure.file))
        #expect(
            throws: CampaignError([Diagnostic(campaign.appearances[.light]!.layers[0].source, String(failure.message.split(separator: ": ", maxSplits: 3)[3]))])
        ) {
            _ = try CampaignValidator.validate(campaign)
        }
        #expect(throws: (any Error).self) { _ = try BundleBuilder(outputRoot: temporaryFolder()).build(campaign) }
    }

    @Test func artThatIsNotAFileIsNamedForWhatItIsInsteadOfBlockingOrSayingPermissionDenied() throws {
        let folder = try scratchCopyOfGoodCampaign()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("logo.png"))
        #expect(mkfifo(folder.appendingPathComponent("logo.png").path, 0o644) == 0)
        do {
            _ = try CampaignValidator.validate(try loadCampaign(folder.appendingPathComponent("c.yaml")))
            Issue.record("a FIFO was read as art")
        } catch let error as CampaignError {
            // good.yaml names logo.png at line 13, column 16.
            #expect(
                error.description.hasSuffix(
                    ":13:16: error: appearances.light.layers[0].image: \"logo.png\": not a regular file but a FIFO (named pipe); art must be a PNG file"))
        }
    }

    @Test func theExampleCampaignsLoad() throws {
        for name in ["double11.yaml", "default.yaml", "mourning.yaml"] {
            let campaign = try loadCampaign(Fixtures.campaigns.appendingPathComponent(name))
            #expect(campaign.screens.count == 22 + ZoomTable.newSizes.count + ZoomTable.sideLayoutScreens)
            #expect(campaign.orientations == [.portrait, .landscape])
            #expect(campaign.renderedAppearances == [.light, .dark])
        }
        let double11 = try loadCampaign(Fixtures.campaigns.appendingPathComponent("double11.yaml"))
        #expect(double11.schedule.start == (try Date("2026-11-10T12:00:00Z", strategy: .iso8601)))
        #expect(double11.app == Manifest.App(bundleID: "com.example.shop", minVersion: "5.0"))
    }

    @Test func devicesSelectFamiliesAndNamesAndTheCampaignCanExtendTheCatalogue() throws {
        let yaml = """
            schema: 1
            name: pick
            app: {bundle_id: com.example.shop}
            schedule: {start: 2026-11-10T20:00:00+08:00, end: 2026-11-12T02:00:00+08:00}
            devices: [ipad, "iPhone 15", "iPhone 16", "Foldy"]
            catalogue:
              - name: Foldy
                family: iphone
                points: {width: 400, height: 880}
                scale: 3
              - name: iPhone 15
                safe_area: {portrait: {top: 70, bottom: 40}}
            appearances:
              light: {background: "#FFFFFF"}
            """
        let campaign = try CampaignLoader(catalogue: try DeviceCatalogue.bundled())
            .load(yaml: yaml, file: "pick.yaml", baseDirectory: temporaryFolder())
        let iphones = campaign.screens.filter { $0.family == .iphone }
        #expect(iphones.map(\.devices).map { $0.map(\.name) } == [["iPhone 15", "iPhone 16"], ["Foldy"]])
        // A shared screen keeps art clear of every device on it: the override's 70 pt wins.
        #expect(iphones[0].safeArea.portrait.top == 70)
        // The nine iPad screens of §8 and the 13-inch iPad Pros' side-layout window (§1).
        #expect(campaign.screens.filter { $0.family == .ipad }.count == 9 + ZoomTable.sideLayoutScreens)
    }

    @Test func everyDeviceOfTheReferenceTableIsInTheCatalogue() throws {
        let catalogue = try DeviceCatalogue.bundled()
        // The full screens of §8's table: no Display Zoom, no iPad window.
        let screens = DeviceCatalogue.screens(of: catalogue.select(.all, displayZoom: false, sideLayout: false))
        #expect(screens.count == 22)
        #expect(catalogue.device(named: "iPhone 15")?.points == Manifest.Size(width: 393, height: 852))
        #expect(catalogue.device(named: "iPhone 15")?.scale == 3)
        #expect(catalogue.device(named: "iPad Pro 13-inch (M4)")?.points == Manifest.Size(width: 1032, height: 1376))
        // The 2025 models (docs/ios-launch-cache.md §8 and Apple's specifications cited in devices.json).
        #expect(catalogue.device(named: "iPad Pro 13-inch (M5)")?.points == Manifest.Size(width: 1032, height: 1376))
        #expect(catalogue.device(named: "iPad Pro 11-inch (M5)")?.points == Manifest.Size(width: 834, height: 1210))
        #expect(catalogue.device(named: "iPad (A16)")?.points == Manifest.Size(width: 820, height: 1180))
        #expect(catalogue.device(named: "iPhone 17 Pro Max")?.points == Manifest.Size(width: 440, height: 956))
        #expect(catalogue.device(named: "iPhone Air")?.points == Manifest.Size(width: 420, height: 912))
        #expect(screens.first { $0.points.width == 414 && $0.scale == 2 }?.devices.map(\.name) == ["iPhone XR", "iPhone 11"])
    }
}
