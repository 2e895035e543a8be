// Expectations: the OS behaviour in docs/ios-launch-cache.md as the simulator models it (§1 cache
// shown first, §5 updates and purges regenerate, §6 black render, §9 iOS 12 folder move and
// leftovers); the schedule of campaigns/double11.yaml; the originals, byte for byte; raw ASTC
// originals rebuilt with Apple's reference LZFSE (pyliblzfse).
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashImaging
import SplashScenarios
import SplashSimulator
import Testing

/// The seeds' scenarios, end to end: the OS model shows the cache, then the app runs the applier.
@Suite struct ScenarioTests {
    let before = date("2026-11-10T10:00:00+08:00")
    let opening = date("2026-11-10T21:00:00+08:00")
    let during = date("2026-11-11T09:00:00+08:00")
    let after = date("2026-11-12T03:00:00+08:00")

    @Test func double11ShowsFromTheSecondLaunchInsideTheWindowAndTheOriginalsComeBack() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let originals = try sim.cachedFiles()
        let campaign = try object(in: bundle, portraitLight, pixels: iPhone15)

        let early = try sim.launch(bundle: bundle, now: before)
        #expect(early.contentHash == sha256Hex(originals[early.file]!))
        #expect(early.appReport?.campaign == nil)
        #expect(early.appReport?.nextChange == date("2026-11-10T20:00:00+08:00"))

        let first = try sim.launch(bundle: bundle, now: opening)
        #expect(first.contentHash == sha256Hex(originals[first.file]!), "the OS shows its cache before any app code runs")
        #expect(first.showing == "the OS's render of the app's launch screen", "issue 28, C9: what was shown, in the user's words")
        #expect(first.appReport?.files.map(\.action) == [.replaced, .replaced, .replaced, .replaced])

        for now in [opening.addingTimeInterval(60), during] {
            let later = try sim.launch(bundle: bundle, now: now)
            #expect(later.contentHash == campaign)
            #expect(later.showing == "double11's snapshot")
            #expect(later.appReport?.nothingToDo == true)
        }

