import Foundation
import SplashApplier
import SplashCore
import SplashSimulator

// `make bench`: splashgen's build of campaigns/double11.yaml over the whole catalogue in both
// encodings, stage by stage, against the pipeline a user would otherwise script (ImageMagick for
// resize/crop/grey/marker, then the astcenc command line, once per device and variant).

let arguments = CommandLine.arguments.dropFirst()
let campaignPath = arguments.first { !$0.hasPrefix("-") } ?? "campaigns/double11.yaml"
let skipPipeline = arguments.contains("--no-pipeline")
let clock = ContinuousClock()

func seconds(_ d: Duration) -> String {
    let s = d / .seconds(1)
    return s >= 1 ? String(format: "%.2f s", s) : String(format: "%.1f ms", s * 1000)
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

func peakMemory() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
}

func temporaryFolder() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashbench-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@discardableResult
func run(_ tool: String, _ args: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + args
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(domain: "splashbench", code: Int(process.terminationStatus), userInfo: [NSLocalizedDescriptionKey: "\(tool) failed"])
    }
    return process.terminationStatus
}

let catalogue = try DeviceCatalogue.bundled()
let campaign = try CampaignLoader(catalogue: catalogue).load(contentsOf: URL(fileURLWithPath: campaignPath), displayPath: campaignPath)
let snapshotCount = campaign.screens.count * campaign.orientations.count * campaign.renderedAppearances.count
print("splashbench: \(campaignPath), \(campaign.screens.count) screen sizes x \(campaign.orientations.count) orientations x \(campaign.renderedAppearances.count) appearances = \(snapshotCount) snapshots, \(ProcessInfo.processInfo.activeProcessorCount) cores")

var splashgenWall: Duration = .zero
for encoding in SnapshotEncoding.allCases {
    var variant = campaign
    variant.encoding = encoding
    let output = temporaryFolder()
    defer { try? FileManager.default.removeItem(at: output) }
    let builder = BundleBuilder(outputRoot: output)
    let cold = try builder.build(variant)
    let peak = peakMemory()
    let warmStart = clock.now
    let warm = try builder.build(variant)
    let warmWall = clock.now - warmStart
    if encoding == .ktx { splashgenWall = cold.times.total }
    let label = encoding == .ktx ? "ktx (KTX 1.1, ASTC 4x4 \(variant.astcQuality.rawValue))" : "png (PNG bytes, libpng)"
    let t = cold.times
    print("""

    encoding \(label)
      stages (each summed over its worker threads)
        decode    \(seconds(t.decode))   (read, check and decode art; plan)
        resample  \(seconds(t.resample))   (compose: stb_image_resize, blend, grey, marker)
        encode    \(seconds(t.encode))
        hash      \(seconds(t.hash))   (SHA-256)
        write     \(seconds(t.write))   (cache, bundle, manifest, move into place)
      total wall time     \(seconds(t.total))
      unique objects      \(cold.uniqueObjects), \(megabytes(cold.bytes))
      unchanged rebuild   \(seconds(warmWall)) (\(warm.reused) reused, \(warm.rendered) rendered)
      peak memory         \(megabytes(peak)) (process peak after this build)
    """)
}

