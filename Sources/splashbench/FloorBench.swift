import Foundation
import SplashCore
import SplashFormat
import SplashImaging

/// `make bench`, the floor of a cold KTX build: the build's unique images, drawn beforehand and
/// saved as PNG (not timed), each through the `astcenc -cl` command line at the campaign's preset,
/// one after the other (astcenc uses every core on each image). A build can hardly beat compressing
/// its own images; the ratio says what everything else costs (art, resampling, hashing, writing).
func floorFigures(_ campaign: Campaign) throws {
    var campaign = campaign
    campaign.encoding = .ktx
    let clock = ContinuousClock()
    // The build under test: cold (no cache), into a fresh folder, twice; the faster counts.
    var builds: [(wall: Duration, times: StageTimes, objects: Int)] = []
    for _ in 0..<2 {
        var builder = BundleBuilder(outputRoot: temporaryFolder())
        builder.useCache = false
        let report = try builder.build(campaign)
        builds.append((report.times.total, report.times, report.uniqueObjects))
        try? FileManager.default.removeItem(at: report.bundle.deletingLastPathComponent())
    }
    let build = builds.min { $0.wall < $1.wall }!

    // The same unique images, drawn by the same renderer and saved as PNG.
    let artwork = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
    var art: [String: RGBAImage] = [:]
    for (path, image) in try artwork.decode(Set(artwork.items.keys), maxPixels: PNGCodec.defaultMaxPixels) {
        if let hash = artwork.items[path]?.contentHash { art[hash] = image }
    }
    var recipes: [String: RenderRecipe] = [:]
    for snapshot in try SnapshotPlanner.plan(campaign, artwork: artwork, generator: SplashgenVersion.generator) {
        recipes[snapshot.recipe.key] = snapshot.recipe
    }
    let work = temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    var pngs: [URL] = []
    for (index, recipe) in recipes.values.enumerated() {
        let url = work.appendingPathComponent("\(index).png")
        try PNGCodec.encode(SnapshotRenderer.render(recipe, art: art)).write(to: url)
        pngs.append(url)
    }
    var floors: [Duration] = []
    for _ in 0..<2 {
        let start = clock.now
        for png in pngs {
            try run(
                "astcenc",
                ["-cl", png.path, png.deletingPathExtension().appendingPathExtension("astc").path, "4x4", "-\(campaign.astcQuality.rawValue)", "-silent"])
        }
        floors.append(clock.now - start)
    }
    let floor = floors.min()!
    let t = build.times
    print(
        """

        cold KTX build against its floor (\(pngs.count) unique images, ASTC 4x4 \(campaign.astcQuality.rawValue), best of 2 each)
          splashgen build     \(seconds(build.wall)) wall, \(build.objects) objects (cpu: art \(seconds(t.decode)), resample \(seconds(t.resample)), encode \(seconds(t.encode)), hash \(seconds(t.hash)), write \(seconds(t.write)))
          astcenc -cl floor   \(seconds(floor)) wall (the same images as PNG, one astcenc run each)
          build / floor       \(String(format: "%.2f", build.wall / floor))x (goal: at most 1.15x)
        """)
}
