import Foundation
@_spi(Testing) @_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashImaging
import SplashScenarios
import SplashSimulator

#if canImport(Glibc)
import Glibc
#endif

// `make bench`: splashgen's build of campaigns/double11.yaml over the whole catalogue in both
// encodings, stage by stage, against the pipeline a user would otherwise script (ImageMagick for
// resize/crop/grey/marker, then the astcenc command line, once per device and variant).

let arguments = CommandLine.arguments.dropFirst()

/// This process image's peak resident memory in bytes: Linux's VmHWM, which starts anew at exec
/// (ru_maxrss carries the parent's peak into a spawned child); elsewhere ru_maxrss.
func imagePeakMemory() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "")
    {
        return kilobytes * 1024
    }
    #endif
    return peakMemory()
}

/// This process's resident memory now in bytes (Linux's VmRSS; elsewhere the peak).
func residentMemory() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "")
    {
        return kilobytes * 1024
    }
    #endif
    return peakMemory()
}

// `splashbench --probe-apply CONTAINER BUNDLE ISO8601`: one apply in a fresh process, printing how far
// the peak resident memory rose during it (the parent reads the line).
if arguments.first == "--probe-apply", arguments.count == 4 {
    let values = Array(arguments.dropFirst())
    let now = try Date(values[2], strategy: .iso8601)
    let applier = SnapshotApplier(
        container: URL(fileURLWithPath: values[0]), bundle: URL(fileURLWithPath: values[1]), appVersion: "5.2",
        appBuild: "100", osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { now })
    // Warm up on a copy first, so one-time costs (libraries, ICU's date data, astcenc's tables,
    // the allocator's arenas) are in the baseline and only the apply's own memory is measured.
    let warmup = URL(fileURLWithPath: values[0] + "-warmup")
    try? FileManager.default.removeItem(at: warmup)
    try FileManager.default.copyItem(at: URL(fileURLWithPath: values[0]), to: warmup)
    var warm = applier
    warm.container = warmup
    _ = try warm.apply()
    try? FileManager.default.removeItem(at: warmup)
    // Give freed memory back and restart the high-water mark from what is resident now (Linux:
    // clear_refs 5 resets VmHWM), so the peak measured is the apply's own.
    #if os(Linux)
    // glibc's malloc_trim, found at run time (its header is not in Glibc's module map).
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    #endif
    let baseline = residentMemory()
    let report = try applier.apply()
    print("\(imagePeakMemory() - baseline) \(report.files.filter { $0.action == .replaced }.count)")
    exit(0)
}
let campaignPath = arguments.first { !$0.hasPrefix("-") } ?? "campaigns/double11.yaml"
let skipPipeline = arguments.contains("--no-pipeline")
// `--applier-only`: only the applier's figures (no builds of the whole catalogue, no LZFSE, no pipeline).
let applierOnly = arguments.contains("--applier-only")
let clock = ContinuousClock()

func seconds(_ d: Duration) -> String {
    let s = d / .seconds(1)
    return s >= 1 ? String(format: "%.2f s", s) : String(format: "%.1f ms", s * 1000)
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

/// What this process has used so far (`getrusage`).
func resourceUsage() -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}

/// The process's peak resident memory in bytes (Linux reports kilobytes, macOS bytes).
func peakMemory() -> Int {
    #if canImport(Glibc)
    return Int(resourceUsage().ru_maxrss) * 1024
    #else
    return Int(resourceUsage().ru_maxrss)
    #endif
}

/// The processor time this process has had so far, every thread's, user and system.
func processorTime() -> Duration {
    let usage = resourceUsage()
    return .seconds(Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec))
        + .microseconds(Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec))
}

/// One folder below the system's temporary one for everything a run of the bench writes, removed
/// when the process exits (a crash leaves it, for a look).
enum Scratch {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashbench-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()
}

