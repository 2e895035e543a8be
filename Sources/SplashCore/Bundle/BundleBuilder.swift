import Dispatch
import Foundation
import SplashFormat
import SplashImaging

/// The build: campaign → artwork → plan → render → encode → hash → bundle under `Output/<name>/`.
/// Prints nothing; reports progress through a callback and returns a ``BuildReport``.
package struct BundleBuilder: Sendable {
    /// The folder that holds bundles (`Output`).
    package var outputRoot: URL
    /// Reuse earlier renders from `Output/.cache` when their recipe is unchanged.
    package var useCache = true
    /// The ceiling on an art image's pixel count.
    package var maxImagePixels = PNGCodec.defaultMaxPixels
    /// How many snapshots are rendered at once.
    package var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Whether the art checks' warnings stop the build, as errors.
    package var strict = false

    /// Makes a builder writing under `outputRoot`.
    package init(outputRoot: URL) {
        self.outputRoot = outputRoot
    }

    /// Builds the bundle for `campaign` under `outputRoot/<name>/`.
    package func build(_ campaign: Campaign, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> BuildReport {
        try build(Season(campaign), progress: progress)
    }

    /// Builds one bundle holding every campaign of `season`, objects shared between them. On any
    /// error (an art check's warning too, when ``strict``) nothing under `outputRoot/<name>` changes. `progress` receives (snapshots done,
    /// snapshots to render), from worker threads.
    package func build(
        _ season: Season, progress: (@Sendable (Int, Int) -> Void)? = nil, waiting: (() -> Void)? = nil
    ) throws -> BuildReport {
        if let problem = season.problems.first { throw CampaignError([problem]) }
        // The output folder is locked and the bundle's folder checked before anything is written.
        let variants = season.campaigns.flatMap(\.languageVariants)
        let artFiles = variants.flatMap { variant in variant.campaign.appearances.values.flatMap(\.layers).map { variant.campaign.url(of: $0) } }
        let writer = try BundleWriter(outputRoot: outputRoot, name: season.name, inputs: artFiles, waiting: waiting)
        let clock = ContinuousClock()
        let started = clock.now
        var times = StageTimes()

        let readStart = clock.now
        // One plan per art: a campaign's own, and each language's.
        var plans: [(campaign: Campaign, language: String?, artwork: Artwork, snapshots: [PlannedSnapshot])] = []
        for (language, campaign) in variants {
            let artwork = try Artwork.read(campaign, maxPixels: maxImagePixels)
            plans.append((campaign, language, artwork, try SnapshotPlanner.plan(campaign, artwork: artwork, generator: SplashgenVersion.generator)))
        }
        times.decode += clock.now - readStart

        // One object per distinct recipe, across campaigns; earlier builds may already hold it.
        var recipes: [String: (recipe: RenderRecipe, plan: Int)] = [:]
        var recipeOrder: [String] = []
        for (index, plan) in plans.enumerated() {
            for snapshot in plan.snapshots where recipes[snapshot.recipe.key] == nil {
                recipeOrder.append(snapshot.recipe.key)
                recipes[snapshot.recipe.key] = (snapshot.recipe, index)
            }
        }
        let cache = BuildCache(root: outputRoot.appendingPathComponent(".cache"))
        var objects: [String: StoredObject] = [:]
        let hashStart = clock.now
        if useCache {
            for key in recipeOrder {
                if let hit = cache.lookup(key) { objects[key] = StoredObject(hash: hit.hash, url: hit.url, bytes: hit.bytes) }
            }
        }
        times.hash += clock.now - hashStart
        let toRender = recipeOrder.filter { objects[$0] == nil }

        // The art to render, and the art the marker check must see, decoded once; the art checks
        // run before anything is written.
        let decodeStart = clock.now
        var art: [String: RGBAImage] = [:]
        var problems: [Diagnostic] = []
        for (index, plan) in plans.enumerated() {
            let needed = Set(toRender.filter { recipes[$0]!.plan == index }.flatMap { recipes[$0]!.recipe.placements.map(\.image) })
            let images = try plan.artwork.decode(needed.union(ArtChecker.imagesUnderMarker(plan.snapshots)), maxPixels: maxImagePixels)
            for (path, image) in images where needed.contains(path) {
                if let hash = plan.artwork.items[path]?.contentHash { art[hash] = image }
            }
            problems += ArtChecker.check(plan.campaign, artwork: plan.artwork, snapshots: plan.snapshots, images: images)
        }
        let warnings = try CampaignError.warnings(problems, strict: strict)
        times.decode += clock.now - decodeStart

        let rendered = try render(toRender.map { ($0, recipes[$0]!.recipe) }, art: art, cache: cache, times: &times, progress: progress)
        objects.merge(rendered) { old, _ in old }

        let writeStart = clock.now
        for key in recipeOrder {
            try writer.addObject(at: objects[key]!.url, hash: objects[key]!.hash)
        }
        // One marker, or one UILaunchScreen, for the app: a season's campaigns agree on it (``Season/problems``).
        let marker = season.campaigns[0].marker
        var manifest = Manifest(
            generator: SplashgenVersion.generator,
            app: Manifest.App(
                bundleID: season.campaigns[0].app.bundleID,
                marker: marker.map { Manifest.Marker(light: $0.light.hex, dark: $0.dark.hex, size: $0.size) },
                launchScreen: season.campaigns[0].launchScreen?.colors),
            campaigns: season.campaigns.map { campaign in
                Manifest.Campaign(
                    id: campaign.name, schedule: campaign.schedule, grey: campaign.grey, encoding: campaign.encoding.container,
                    snapshots: plans.filter { $0.campaign.name == campaign.name }.flatMap { plan in
                        plan.snapshots.map { snapshot in (snapshot, plan.language) }
                    }.map { snapshot, language in
                        let object = objects[snapshot.recipe.key]!
                        // A window of an iPad's screen is given as it shows, with the screen it is on.
                        let window = snapshot.screen.windowOf
                        var entry = Manifest.Snapshot(
                            points: window == nil ? snapshot.screen.points : snapshot.screen.points(snapshot.orientation), scale: snapshot.screen.scale,
                            pixels: snapshot.screen.pixels(snapshot.orientation), orientation: snapshot.orientation,
                            appearance: snapshot.appearance, family: snapshot.screen.family.rawValue,
                            devices: snapshot.screen.devices.map(\.name),
                            object: object.hash, bytes: object.bytes,
                            // The app's own screen says where its image views are, for telling black renders.
                            imageViews: campaign.ownScreen
                                ? snapshot.recipe.placements.map { Manifest.Frame(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } : nil,
                            language: language)
                        entry.screen = window
                        return entry
                    },
                    priority: campaign.priority, minVersion: campaign.app.minVersion, maxVersion: campaign.app.maxVersion,
                    ownScreen: campaign.ownScreen, rollout: campaign.rollout, match: campaign.match)
            })
        // Schema 3 unless a campaign needs 4, so that apps out there read every bundle they can.
        manifest.schema = manifest.neededSchema
        let bundle = try writer.commit(manifest)
        times.write += clock.now - writeStart
        times.total = clock.now - started

        var byFamily: [DeviceFamily: Int] = [:]
        for plan in plans { for snapshot in plan.snapshots { byFamily[snapshot.screen.family, default: 0] += 1 } }
        let unique = Dictionary(objects.values.map { ($0.hash, $0.bytes) }) { a, _ in a }
        return BuildReport(
            bundle: bundle, manifest: manifest, snapshots: plans.reduce(0) { $0 + $1.snapshots.count },
            snapshotsByFamily: byFamily, uniqueObjects: unique.count, bytes: unique.values.reduce(0, +),
            rendered: toRender.count, reused: recipeOrder.count - toRender.count, times: times, warnings: warnings)
    }

    private struct StoredObject: Sendable {
        var hash: String
        var url: URL
        var bytes: Int
    }

    /// Renders, encodes, hashes and caches recipes on `workers` threads, each with its own encoder.
    private func render(
        _ jobs: [(key: String, recipe: RenderRecipe)], art: [String: RGBAImage],
        cache: BuildCache, times: inout StageTimes,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws -> [String: StoredObject] {
        guard !jobs.isEmpty else { return [:] }
        struct Shared {
            var next = 0
            var done = 0
            var results: [String: StoredObject] = [:]
            var times = StageTimes()
            var failure: (any Error)?
        }
        let shared = Locked(Shared())
        let clock = ContinuousClock()
        let workerCount = max(1, min(workers, jobs.count))
        DispatchQueue.concurrentPerform(iterations: workerCount) { _ in
            // One encoder per (encoding, quality) a worker meets: campaigns of a season may differ.
            var encoders: [String: SnapshotEncoder] = [:]
            var local = StageTimes()
            while true {
                let index: Int? = shared.withLock { state in
                    guard state.failure == nil, state.next < jobs.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { break }
                let job = jobs[index]
                do {
                    var mark = clock.now
                    let image = SnapshotRenderer.render(job.recipe, art: art)
                    local.resample += clock.now - mark
                    mark = clock.now
                    let encoderKey = "\(job.recipe.encoding.rawValue)/\(job.recipe.quality)"
                    if encoders[encoderKey] == nil {
                        guard let quality = ASTCQuality(rawValue: job.recipe.quality) else {
                            throw BuildError.encodeFailed("unknown quality \(job.recipe.quality)")
                        }
                        encoders[encoderKey] = try SnapshotEncoder(encoding: job.recipe.encoding, quality: quality)
                    }
                    let data = try encoders[encoderKey]!.encode(image)
                    local.encode += clock.now - mark
                    mark = clock.now
                    let hash = sha256Hex(data)
                    local.hash += clock.now - mark
                    mark = clock.now
                    let url = try cache.store(data, hash: hash, recipeKey: job.key)
                    local.write += clock.now - mark
                    let done = shared.withLock { state in
                        state.results[job.key] = StoredObject(hash: hash, url: url, bytes: data.count)
                        state.done += 1
                        return state.done
                    }
                    progress?(done, jobs.count)
                } catch let error as BuildError {
                    shared.withLock { $0.failure = $0.failure ?? error }
                } catch {
                    shared.withLock { $0.failure = $0.failure ?? BuildError.encodeFailed("\(error)") }
                }
            }
            shared.withLock { $0.times.add(local) }
        }
        let outcome = shared.withLock { $0 }
        if let failure = outcome.failure { throw failure }
        times.add(outcome.times)
        return outcome.results
    }
}