        let ended = try sim.launch(bundle: bundle, now: after)
        #expect(ended.contentHash == campaign)
        #expect(ended.appReport?.campaign == nil && ended.appReport?.files.map(\.action) == [.restored, .restored, .restored, .restored])
        #expect(try sim.launch(bundle: bundle, now: after.addingTimeInterval(60)).contentHash == sha256Hex(originals[ended.file]!))
        #expect(try sim.cachedFiles() == originals)
    }

    /// Originals whose payload is a raw `ASTC` chunk (§3: a UInt32, then the blocks in row order),
    /// rewritten here from the OS's `LZFS` files by Apple's reference LZFSE: the OS shows them, the
    /// applier tells them by their marker, swaps them, and gives them back byte for byte.
    @Test func rawASTCOriginalsAreSwappedAndComeBackByteForByte() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let folder = try sim.snapshotFolder(try sim.model())
        func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        for (name, data) in try sim.cachedFiles() {
            let bytes = [UInt8](data)
            let blocks = [UInt8](try referenceLZFSEDecompress(Data(bytes[256..<(bytes.count - 8)])))
            var raw = Array(bytes[0..<244])
            raw += le(blocks.count + 4) + Array("ASTC".utf8) + le(blocks.count) + blocks
            raw += le(0) + Array("END ".utf8)
            try Data(raw).write(to: folder.appendingPathComponent(name))
        }
        let originals = try sim.cachedFiles()
        #expect(originals.values.allSatisfy { $0.count > 3_000_000 }, "raw blocks: one byte a pixel")

        let first = try sim.launch(bundle: bundle, now: opening)
        #expect(first.regenerated == nil, "the OS reads a raw ASTC payload")
        #expect(first.appReport?.files.map(\.action) == [.replaced, .replaced, .replaced, .replaced])
        #expect(first.appReport?.files.allSatisfy { $0.decidedBy == .marker } == true)
        // Each replacement is the original with only its picture changed: the raw ASTC payload, in
        // row order, now holding the campaign's blocks.
        let shown = try sim.launch(bundle: bundle, now: during)
        let held = try ATXFile(parsing: try #require(try sim.cachedFiles()[shown.file]))
        let was = try ATXFile(parsing: try #require(originals[shown.file]))
        #expect(held.payloadTag == "ASTC" && held.head == was.head)
        #expect(try held.astcBlocks() == (try objectBlocks(in: bundle, portraitLight, pixels: iPhone15)))
        let ended = try sim.launch(bundle: bundle, now: after)
        #expect(ended.appReport?.files.map(\.action) == [.restored, .restored, .restored, .restored])
        #expect(try sim.cachedFiles() == originals)
    }

    @Test(arguments: [("5.3", "200"), ("5.2", "101"), ("5.2", "100")])
    func anUpdateShowsTheNewDefaultOnceThenTheCampaignAgain(_ release: (version: String, build: String)) throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let campaign = try object(in: bundle, portraitLight, pixels: iPhone15)
        _ = try sim.launch(bundle: bundle, now: opening)
        #expect(try sim.launch(bundle: bundle, now: during).contentHash == campaign)

        _ = try sim.update(version: release.version, build: release.build)
        let regenerated = try sim.cachedFiles()
        let first = try sim.launch(bundle: bundle, now: during)
        #expect(first.contentHash == sha256Hex(regenerated[first.file]!), "the first launch after an update shows the OS's new render")
        #expect(first.appReport?.cacheRegenerated == true)
        #expect(first.appReport?.files.allSatisfy { $0.action == .replaced } == true)
        #expect(try sim.launch(bundle: bundle, now: during).contentHash == campaign, "carried over to the second launch")

        // The campaign ends after the update: the *new* originals come back.
        _ = try sim.launch(bundle: bundle, now: after)
        #expect(try sim.cachedFiles() == regenerated)
    }

    @Test func everyVariantGetsItsOwnSnapshot() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        _ = try sim.launch(bundle: bundle, now: opening)
        for appearance in Appearance.allCases {
            for orientation in Orientation.allCases {
                _ = try sim.set(appearance: appearance, orientation: orientation)
                let shown = try sim.launch(bundle: bundle, now: during)
                let variant = SpringBoardModel.Variant(orientation: orientation, appearance: appearance)
                #expect(shown.variant == variant)
                #expect(shown.contentHash == (try object(in: bundle, variant, pixels: iPhone15)), "\(orientation) \(appearance)")
            }
        }
    }

    @Test func aGreyDayThenBackToNormal() throws {
        let bundle = try Bundles.mourning.get()
        let sim = try sandbox(Installed.iPhone15Colourful)
        let originals = try sim.cachedFiles()
        let day = date("2026-12-04T08:00:00+08:00")
        _ = try sim.launch(bundle: bundle, now: day)
        let grey = try sim.launch(bundle: bundle, now: day.addingTimeInterval(60))
        #expect(colouredPixels(grey.image) == 0)

        _ = try sim.launch(bundle: bundle, now: date("2026-12-05T08:00:00+08:00"))
        let normal = try sim.launch(bundle: bundle, now: date("2026-12-05T08:01:00+08:00"))
        #expect(normal.contentHash == sha256Hex(originals[normal.file]!))
        #expect(colouredPixels(normal.image) > 0)
    }

    @Test func aBundleOfTheDefaultLaunchScreenRepairsABlackRender() throws {
        let bundle = try Bundles.repair.get()
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", blackRender: true))
        let good = try object(in: bundle, portraitLight, pixels: iPhone15)
        let goodImage = try SnapshotDecoder().decode(Data(contentsOf: bundle.appendingPathComponent("objects/" + good)))
        let broken = try sim.launch(bundle: bundle, now: during)
        #expect(broken.contentHash != good)
        // The logo's image view is a solid black box: around the logo, where it is transparent,
        // the user sees black instead of the white background.
        func blackWhereWhite(_ image: RGBAImage) -> Int {
            (0..<image.pixels.count / 4).filter { i in
                goodImage.pixels[i * 4] > 200 && image.pixels[i * 4] < 40 && image.pixels[i * 4 + 1] < 40 && image.pixels[i * 4 + 2] < 40
            }.count
        }
        #expect(blackWhereWhite(broken.image) > 20_000)
        #expect(broken.appReport?.files.allSatisfy { $0.decidedBy == .marker } == true, "the marker survives the bug")

        let repaired = try sim.launch(bundle: bundle, now: during)
        #expect(repaired.contentHash == good)
        #expect(blackWhereWhite(repaired.image) == 0)
    }

    /// iOS 12 caches plain KTX, in a folder it will not let the app write in place: the campaign
    /// goes in as plain KTX (docs/ios-launch-cache.md §3), and the originals come back byte for byte.
    @Test func onIOS12TheCacheCannotBeWrittenInPlace() throws {
        let bundle = try Bundles.double11OldPhone.get()
        let sim = SandboxSimulator(root: try Installed.install(device: "iPhone 8", ios: "12.4"))
        #expect(try sim.snapshotFolder(sim.model()).path.hasSuffix("container/Library/Caches/Snapshots/com.example.shop"))
        let originals = try sim.cachedFiles()
        let first = try sim.launch(bundle: bundle, now: opening)
        #expect(first.appReport?.folder == "Library/Caches/Snapshots/com.example.shop")
        #expect(first.refusedWrites.isEmpty, "the applier moves the folder out, edits it and moves it back")
        let shown = try sim.launch(bundle: bundle, now: during)
        #expect(shown.regenerated == nil, "the OS read back the replacement")
        let held = try #require(try sim.cachedFiles()[shown.file])
        #expect(SnapshotContent(sniffing: held) == .ktx && (try? KTXFile(parsing: held).isAppleCompressed) == false, "plain KTX over plain KTX")
        #expect(
            try SnapshotHeader.astcBlocks(of: held).blocks == (try objectBlocks(in: bundle, portraitLight, pixels: Manifest.Size(width: 750, height: 1334))))
        let ended = try sim.launch(bundle: bundle, now: after)
        #expect(ended.refusedWrites.isEmpty)
        #expect(try sim.cachedFiles() == originals)
        #expect(try sim.model().variants.values.allSatisfy { $0.appearance == .light }, "no dark mode before iOS 13")
    }

    /// A KTX cache on a current iOS (the field holds such files, §9): every replacement is KTX of the
    /// same kind, carrying the campaign's blocks, and the OS reads it back; never ATX over KTX. After
    /// the campaign, the originals come back byte for byte.
    @Test(arguments: [CacheFormat.ktx, .appleCompressedKTX])
    func aKTXCacheGetsTheCampaignInKTX(_ format: CacheFormat) throws {
        let bundle = try Bundles.double11.get()
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", cacheFormat: format))
        let originals = try sim.cachedFiles()
        let compressed = format == .appleCompressedKTX
        #expect(originals.values.allSatisfy { (try? KTXFile(parsing: $0).isAppleCompressed) == compressed })
        let first = try sim.launch(bundle: bundle, now: opening)
        #expect(first.appReport?.problems == [])
        for appearance in Appearance.allCases {
            _ = try sim.set(appearance: appearance)
            let variant = SpringBoardModel.Variant(orientation: .portrait, appearance: appearance)
            let shown = try sim.launch(bundle: bundle, now: during)
            #expect(shown.regenerated == nil, "\(variant): the OS read back the replacement")
            let held = try #require(try sim.cachedFiles()[shown.file])
            #expect((try? KTXFile(parsing: held).isAppleCompressed) == compressed, "\(variant): the original's container")
            #expect(try SnapshotHeader.astcBlocks(of: held).blocks == (try objectBlocks(in: bundle, variant, pixels: iPhone15)), "\(variant)")
        }
        #expect(try sim.cachedFiles().values.allSatisfy { SnapshotContent(sniffing: $0) == .ktx }, "no file that held KTX holds ATX")
        _ = try sim.launch(bundle: bundle, now: after)
        #expect(try sim.cachedFiles() == originals)
    }

    /// A fresh iPhone 15 whose OS rendered the light files black and the dark ones well (issue 25's
    /// case): the sandbox, its model, the files as the OS wrote them, and the light and dark names.
    private func blackLightBesideGoodDark() throws -> (
        sim: SandboxSimulator, model: SpringBoardModel, originals: [String: Data], light: [String], dark: [String]
    ) {
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", blackRender: true))
        let model = try sim.model()
        let folder = try sim.snapshotFolder(model)
        let storyboard = try LaunchScreen(storyboardAt: try Repo.ownStoryboard, device: "iPhone 15", ios: try #require(OSVersion("17.0")))
        for (name, variant) in model.variants where variant.appearance == .dark {
            try storyboard.render(variant, black: false, encoder: OSCodecs.ASTCEncoder()).write(to: folder.appendingPathComponent(name))
        }
        let light = model.variants.filter { $0.value.appearance == .light }.map(\.key).sorted()
        let dark = model.variants.filter { $0.value.appearance == .dark }.map(\.key).sorted()
        return (sim, model, try sim.cachedFiles(), light, dark)
    }

    /// The OS's black render (docs/ios-launch-cache.md §6), light files only, beside dark files it
    /// rendered well (issue 25's case): the black ones are told against the app's own screen when they
    /// are backed up and reported, and once the campaign ends they do not come back, the app's own
    /// screen goes there (in the original's container); the dark ones come back byte for byte.
    @Test func aBlackRenderIsToldAndNeverPutBack() throws {
        let bundle = try Bundles.double11WithOwnScreen.get()
        let (sim, model, originals, light, dark) = try blackLightBesideGoodDark()

        let first = try sim.launch(bundle: bundle, now: opening)
        let told = first.appReport?.problems.filter { $0.code == .originalBlackRender } ?? []
        #expect(told.compactMap(\.file).sorted() == light, "the black renders, and only they, are told")
        #expect(told.allSatisfy { $0.message.contains("solid black where default, the app's own screen, draws them") })
        _ = try sim.launch(bundle: bundle, now: during)
        let ended = try sim.launch(bundle: bundle, now: after)
        let repaired = ended.appReport?.problems.filter { $0.code == .originalBlackRender } ?? []
        #expect(repaired.compactMap(\.file).sorted() == light)
        #expect(repaired.allSatisfy { $0.message == "the original is the OS's black render: default, the app's own screen, goes there instead" })
        let now = try sim.cachedFiles()
        for name in dark { #expect(now[name] == originals[name], "\(name): a good original comes back byte for byte") }
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        let own = try #require(manifest.campaigns.first { $0.ownScreen == true })
        for name in light {
            let held = try #require(now[name])
            #expect(held != originals[name], "\(name): the black render is not put back")
            let variant = try #require(model.variants[name])
            let snapshot = try #require(own.snapshots.first { $0.orientation == variant.orientation && $0.appearance == variant.appearance })
            let object = try Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object))
            #expect(try SnapshotHeader.astcBlocks(of: held).blocks == (try SnapshotHeader.astcBlocks(of: object).blocks), "\(name): the app's own screen")
        }
        #expect(ended.appReport?.files.filter { light.contains($0.name) }.allSatisfy { $0.showing == "default" } == true)
        // A later run has nothing more to do, and says nothing more.
        let again = try sim.launch(bundle: bundle, now: after.addingTimeInterval(60))
        #expect(again.appReport?.problems == [])
        #expect(try sim.cachedFiles() == now)
    }

    /// A black render told against the app's own screen, when the campaign ends under a bundle that no
    /// longer holds that screen: nothing can go in its place, so the file is removed (reported, and
    /// `removed` in the report), and the OS renders the launch screen again at the next launch. The
    /// dark files, rendered well, come back byte for byte.
    @Test func aBlackRenderWithNothingToPutInItsPlaceIsRemovedForTheOSToRenderAgain() throws {
        let (sim, installed, originals, light, dark) = try blackLightBesideGoodDark()
        let folder = try sim.snapshotFolder(installed)
        let storyboard = try LaunchScreen(storyboardAt: try Repo.ownStoryboard, device: "iPhone 15", ios: try #require(OSVersion("17.0")))
        _ = try sim.launch(bundle: try Bundles.double11WithOwnScreen.get(), now: opening)
        _ = try sim.launch(bundle: try Bundles.double11WithOwnScreen.get(), now: during)

        // The next season's bundle has no own_screen campaign.
        let ended = try #require(try sim.launch(bundle: try Bundles.double11.get(), now: after).appReport)
        let told = ended.problems.filter { $0.code == .originalBlackRender }
        #expect(told.compactMap(\.file).sorted() == light)
        #expect(told.allSatisfy { $0.message.hasSuffix("the file is removed, so iOS renders it again from the storyboard at the next launch") })
        #expect(ended.files.filter { $0.action == .removed }.map(\.name).sorted() == light)
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ktx") }
        #expect(Set(entries) == Set(dark), "the black renders are gone")
        let now = try Dictionary(uniqueKeysWithValues: dark.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })
        for name in dark { #expect(now[name] == originals[name], "\(name): a good original comes back byte for byte") }

        // The OS, rendering well this time, draws the launch screen again.
        var model = try sim.model()
        model.blackRender = false
        try model.save(sim.root.appendingPathComponent("springboard.json"))
        let next = try sim.launch(bundle: try Bundles.double11.get(), now: after.addingTimeInterval(60))
        #expect(next.regenerated != nil, "the missing file makes the OS render again")
        let good = storyboard.image(next.variant, black: false), black = storyboard.image(next.variant, black: true)
        func distance(_ a: RGBAImage, _ b: RGBAImage) -> Int { zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } }
        #expect(distance(next.image, good) * 4 < distance(next.image, black), "what the user sees is the good render")
        #expect(next.appReport?.problems.filter { $0.code == .originalBlackRender } == [])
    }

    /// Never told on a good render, for each storyboard stand-in beside the shipped campaign that
    /// describes the same screen (its own build, marked as the app's own screen, the reference), in
    /// both orientations and appearances. A black render is told where its filled views stand out
    /// from what surrounds them: the light files of the logo on white, in both orientations (the own
    /// screen's landscape laid out as the OS lays it out, §6). The dark files (a logo on black turned
    /// black) and the full-bleed art of colourful.json (nothing outside its views to tell the
    /// storyboard by) are undecided, reported, and kept. The two sides are read apart: the campaign by
    /// the generator's loader, the storyboard by the simulator's own.
    @Test(arguments: [("default.yaml", "", "light"), ("double11.yaml", "colourful.json", "none")])
    func aShippedStoryboardIsToldBlackOnlyWhenItIs(_ file: String, storyboard: String, toldWhenBlack: String) throws {
        let bundle = try buildBundle(file) { $0.ownScreen = true }
        for black in [false, true] {
            let launchScreen = storyboard.isEmpty ? try Repo.ownStoryboard : Repo.storyboard(storyboard)
            let sim = SandboxSimulator(root: try Installed.install(launchScreen: launchScreen, ios: "17.0", blackRender: black))
            let problems = try sim.launch(bundle: bundle, now: opening).appReport?.problems ?? []
            let told = problems.filter { $0.code == .originalBlackRender }.compactMap(\.file).sorted()
            let variants = try sim.model().variants
            let expected = black ? variants.filter { $0.value.appearance.rawValue == toldWhenBlack }.map(\.key).sorted() : []
            #expect(told == expected, "\(file), black render \(black)")
            if black {
                let undecided = problems.filter { $0.code == .blackRenderUndecided }.compactMap(\.file)
                #expect(Set(undecided) == Set(variants.keys).subtracting(expected), "\(file): every black render not told is undecided")
            }
        }
    }

    /// ATX originals whose unnamed HEAD words differ from splashgen's own (field files hold 0 or 1 in
    /// word 13, and 1,5 or 4,1 or 3,5 in words 19 and 20): each replacement keeps them, carries the
    /// campaign's blocks, and the originals come back byte for byte.
    @Test func unusualATXHeadWordsAreKept() throws {
        let bundle = try Bundles.double11.get()
        let root = try Installed.install(ios: "17.0")
        let sim = SandboxSimulator(root: root)
        let folder = try sim.snapshotFolder(sim.model())
        for (index, (name, data)) in try sim.cachedFiles().sorted(by: { $0.key < $1.key }).enumerated() {
            var bytes = [UInt8](data)
            // HEAD's words start at byte 16 (magic 8, chunk length 4, tag 4).
            let words: [(Int, UInt32)] = [(13, UInt32(index % 2)), (19, index < 2 ? 4 : 3), (20, index < 2 ? 1 : 5)]
            for (word, value) in words {
                bytes.replaceSubrange((16 + 4 * word)..<(20 + 4 * word), with: (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) })
            }
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let originals = try sim.cachedFiles()
        _ = try sim.launch(bundle: bundle, now: opening)
        let replaced = try sim.cachedFiles()
        for (name, original) in originals {
            let held = try #require(replaced[name])
            #expect(held != original, "\(name) was replaced")
            #expect(try ATXFile(parsing: held).head == (try ATXFile(parsing: original).head), "\(name): every HEAD word kept")
        }
        let shown = try sim.launch(bundle: bundle, now: during)
        #expect(shown.regenerated == nil)
        #expect(try SnapshotHeader.astcBlocks(of: try #require(replaced[shown.file])).blocks == (try objectBlocks(in: bundle, portraitLight, pixels: iPhone15)))
        _ = try sim.launch(bundle: bundle, now: after)
        #expect(try sim.cachedFiles() == originals)
    }

    @Test func aStoryboardThatLooksTheSameInLightAndDarkIsToldByItsMarker() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15Brand)
        let first = try sim.launch(bundle: bundle, now: opening)
        #expect(first.appReport?.files.map(\.decidedBy) == [.marker, .marker, .marker, .marker])
        for appearance in Appearance.allCases {
            for orientation in Orientation.allCases {
                _ = try sim.set(appearance: appearance, orientation: orientation)
                let variant = SpringBoardModel.Variant(orientation: orientation, appearance: appearance)
                #expect(try sim.launch(bundle: bundle, now: during).contentHash == (try object(in: bundle, variant, pixels: iPhone15)), "\(variant)")
            }
        }
    }

    @Test func anotherLibrarysLeftoversAreNotKeptAsOriginals() throws {
        let bundle = try Bundles.mourning.get()
        let sim = SandboxSimulator(root: try Installed.install(ios: "17.0", leftovers: Repo.storyboard("colourful.json")))
        let day = date("2026-12-04T08:00:00+08:00")
        let first = try sim.launch(bundle: bundle, now: day)
        #expect(first.appReport?.problems.map(\.code) == [.leftoversCleared], "leftovers are reported, not backed up as originals")
        #expect(first.appReport?.complete == false)
        let second = try sim.launch(bundle: bundle, now: day.addingTimeInterval(60))
        #expect(second.regenerated != nil, "the OS renders clean originals after the folder was cleared")
        #expect(second.appReport?.cacheRegenerated == true && second.appReport?.complete == true)
        let grey = try sim.launch(bundle: bundle, now: day.addingTimeInterval(120))
        #expect(colouredPixels(grey.image) == 0)
        let over = date("2026-12-05T08:00:00+08:00")
        for minute in 0..<2 { _ = try sim.launch(bundle: bundle, now: over.addingTimeInterval(Double(minute) * 60)) }
        #expect(try sim.cachedFiles().values.allSatisfy { SnapshotContent(sniffing: $0) == .atx }, "the OS's own renders, not the old PNGs")
    }

    @Test func aLanguageChangeOrAPurgeIsCarriedOverToo() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let campaign = try object(in: bundle, portraitLight, pixels: iPhone15)
        _ = try sim.launch(bundle: bundle, now: opening)
        _ = try sim.languageChange()
        #expect(try sim.cachedFiles().count == 1, "only the current variant comes back")
        _ = try sim.launch(bundle: bundle, now: during)
        #expect(try sim.launch(bundle: bundle, now: during).contentHash == campaign)

        _ = try sim.purge()
        let after = try sim.launch(bundle: bundle, now: during)
        #expect(after.regenerated != nil && after.appReport?.cacheRegenerated == true)
        #expect(try sim.launch(bundle: bundle, now: during).contentHash == campaign)
    }

    @Test func theAppSwitcherSnapshotsAreNeverTouched() throws {
        let bundle = try Bundles.double11.get()
        let sim = try sandbox(Installed.iPhone15)
        let scene = { try sim.snapshotTree().filter { $0.key.contains("sceneID:") } }
        let before = try scene()
        #expect(before.count == 2)
        _ = try sim.launch(bundle: bundle, now: opening)
        _ = try sim.launch(bundle: bundle, now: after)
        #expect(try scene() == before)
    }

    @Test func aFileOfTheWrongSizeIsRejectedByTheOSAndRendered() throws {
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        let name = model.variants.first { $0.value == portraitLight }!.key
        try PNGCodec.encode(RGBAImage(width: 10, height: 10, fill: RGBAColor(r: 1, g: 2, b: 3)))
            .write(to: try sim.snapshotFolder(model).appendingPathComponent(name))
        let launch = try sim.launch(bundle: nil, now: during)
        #expect(launch.regenerated == "\(name) is 10x10, not 1179x2556")
        #expect(launch.file != name)
        let after = try sim.model().variants
        #expect(after.count == 4 && Set(after.keys).isDisjoint(with: model.variants.keys), "the whole cache rendered anew")
    }
}

/// Pixels whose red, green and blue differ.
func colouredPixels(_ image: RGBAImage) -> Int {
    var count = 0
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
        let (r, g, b) = (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
        if r != g || r != b { count += 1 }
    }
    return count
}
