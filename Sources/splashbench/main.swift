import Foundation
import SplashApplier
import SplashCore

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
