import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import SplashTestSupport
import Testing

/// The art checks on one screen, the iPhone 15 (393×852 pt @3x = 1179×2556 px; safe area portrait
/// top 59 pt, bottom 34 pt). Every expected number is worked out here by hand from that geometry.
@Suite struct ArtCheckerTests {
    /// A scratch `c.yaml` drawing `art.png` (`width`×`height`, one colour) in portrait on the
    /// iPhone 15 alone, `layer` holding the layer's keys after `image`.
    static func campaign(
        art width: Int, _ height: Int, colour: RGBAColor = RGBAColor(r: 255, g: 255, b: 255),
        background: String = "#FFFFFF", layer: String = "fit: fill", top: String = "",
        device: String = "iPhone 15"
    ) throws -> Campaign {
        let folder = temporaryFolder()
        try PNGCodec.encode(RGBAImage(width: width, height: height, fill: colour)).write(to: folder.appendingPathComponent("art.png"))
        let yaml = """
            schema: 1
            name: art
            app:
              bundle_id: com.example.shop
            schedule:
              start: 2026-11-10T20:00:00+08:00
            devices: ["\(device)"]
            display_zoom: false
            appearances:
              light:
                background: "\(background)"
                layers:
                  - image: art.png
                    \(layer)
            \(top)
            """
        try yaml.write(to: folder.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
        return try loadCampaign(folder.appendingPathComponent("c.yaml"))
    }

    static func warnings(_ campaign: Campaign) throws -> [String] {
        try CampaignValidator.validate(campaign).warnings.map(\.description)
    }

    @Test func aTinyFilledArtIsWarnedAsUpscaledAndCropped() throws {
        // fill: factor max(1179 / 40, 2556 / 40) = 63.9, drawn 2556×2556 of which 1179 columns show:
        // 1 − 1179 / 2556 = 53.9 % cut off. Art of 2556 / 2 = 1278 pixels a side stays within 2×.
        #expect(
            try Self.warnings(Self.campaign(art: 40, 40)) == [
                "c.yaml:13:16: warning: appearances.light.layers[0].image: the 40×40 art is enlarged more than 2× on 1 screen: iPhone 15 portrait 63.9×; it will look soft: art of at least 1278×1278 pixels stays within 2×",
                "c.yaml:13:16: warning: appearances.light.layers[0].image: fill cuts off more than 25% of the art on 1 screen: iPhone 15 portrait 54%; art shaped like the screens loses less, and keep: [x, y, width, height] names what must stay",
            ])
    }

    /// A `fill` layer that names what must stay (`keep`) is held to that, not to the share it loses:
    /// 1179×1572 filled loses 38.5 % (above), but with its middle third kept whole there is nothing
    /// to say (issue 28, A2: the shipped double11 heroes).
    @Test func aCropThatKeepsWhatMustStayIsNotWarned() throws {
        #expect(try Self.warnings(Self.campaign(art: 1179, 1572, layer: "fit: fill\n        keep: [400, 500, 379, 500]")) == [])
    }