/// A new empty folder in ``Scratch/root``.
func temporaryFolder() -> URL {
    let url = Scratch.root.appendingPathComponent(UUID().uuidString)
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
print(
    "splashbench: \(campaignPath), \(campaign.screens.count) screen sizes x \(campaign.orientations.count) orientations x \(campaign.renderedAppearances.count) appearances = \(snapshotCount) snapshots, \(ProcessInfo.processInfo.activeProcessorCount) cores"
)

// `--fetch-only`: only the published season fetched as an iPhone 15.
if arguments.contains("--fetch-only") {
    fetchFiguresWaiting(outputRoot: URL(fileURLWithPath: "Output"))
    exit(0)
}

// `--floor-only`: only the cold build against the astcenc floor.
if arguments.contains("--floor-only") {
    try floorFigures(campaign)
    exit(0)
}

var splashgenWall: Duration = .zero
var ktxBundle: URL?
var coldWalls: [SnapshotEncoding: Duration] = [:]
var bundleBytes: [SnapshotEncoding: Int] = [:]
for encoding in SnapshotEncoding.allCases where !applierOnly {
    var variant = campaign
    variant.encoding = encoding
    let output = temporaryFolder()
    defer { if encoding != .ktx { try? FileManager.default.removeItem(at: output) } }
    let builder = BundleBuilder(outputRoot: output)
    let cold = try builder.build(variant)
    if encoding == .ktx { ktxBundle = cold.bundle }
    let peak = peakMemory()
    let warmStart = clock.now
    let warm = try builder.build(variant)
    let warmWall = clock.now - warmStart
    // What the ImageMagick + astcenc pipeline writes: plain KTX.
    if encoding == .ktxPlain { splashgenWall = cold.times.total }
    coldWalls[encoding] = cold.times.total
    bundleBytes[encoding] = cold.bytes
    let label: String
    switch encoding {
    case .atx: label = "atx (launch-snapshot ATX, LZFSE of ASTC 4x4 \(variant.astcQuality.rawValue))"
    case .ktx: label = "ktx (KTX 1.1 with Apple's compression, LZFSE of ASTC 4x4 \(variant.astcQuality.rawValue))"
    case .ktxPlain: label = "ktx-plain (KTX 1.1, ASTC 4x4 uncompressed \(variant.astcQuality.rawValue))"
    case .png: label = "png (PNG bytes, libpng)"
    }
    let t = cold.times
    print(
        """

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

if let atx = coldWalls[.atx], let ktx = coldWalls[.ktx] {
    print(
        """

        encodings side by side (double11, every screen)
          bundle on disk      \(SnapshotEncoding.allCases.map { "\($0.rawValue) \(megabytes(bundleBytes[$0] ?? 0))" }.joined(separator: ", "))
          cold build          atx \(seconds(atx)), ktx \(seconds(ktx)): atx / ktx \(String(format: "%.2f", atx / ktx))x
        """)
}

if !applierOnly { try floorFigures(campaign) }

// The applier on a simulated iPhone 15 container (iOS 17: originals in the device-written ATX
// layout), with a bundle made for that screen, once per ASTC encoding.
for encoding in [SnapshotEncoding.atx, .ktx] {
    var phone = campaign
    phone.encoding = encoding
    phone.screens = DeviceCatalogue.screens(of: [catalogue.device(named: "iPhone 15")!])
    let bundle = try BundleBuilder(outputRoot: temporaryFolder()).build(phone).bundle
    let installed = temporaryFolder().appendingPathComponent("sandbox")
    _ = try SandboxSimulator(root: installed).install(
        launchScreen: try SandboxSimulator.defaultLaunchScreen,
        version: "5.2", build: "100", device: "iPhone 15", ios: "17.0")
    let before = phone.schedule.start.addingTimeInterval(-3600), during = phone.schedule.start.addingTimeInterval(3600)
    // After the campaign ends (a day after it started when it has no end).
    let after = (phone.schedule.end ?? phone.schedule.start.addingTimeInterval(86_400)).addingTimeInterval(3600)
    func applier(_ root: URL, _ now: Date) -> SnapshotApplier {
        SnapshotApplier(
            container: root.appendingPathComponent("container"), bundle: bundle, appVersion: "5.2", appBuild: "100",
            osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles, clock: { now })
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
    // Campaign start: verify and swap 4 files on a classified container. The floor of the
    // applier's journal, rebuilt the same way (docs/ios-launch-cache.md §4): each object written and
    // handed to the drive (fsync), the pending mark (a small state) written in place with a full
    // flush, each object renamed into the launch folder, and that folder flushed: two full flushes,
    // one after another (the applier overlaps its objects' fsyncs, so it is a measure, not a bound).
    // (The copy + fsync of before is dropped: a plain copy is not durable itself.)
    var firstRuns: [Duration] = [], swaps: [Duration] = [], floors: [Duration] = []
    // The processor time each swap and each copy took, every thread's: what of the wall time is work
    // on the processor rather than waiting for the disk.
    var swapProcessor: [Duration] = []
    let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
    // Flushed as the applier flushes: a full flush is `F_FULLFSYNC` on Apple platforms, where
    // `fsync` alone does not reach the disk, and `fsync` elsewhere.
    func flush(_ fd: Int32, _ url: URL, full: Bool = true) {
        #if canImport(Darwin)
        if full, fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        precondition(fsync(fd) == 0, "\(url.path): cannot flush")
    }
    func write(_ data: Data, to url: URL, full: Bool = true) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: data)
        flush(handle.fileDescriptor, url, full: full)
        try handle.close()
    }
    func copyObjects(into target: URL, full: Bool = true) throws -> [URL] {
        try manifest.campaigns[0].snapshots.map { snapshot in
            let url = target.appendingPathComponent(snapshot.object)
            try write(Data(contentsOf: bundle.appendingPathComponent("objects/" + snapshot.object)), to: url, full: full)
            return url
        }
    }
    func flushFolder(_ url: URL) {
        let folder = open(url.path, O_RDONLY)
        precondition(folder >= 0, "\(url.path): cannot open")
        flush(folder, url)
        close(folder)
    }
    /// The full flushes of a swap and of the campaign's end, for 1, 4 and 16 cached files (the
    /// iPhone 15's four, fewer, or copies of them under new names), counted through the file-system layer.
    func fullFlushCounts() throws -> [(files: Int, swap: Int, end: Int)] {
        var counts: [(files: Int, swap: Int, end: Int)] = []
        for count in [1, 4, 16] {
            let root = try copyOfInstalled()
            try SandboxSimulator(root: root).keepSnapshots(count)
            _ = try applier(root, before).apply()
            var flushes: [Int] = []
            for now in [during, after] {
                let counter = FullFlushCounter(root: root.appendingPathComponent("container"))
                var run = applier(root, now)
                run.fileSystem = counter
                _ = try run.apply()
                flushes.append(counter.count)
            }
            counts.append((count, flushes[0], flushes[1]))
        }
        return counts
    }
    for _ in 0..<9 {
        let root = try copyOfInstalled()
        var start = clock.now
        _ = try applier(root, before).apply()
        firstRuns.append(clock.now - start)
        start = clock.now
        let processor = processorTime()
        let report = try applier(root, during).apply()
        swaps.append(clock.now - start)
        swapProcessor.append(processorTime() - processor)
        precondition(report.files.filter { $0.action == .replaced }.count == 4)

        let (staging, journal, launch) = (temporaryFolder(), temporaryFolder(), temporaryFolder())
        try write(Data(count: 2048), to: journal.appendingPathComponent("state.json"))
        start = clock.now
        let staged = try copyObjects(into: staging, full: false)
        let state = try FileHandle(forWritingTo: journal.appendingPathComponent("state.json"))
        try state.write(contentsOf: Data(count: 2048))
        flush(state.fileDescriptor, journal)
        try state.close()
        for url in staged { try FileManager.default.moveItem(at: url, to: launch.appendingPathComponent(url.lastPathComponent)) }
        flushFolder(launch)
        floors.append(clock.now - start)
    }
    // Peak memory of one apply in a fresh process: the answer's words are the rise in bytes and
    // the number of files replaced.
    func probePeak(_ sandbox: URL, at now: Date) throws -> [Substring] {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        probe.arguments = ["--probe-apply", sandbox.appendingPathComponent("container").path, bundle.path, now.formatted(.iso8601)]
        let probeOut = Pipe()
        probe.standardOutput = probeOut
        try probe.run()
        let answer = String(decoding: probeOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
        probe.waitUntilExit()
        return answer
    }
    // A first apply that swaps all four files; then, apart, the classification alone (before the
    // campaign) and the swap alone (on a container classified beforehand).
    let probeAnswer = try probePeak(try copyOfInstalled(), at: during)
    let applyPeak = probeAnswer.first.flatMap { Int($0) } ?? -1
    let probeReplaced = probeAnswer.dropFirst().first.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    let classifyPeak = try probePeak(try copyOfInstalled(), at: before).first.flatMap { Int($0) } ?? -1
    let classified = try copyOfInstalled()
    _ = try applier(classified, before).apply()
    let swapPeak = try probePeak(classified, at: during).first.flatMap { Int($0) } ?? -1
    let largest = manifest.campaigns[0].snapshots.map(\.bytes).max() ?? 0
    let sorted = noOps.sorted()
    print(
        """

        applier, \(encoding.rawValue) objects (iPhone 15 container, 4 cached snapshots, \(megabytes(manifest.campaigns[0].snapshots.reduce(0) { $0 + $1.bytes })) of objects)
          no-op launch        median \(seconds(median(noOps))), 90th percentile \(seconds(sorted[sorted.count * 9 / 10])) over \(noOps.count) runs
          first run           median \(seconds(median(firstRuns))) (classify 4 originals in the device-written ATX layout, back them up)
          campaign swap       median \(seconds(median(swaps))) (verify 4 objects, write, fsync, rename, record); processor time \(seconds(median(swapProcessor))), every thread's
          journal floor       median \(seconds(median(floors))) (the 4 objects written and fsynced, a pending state written in place and fully flushed, 4 renames, the folder flushed: 2 full flushes); swap / floor \(String(format: "%.2f", median(swaps) / median(floors)))x
          full flushes        \(try fullFlushCounts().map { "\($0.files) files: swap \($0.swap), campaign end \($0.end)" }.joined(separator: "; ")) (counted through the file-system layer)
          apply peak memory   +\(megabytes(applyPeak)) over what is resident after a warm-up apply, for a first apply swapping \(probeReplaced) files (largest object \(megabytes(largest))): \(String(format: "%.2f", Double(applyPeak) / Double(max(1, largest))))x [probe said: \(probeAnswer.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines))]
                              classification alone +\(megabytes(classifyPeak)) (\(String(format: "%.2f", Double(classifyPeak) / Double(max(1, largest))))x), swap alone on a classified container +\(megabytes(swapPeak)) (\(String(format: "%.2f", Double(swapPeak) / Double(max(1, largest))))x)
        """)
}

// LZFSE as the OS's ATX files carry it: every unique double11 object's ASTC blocks, compressed by
// splashgen's encoder and by Apple's reference encoder (pyliblzfse), decoded by splashgen's decoder
// and by the reference decoder, in one run; then one iPhone 15 ATX snapshot decoded end to end
// against astcenc's decompress of the same raw blocks.
if let ktxBundle {
    let manifest = try Manifest.decode(from: Data(contentsOf: ktxBundle.appendingPathComponent("manifest.json")))
    let objects = Array(Set(manifest.campaigns.flatMap(\.snapshots).map(\.object))).sorted()
    let streams = temporaryFolder()
    defer { try? FileManager.default.removeItem(at: streams); try? FileManager.default.removeItem(at: ktxBundle.deletingLastPathComponent()) }
    var blocksByName: [String: [UInt8]] = [:]
    var encodeTime: Duration = .zero, rawBytes = 0, oursBytes = 0
    for (index, object) in objects.enumerated() {
        let blocks = [UInt8](try SnapshotHeader.astcBlocks(of: Data(contentsOf: ktxBundle.appendingPathComponent("objects/" + object))).blocks)
        let start = clock.now
        let stream = LZFSE.compress(blocks)
        encodeTime += clock.now - start
        rawBytes += blocks.count
        oursBytes += stream.count
        blocksByName["\(index)"] = blocks
        try Data(blocks).write(to: streams.appendingPathComponent("\(index).raw"))
        try Data(stream).write(to: streams.appendingPathComponent("\(index).ours"))
    }
    let repeats = 3
    // The reference: compress each .raw into .ref, then time its decoder on both kinds of stream.
    let script = """
        import glob, json, os, sys, time
        import liblzfse
        folder, repeats = sys.argv[1], int(sys.argv[2])
        refBytes = 0
        for raw in sorted(glob.glob(os.path.join(folder, "*.raw"))):
            data = liblzfse.compress(open(raw, "rb").read())
            refBytes += len(data)
            open(raw[:-4] + ".ref", "wb").write(data)
        times = {}
        for kind in ("ours", "ref"):
            streams = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(folder, "*." + kind)))]
            start = time.perf_counter()
            for _ in range(repeats):
                for s in streams: liblzfse.decompress(s)
            times[kind] = (time.perf_counter() - start) / repeats
        print(json.dumps({"refBytes": refBytes, "ours": times["ours"], "ref": times["ref"]}))
        """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", script, streams.path, "\(repeats)"]
    let pipe = Pipe()
    python.standardOutput = pipe
    python.standardError = FileHandle.nullDevice
    try python.run()
    let answer = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    struct Reference: Decodable { var refBytes: Int; var ours: Double; var ref: Double }
    let reference = python.terminationStatus == 0 ? try? JSONDecoder().decode(Reference.self, from: answer) : nil

    func decodeAll(_ kind: String) throws -> Duration? {
        let names = (0..<objects.count).map { "\($0)" }
        var inputs: [(String, [UInt8])] = []
        for name in names {
            guard let data = try? Data(contentsOf: streams.appendingPathComponent("\(name).\(kind)")) else { return nil }
            inputs.append((name, [UInt8](data)))
        }
        let start = clock.now
        for _ in 0..<repeats {
            for (name, stream) in inputs {
                let out = try LZFSE.decompress(stream, limit: blocksByName[name]?.count ?? 0)
                precondition(out.count == blocksByName[name]?.count, "LZFSE round trip")
            }
        }
        return (clock.now - start) / repeats
    }
    func rate(_ d: Duration) -> String { String(format: "%.0f MB/s", Double(rawBytes) / 1_000_000 / (d / .seconds(1))) }
    func rate(_ s: Double) -> String { String(format: "%.0f MB/s", Double(rawBytes) / 1_000_000 / s) }
    let oursDecode = try decodeAll("ours")
    let refDecode = try decodeAll("ref")
    print(
        """

        LZFSE on the \(objects.count) unique double11 objects' ASTC blocks (\(megabytes(rawBytes)) raw), \(repeats) passes
          splashgen encoder   \(megabytes(oursBytes)) (\(String(format: "%.1f", Double(rawBytes) / Double(max(1, oursBytes))))x), \(seconds(encodeTime))
        """)
    if let reference, let refDecode, let oursDecode {
        print(
            """
              reference encoder   \(megabytes(reference.refBytes)) (\(String(format: "%.1f", Double(rawBytes) / Double(max(1, reference.refBytes))))x)
              decode, reference streams   splashgen \(rate(refDecode)), reference \(rate(reference.ref)): \(String(format: "%.2f", (refDecode / .seconds(1)) / reference.ref))x the reference's time
              decode, splashgen streams   splashgen \(rate(oursDecode)), reference \(rate(reference.ours)): \(String(format: "%.2f", (oursDecode / .seconds(1)) / reference.ours))x the reference's time
            """)
    } else {
        if let oursDecode { print("  decode, splashgen streams   splashgen \(rate(oursDecode))") }
        print("  reference: python3 with pyliblzfse is not installed (make bench-deps installs it)")
    }

    // One iPhone 15 portrait light snapshot as iOS 17 caches it.
    if let snapshot = manifest.campaigns[0].snapshots.first(where: {
        $0.devices.contains("iPhone 15") && $0.orientation == .portrait && $0.appearance == .light
    }) {
        let (width, height, blocks) = try SnapshotHeader.astcBlocks(of: Data(contentsOf: ktxBundle.appendingPathComponent("objects/" + snapshot.object)))
        let atx = ATXFile(astc4x4Width: width, height: height, blocks: blocks).serialized()
        let codec = try ASTCCodec(decodeOnly: ())
        var whole: [Duration] = [], astcOnly: [Duration] = []
        for _ in 0..<9 {
            var start = clock.now
            _ = try SnapshotDecoder().decode(atx)
            whole.append(clock.now - start)
            start = clock.now
            _ = try codec.decompress(blocks, width: width, height: height)
            astcOnly.append(clock.now - start)
        }
        let medianWhole = whole.sorted()[4], medianASTC = astcOnly.sorted()[4]
        print(
            """
              iPhone 15 ATX snapshot (\(width)x\(height), \(atx.count) bytes): LZFSE + ASTC decode \(seconds(medianWhole)), astcenc alone on the raw blocks \(seconds(medianASTC)): \(String(format: "%.2f", medianWhole / medianASTC))x
            """)
    }
}

// The path to the phone: campaigns/season.yaml published, served by nginx, fetched as an iPhone 15.
if !applierOnly { fetchFiguresWaiting(outputRoot: URL(fileURLWithPath: "Output")) }

guard !skipPipeline, !applierOnly else { exit(0) }

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
        args += [
            "(", campaign.baseDirectory.appendingPathComponent(placement.image).path,
            "-colorspace", "RGB", "-resize", "\(placement.width)x\(placement.height)!", "-colorspace", "sRGB", ")",
            "-geometry", String(format: "%+d%+d", placement.x, placement.y), "-composite",
        ]
    }
    if recipe.grey { args += ["-colorspace", "Gray", "-colorspace", "sRGB"] }
    let m = recipe.markerSize
    if let marker = recipe.marker {
        args += ["-fill", marker, "-draw", "rectangle \(recipe.width - m),\(recipe.height - m) \(recipe.width - 1),\(recipe.height - 1)"]
    }
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
print(
    """
      convert             \(seconds(convertTime))
      astcenc             \(seconds(astcTime))
      total wall time     \(seconds(pipelineWall)) for \(planned.count) snapshots
      splashgen (ktx-plain) \(seconds(splashgenWall)): \(String(format: "%.1f", ratio))x faster
    """)