// The applier on a simulated iPhone 15 container, with a bundle made for that screen.
do {
    var phone = campaign
    phone.screens = DeviceCatalogue.screens(of: [catalogue.device(named: "iPhone 15")!])
    let bundle = try BundleBuilder(outputRoot: temporaryFolder()).build(phone).bundle
    let installed = temporaryFolder().appendingPathComponent("sandbox")
    _ = try SandboxSimulator(root: installed).install(launchScreen: URL(fileURLWithPath: "campaigns/default.yaml"),
                                                       version: "5.2", build: "100", device: "iPhone 15", ios: "17.0")
    let before = phone.schedule.start.addingTimeInterval(-3600), during = phone.schedule.start.addingTimeInterval(3600)
    func applier(_ root: URL, _ now: Date) -> SnapshotApplier {
        SnapshotApplier(container: root.appendingPathComponent("container"), bundle: bundle, appVersion: "5.2", appBuild: "100",
                        osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(), clock: { now })
    }
    func copyOfInstalled() throws -> URL {
        let copy = temporaryFolder().appendingPathComponent("sandbox")
        try FileManager.default.copyItem(at: installed, to: copy)
        return copy
    }
    func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }

    // A launch with nothing to do.
    let settled = try copyOfInstalled()
    _ = try applier(settled, during).apply()
    var noOps: [Duration] = []
    for i in 0..<500 {
        let now = during.addingTimeInterval(Double(i))
        let start = clock.now
        let report = try applier(settled, now).apply()
        noOps.append(clock.now - start)
        precondition(report.nothingToDo)
    }

    // First run after install: classify (decode 4 files), back up, nothing to replace yet.
    // Campaign start: verify and swap 4 files on a classified container. Baseline: copy + fsync.
    var firstRuns: [Duration] = [], swaps: [Duration] = [], copies: [Duration] = []
    let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
    for _ in 0..<9 {
        let root = try copyOfInstalled()
        var start = clock.now
        _ = try applier(root, before).apply()
        firstRuns.append(clock.now - start)
        start = clock.now
        let report = try applier(root, during).apply()
        swaps.append(clock.now - start)
        precondition(report.files.filter { $0.action == .replaced }.count == 4)

        let target = temporaryFolder()
        start = clock.now
        for snapshot in manifest.campaigns[0].snapshots {
            let data = try Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object))
            let url = target.appendingPathComponent(snapshot.object)
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        }
        copies.append(clock.now - start)
    }
    let sorted = noOps.sorted()
    print("""

    applier (iPhone 15 container, 4 cached snapshots, \(megabytes(manifest.campaigns[0].snapshots.reduce(0) { $0 + $1.bytes })) of objects)
      no-op launch        median \(seconds(median(noOps))), 90th percentile \(seconds(sorted[sorted.count * 9 / 10])) over \(noOps.count) runs
      first run           median \(seconds(median(firstRuns))) (classify 4 files by marker, back them up)
      campaign swap       median \(seconds(median(swaps))) (verify 4 objects, write, fsync, rename, record)
      copy + fsync        median \(seconds(median(copies))) (the same 4 objects, plain)
      swap / copy         \(String(format: "%.2f", median(swaps) / median(copies)))x
    """)
}

guard !skipPipeline else { exit(0) }

// The same snapshots, scripted with ImageMagick + astcenc: the geometry comes from splashgen's own
// planner so both pipelines draw the same thing; each snapshot is one `convert` and one `astcenc`.
let artwork = try Artwork.read(campaign, maxPixels: PNGCodec.defaultMaxPixels)
let planned = try SnapshotPlanner.plan(campaign, artwork: artwork, generator: SplashgenVersion.generator)
let work = temporaryFolder()
defer { try? FileManager.default.removeItem(at: work) }
print("\nreference pipeline: ImageMagick convert (resize, crop, composite, grey, marker) + astcenc -\(campaign.astcQuality.rawValue), per snapshot")
let pipelineStart = clock.now
var convertTime: Duration = .zero, astcTime: Duration = .zero
for (index, snapshot) in planned.enumerated() {
    let recipe = snapshot.recipe
    var args = ["-size", "\(recipe.width)x\(recipe.height)", "xc:\(recipe.background)"]
    for placement in recipe.placements {
        args += ["(", campaign.baseDirectory.appendingPathComponent(placement.image).path,
                 "-colorspace", "RGB", "-resize", "\(placement.width)x\(placement.height)!", "-colorspace", "sRGB", ")",
                 "-geometry", String(format: "%+d%+d", placement.x, placement.y), "-composite"]
    }
    if recipe.grey { args += ["-colorspace", "Gray", "-colorspace", "sRGB"] }
    let m = recipe.markerSize
    args += ["-fill", recipe.marker, "-draw", "rectangle \(recipe.width - m),\(recipe.height - m) \(recipe.width - 1),\(recipe.height - 1)"]
    let png = work.appendingPathComponent("\(index).png").path
    var mark = clock.now
    try run("convert", args + ["PNG32:" + png])
    convertTime += clock.now - mark
    mark = clock.now
    try run("astcenc", ["-cl", png, work.appendingPathComponent("\(index).ktx").path, "4x4", "-\(campaign.astcQuality.rawValue)", "-silent"])
    astcTime += clock.now - mark
    if isatty(STDERR_FILENO) != 0 { FileHandle.standardError.write(Data("\r  \(index + 1)/\(planned.count)".utf8)) }
}
if isatty(STDERR_FILENO) != 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
let pipelineWall = clock.now - pipelineStart
let ratio = pipelineWall / splashgenWall
print("""
  convert             \(seconds(convertTime))
  astcenc             \(seconds(astcTime))
  total wall time     \(seconds(pipelineWall)) for \(planned.count) snapshots
  splashgen (ktx)     \(seconds(splashgenWall)): \(String(format: "%.1f", ratio))x faster
""")