    /// Portrait art drawn in both orientations, enlarged only in landscape (2556 / 1179 = 2.168×): the
    /// advice is a landscape layer of its own, not bigger portrait art (issue 28, A8).
    @Test func artEnlargedOnlyInOneOrientationIsToldToGetALayerThere() throws {
        let warnings = try Self.warnings(Self.campaign(art: 1179, 2556, top: "orientations: [portrait, landscape]"))
        #expect(
            warnings.first
                == "c.yaml:13:16: warning: appearances.light.layers[0].image: the 1179×2556 art is enlarged more than 2× on 1 screen: "
                + "iPhone 15 landscape 2.2×; every one is landscape: give landscape its own layer of landscape-shaped art "
                + "(orientation: landscape), and this one orientation: portrait",
            "\(warnings)")
    }

    @Test func artShapedAndSizedForTheScreenIsNotWarned() throws {
        // 1179×2556 filled on 1179×2556: factor 1, nothing cut off.
        #expect(try Self.warnings(Self.campaign(art: 1179, 2556)) == [])
        // 600×1300 filled: factor max(1179 / 600, 2556 / 1300) = 1.966 (within 2×), drawn 1180×2556:
        // one column cut off.
        #expect(try Self.warnings(Self.campaign(art: 600, 1300)) == [])
    }

    @Test func justOverTheLimitsIsWarned() throws {
        // 580×1300 filled: factor max(1179 / 580, 2556 / 1300) = 2.033 > 2 → drawn 1179×2643, 87 of
        // 2643 rows cut off (3 %, under the crop limit).
        #expect(try Self.warnings(Self.campaign(art: 580, 1300)).map { $0.contains("iPhone 15 portrait 2.0×") } == [true])
        // 1179×1572 filled: factor 2556 / 1572 = 1.626, drawn 1917×2556: 1 − 1179 / 1917 = 38.5 % cut off.
        #expect(try Self.warnings(Self.campaign(art: 1179, 1572)).map { $0.contains("iPhone 15 portrait 38%") } == [true])
    }

    /// Art whose scaled copy would be longer than the resampler can place pixels in (stb_image_resize
    /// works in single-precision floats and aborts) is an error at the layer, never an abort.
    /// Sizes worked out by hand on the iPhone 15's 1179×2556 canvas (safe area ignored by `fill`
    /// and `none` without `safe_area`).
    @Test(arguments: [
        // fill: factor max(1179 / 1, 2556 / 1,000,000) = 1179.
        (1, 1_000_000, "fit: fill", "1179×1179000000"),
        // fill: factor max(1179 / 1,000,000, 2556 / 1) = 2556.
        (1_000_000, 1, "fit: fill", "2556000000×2556"),
        // none, 10000 pt wide at @3x: factor 30000.
        (1, 1_000_000, "fit: none\n        width: 10000", "30000×30000000000"),
    ])
    func artScaledBeyondTheResamplersReachIsAnErrorAtTheLayer(width: Int, height: Int, layer: String, scaled: String) throws {
        let campaign = try Self.campaign(art: width, height, layer: layer)
        #expect(SnapshotPlanner.maxScaledSide == 65_536)
        do {
            _ = try CampaignValidator.validate(campaign)
            Issue.record("validated")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(
                error.diagnostics.first?.description.hasPrefix(
                    "c.yaml:13:16: error: appearances.light.layers[0].image: art.png (\(width)×\(height)) would be scaled to \(scaled) pixels") == true,
                "\(error)")
        }
        #expect(throws: CampaignError.self) { try BundleBuilder(outputRoot: temporaryFolder()).build(campaign) }
    }

    /// Just under the limit it renders: 1×25 art filled is scaled by max(1179 / 1, 2556 / 25) = 1179
    /// to 1179×29475 pixels in portrait, and by max(2556 / 1, 1179 / 25) = 2556 to 2556×63900 in
    /// landscape; the build draws both.
    @Test func artScaledJustUnderTheLimitRenders() throws {
        let campaign = try Self.campaign(art: 1, 25, colour: RGBAColor(r: 200, g: 10, b: 10), background: "#000000")
        let artwork = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
        let sizes = try SnapshotPlanner.plan(campaign, artwork: artwork, generator: "test").map { snapshot in
            snapshot.recipe.placements.map { [$0.width, $0.height] }
        }
        #expect(sizes.contains([[1179, 29_475]]))
        #expect(sizes.allSatisfy { $0 == [[1179, 29_475]] || $0 == [[2556, 63_900]] })
        _ = try BundleBuilder(outputRoot: temporaryFolder()).build(campaign)
    }

    @Test func aKeepRectangleCroppedByTheScreenIsAnErrorNamingTheEdges() throws {
        // "50% OFF" across the middle of a 1000×1000 hero: fill factor 2556 / 1000 = 2.556, drawn
        // 2556×2556 at x = (1179 − 2556) / 2 = −688.5 → −689; the rectangle's columns 100…900 land at
        // −689 + 255.6 = −433.4 and −689 + 2300.4 = 1611.4: past both sides of a 1179-pixel screen.
        let campaign = try Self.campaign(art: 1000, 1000, layer: "fit: fill\n        keep: [100, 400, 800, 200]")
        #expect(throws: CampaignError.self) { try CampaignValidator.validate(campaign) }
        do {
            _ = try CampaignValidator.validate(campaign)
        } catch {
            #expect(
                error.diagnostics.filter { $0.severity == .error }.map(\.description) == [
                    "c.yaml:15:15: error: appearances.light.layers[0].keep: keep [100, 400, 800, 200] is not fully visible on 1 screen: iPhone 15 portrait (cut off at the left and right); choose an anchor or fit that keeps it on screen, or a smaller margin of art around it"
                ])
        }
        // fit: the whole art shows, 1179×1179 at y = (2556 − 1179) / 2 = 688.5; rows 400…600 land at
        // 1160 and 1396, clear of the 177-pixel top and 102-pixel bottom insets.
        let fitted = try Self.campaign(art: 1000, 1000, layer: "fit: fit\n        keep: [100, 400, 800, 200]")
        #expect(try CampaignValidator.validate(fitted).warnings.isEmpty)
    }

    @Test func aKeepRectangleUnderTheDynamicIslandIsAnError() throws {
        // The top 50 rows of the hero, columns 400…600: at y 0…127.8, inside the 59 pt × 3 = 177-pixel
        // top inset; x −689 + 1022.4 = 333.4 … 844.6 is on screen.
        let campaign = try Self.campaign(art: 1000, 1000, layer: "fit: fill\n        keep: [400, 0, 200, 50]")
        do {
            _ = try CampaignValidator.validate(campaign)
            Issue.record("a keep rectangle under the top inset passed")
        } catch {
            #expect(
                error.diagnostics.contains {
                    $0.description.hasPrefix(
                        "c.yaml:15:15: error: appearances.light.layers[0].keep: keep [400, 0, 200, 50] is not fully visible on 1 screen: iPhone 15 portrait (under the top safe-area inset);"
                    )
                })
        }
        // Rows 200…250 land at 511.2…639: clear of the inset.
        let lower = try Self.campaign(art: 1000, 1000, layer: "fit: fill\n        keep: [400, 200, 200, 50]")
        #expect(throws: Never.self) { try CampaignValidator.validate(lower) }
    }

    @Test func aKeepRectangleOutsideTheArtIsRefusedAtItsPlace() throws {
        let campaign = try Self.campaign(art: 1000, 1000, layer: "fit: fit\n        keep: [900, 0, 200, 10]")
        #expect(
            throws: CampaignError([
                Diagnostic(
                    SourceLocation(file: "c.yaml", line: 15, column: 15, keyPath: "appearances.light.layers[0].keep"),
                    "keep [900, 0, 200, 10] reaches beyond the 1000×1000 art; it is in art pixels, from the art's top-left corner")
            ])
        ) {
            try CampaignValidator.validate(campaign)
        }
    }

    @Test func aMalformedKeepIsRefusedByTheLoaderAtItsPlace() throws {
        for (keep, expected) in [
            ("[1, 2, 3]", "c.yaml:15:15: error: appearances.light.layers[0].keep: expected [x, y, width, height] in art pixels; found a list of 3"),
            ("[0, 0, 0, 5]", "c.yaml:15:22: error: appearances.light.layers[0].keep[2]: expected a whole number from 1 to 1000000; found 0"),
        ] {
            do {
                _ = try Self.campaign(art: 10, 10, layer: "fit: fit\n        keep: \(keep)")
                Issue.record("keep: \(keep) loaded")
            } catch let error as CampaignError {
                #expect(error.diagnostics.map(\.description) == [expected])
            }
        }
    }

    @Test func aMarkerTheApplierCannotReadOverWhatLiesUnderItIsWarnedAtTheBackground() throws {
        // At @3x the classifier reads the last ⌈1.5⌉ = 2 pixels and takes the third from the right as
        // the colour under the 0.5 pt view. A 2-pixel white stamp over black: the pixel 1 in from the
        // corner both ways is predicted as ¼ white + ¾ black = 64 but is 255, 191 off; the limit is an
        // eighth of the white–black distance, 32. The 30-pixel art drawn 10 pt wide (factor 1) sits
        // in the middle: the colour under the marker is the background.
        let black = try Self.campaign(art: 30, 30, background: "#000000", layer: "fit: none\n        width: 10", top: "marker:\n  size: 2")
        #expect(
            try Self.warnings(black) == [
                "c.yaml:11:17: warning: appearances.light.background: the applier would not read the light marker #FFFFFF over #000000 on 1 screen: iPhone 15 portrait; marker.size: 3 (or a marker colour nearer what lies under it) makes it readable"
            ])
        // A 3-pixel stamp puts the third pixel inside the marker: every prediction is white, exact.
        let wider = try Self.campaign(art: 30, 30, background: "#000000", layer: "fit: none\n        width: 10", top: "marker:\n  size: 3")
        #expect(try Self.warnings(wider) == [])
        // At @2x the classifier reads only the corner pixel, fully covered: white, exact.
        let retina = try Self.campaign(
            art: 30, 30, background: "#000000", layer: "fit: none\n        width: 10", top: "marker:\n  size: 2",
            device: "iPhone SE (2nd generation)")
        #expect(try Self.warnings(retina).filter { $0.contains("marker") } == [])
        // Within an eighth: #E8E8E8 under white, ¾ × 23 = 17 ≤ 32.
        let nearWhite = try Self.campaign(art: 30, 30, background: "#E8E8E8", layer: "fit: none\n        width: 10", top: "marker:\n  size: 2")
        #expect(try Self.warnings(nearWhite) == [])
    }

    @Test func theMarkerCheckSeesTheArtUnderTheCorner() throws {
        // White background, but black art filling the screen: black lies under the marker.
        let campaign = try Self.campaign(art: 1179, 2556, colour: RGBAColor(r: 0, g: 0, b: 0), top: "marker:\n  size: 2")
        #expect(try Self.warnings(campaign).map { $0.contains("light marker #FFFFFF over #000000") } == [true])
    }

    @Test func strictMakesWarningsErrors() throws {
        let campaign = try Self.campaign(art: 40, 40)
        do {
            _ = try CampaignValidator.validate(campaign, strict: true)
            Issue.record("--strict let warnings through")
        } catch {
            #expect(error.diagnostics.count == 2 && error.diagnostics.allSatisfy { $0.severity == .error })
            #expect(error.description.hasPrefix("c.yaml:13:16: error: appearances.light.layers[0].image: the 40×40 art is enlarged"))
        }
    }

    @Test func aBuildWithWarningsWritesAndReportsThemAndAStrictOneWritesNothing() throws {
        let campaign = try Self.campaign(art: 40, 40)
        let output = temporaryFolder()
        let report = try BundleBuilder(outputRoot: output).build(campaign)
        #expect(report.warnings.count == 2 && report.warnings.allSatisfy { $0.severity == .warning })
        var strict = BundleBuilder(outputRoot: temporaryFolder())
        strict.strict = true
        #expect(throws: CampaignError.self) { try strict.build(campaign) }
        #expect(!FileManager.default.fileExists(atPath: strict.outputRoot.appendingPathComponent("art").path))
    }
}
