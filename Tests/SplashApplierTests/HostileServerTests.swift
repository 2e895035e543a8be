import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashTestSupport
@_spi(Testing) import SplashUpdater
import Testing

/// What a hostile or broken server sends cannot blow up the fetcher's memory, outlast its
/// deadline, or trap it. Expectations come from the limits themselves: a slice is at most
/// `ReadLimits.manifestBytes` (8 MB), the whole fetch ends by `deadline`, and numbers that are not
/// seconds are refused before anything starts. Memory is the fetching process's peak resident size,
/// measured by its parent (Python's `getrusage(RUSAGE_CHILDREN)`, Python being a test dependency),
/// so other tests running meanwhile do not count.
@Suite struct HostileServerTests {
    /// What a body may add to the fetching process's peak memory beyond a normal fetch of the same
    /// tree: the slice limit (8 MB) three times over (the body, its copy, and what the delegate queue
    /// holds at once). A fetch that buffers the whole body (256 MB here) is far beyond it.
    static let headroom = 3 * ReadLimits.manifestBytes

    /// Runs the built `splashgen` with `arguments` under a parent that reports its peak resident
    /// size; returns the exit status, standard error and that peak in bytes.
    func measured(_ arguments: [String]) throws -> (status: Int32, stderr: String, peak: Int) {
        let splashgen = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("splashgen").path
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)
            sys.stderr.write(run.stderr)
            print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
            """
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, splashgen] + arguments)
        let fields = run.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 2 else { throw CocoaError(.fileReadCorruptFile) }
        return (Int32(fields[0]), run.stderr, fields[1])
    }

    /// The peak memory of a normal CLI fetch of the season `server` publishes under `season/`
    /// (``Season15/served()``).
    func normalFetchPeak(_ server: NginxServer) throws -> Int {
        let normal = try measured([
            "fetch", server.base.appendingPathComponent("season").absoluteString, "--into", temporaryFolder("normal").path, "--screen", "1179x2556",
        ])
        #expect(normal.status == 0, "\(normal.stderr)")
        return normal.peak
    }

    @Test func aGzipBombedSliceIsRefusedAtItsHeadersAndMemoryStaysBounded() throws {
        let server = try Season15.served()
        let normal = try normalFetchPeak(server)
        // 256 MiB of spaces as a gzip file: under 300 KB on the wire, far over the 8 MB limit inflated.
        let slice = server.root.appendingPathComponent("bomb/screens/1179x2556.json")
        try FileManager.default.createDirectory(at: slice.deletingLastPathComponent(), withIntermediateDirectories: true)
        let gzip =
            "import zlib,sys\nc=zlib.compressobj(9,zlib.DEFLATED,31)\nf=open(sys.argv[1],'wb')\nfor _ in range(256): f.write(c.compress(b' '*(1<<20)))\nf.write(c.flush())"
        _ = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", gzip, slice.path])
        #expect(try Data(contentsOf: slice).count < ReadLimits.manifestBytes)

        let bomb = try measured([
            "fetch", server.base.appendingPathComponent("gzip/bomb").absoluteString, "--into", temporaryFolder("bomb").path, "--screen", "1179x2556",
        ])
        #expect(bomb.status == 1)
        #expect(bomb.stderr.contains("Content-Encoding gzip, though identity was asked for"), "\(bomb.stderr)")
        #expect(bomb.peak <= normal + Self.headroom, "peak \(bomb.peak) bytes; a normal fetch peaks at \(normal)")
    }

    @Test func anEndlessSliceIsCutOffAtTheLimitItsTransferCancelledAndMemoryStaysBounded() async throws {
        let server = try Season15.served()
        let normal = try normalFetchPeak(server)
        // 64 GiB, sparse: served through SSI, chunked, with no length announced.
        let slice = server.root.appendingPathComponent("endless/screens/1179x2556.json")
        try FileManager.default.createDirectory(at: slice.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: slice.path, contents: nil))
        let handle = try FileHandle(forWritingTo: slice)
        try handle.truncate(atOffset: 64 << 30)
        try handle.close()

        let endless = try measured([
            "fetch", server.base.appendingPathComponent("endless/endless").absoluteString, "--into", temporaryFolder("endless").path, "--screen", "1179x2556",
        ])
        #expect(endless.status == 1)
        #expect(endless.stderr.contains("more than the \(ReadLimits.manifestBytes) bytes allowed"), "\(endless.stderr)")
        #expect(endless.peak <= normal + Self.headroom, "peak \(endless.peak) bytes; a normal fetch peaks at \(normal)")

        // In a process that lives on, as an app does, the transfer is cancelled, not just abandoned:
        // nginx logs the request (it does so when the connection ends) having sent a bounded amount.
        let fetcher = Season15.fetcher(server, "endless/endless")
        let url = fetcher.base.appendingPathComponent(fetcher.slicePath).absoluteString
        await #expect(throws: FetchError.tooLarge(url, ReadLimits.manifestBytes)) { try await fetcher.fetch() }
        let fromEndless = { @Sendable (requests: [LoggedRequest]) in requests.filter { $0.uri.hasPrefix("/endless/endless/screens/") } }
        let ended = await server.waitForRequests { fromEndless($0).count == 2 }
        let sent = fromEndless(server.requests).map(\.bytes)
        #expect(ended, "both endless requests ended: \(server.requests)")
        #expect(sent.allSatisfy { $0 < 1 << 30 }, "bytes nginx sent before the fetcher hung up: \(sent)")
    }

    @Test func aServerThatAlwaysFailsIsGivenUpOnByTheDeadlineWhateverTheAttempts() async throws {
        let server = try NginxServer()
        try Data().write(to: server.root.appendingPathComponent("fail-next"))
        var fetcher = Season15.fetcher(server, "season")
        fetcher.attempts = 1_000_000
        fetcher.backoff = 0.1
        fetcher.deadline = 2
        let url = fetcher.base.appendingPathComponent(fetcher.slicePath).absoluteString
        do {
            _ = try await fetcher.fetch()
            Issue.record("fetched from a server that always fails")
        } catch {
            // The last 503; or, when a loaded machine let the deadline pass before any answer, the
            // deadline itself (never a try's share of it).
            #expect(error == .httpStatus(url, 503) || error == .timedOut(url, fetcher.deadline), "\(error)")
        }
        // Waits 0.1 + 0.2 + 0.4 + 0.8 = 1.5 s fit in 2 s; the next, 1.6 s, does not: it is not
        // started. Five tries at most, never a million (on a loaded machine fewer; a fifth is cut
        // by the deadline, and the 503 before it stands).
        let tries = server.accessLog.split(separator: "\n").count
        #expect(tries <= 5, "\(server.accessLog)")
    }

    /// Back-off doubles up to 30 s and stays there, however many tries.
    @Test func backOffDoublesUpToThirtySeconds() {
        var waits: [TimeInterval] = [0.5]
        for _ in 0..<60 { waits.append(BundleFetcher.wait(after: waits.last!)) }
        #expect(Array(waits.prefix(8)) == [0.5, 1, 2, 4, 8, 16, 30, 30])
        #expect(waits.max() == 30)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, 0, -5])
    func aTimeoutOrDeadlineThatIsNotSecondsIsRefusedBeforeAnything(_ seconds: Double) async throws {
        let folder = temporaryFolder("numbers")
        var fetcher = BundleFetcher(
            base: URL(string: "http://127.0.0.1:9/")!, folder: folder.appendingPathComponent("downloads"), screen: iPhone15,
            trust: .acceptingUnsignedBundles, bundleID: nil)
        fetcher.timeout = seconds
        await #expect(throws: FetchError.self) { try await fetcher.fetch() }
        #expect(fetcher.parameterProblem?.description.hasPrefix("timeout must be a number of seconds") == true)
        fetcher.timeout = 1
        fetcher.deadline = seconds
        #expect(fetcher.parameterProblem?.description.hasPrefix("deadline must be a number of seconds") == true)
        fetcher.deadline = 1
        fetcher.backoff = seconds
        #expect((fetcher.parameterProblem == nil) == (seconds == 0), "a back-off of 0 is allowed, nothing else here")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("downloads").path), "nothing was created")

        var applier = SnapshotApplier(
            container: folder, bundle: nil, appVersion: "1.0", appBuild: "1", osVersion: OSVersion(major: 17), decoder: SnapshotDecoder(),
            trust: .acceptingUnsignedBundles)
        applier.lockTimeout = seconds
        if seconds == 0 {
            // 0 is allowed: the run goes on, and finds no launch folder in the empty container.
            #expect(try await applier.apply().problems.map(\.code) == [.noLaunchSnapshots])
        } else {
            do {
                _ = try await applier.apply()
                Issue.record("applied with lockTimeout \(seconds)")
            } catch {
                #expect(error.description.hasPrefix("lockTimeout must be a number of seconds from 0 to 60"), "\(error)")
            }
        }

        // The command line: a usage error (exit 64), never a trap.
        let cli = try measured(["fetch", "http://127.0.0.1:9/", "--into", folder.path, "--screen", "1179x2556", "--timeout=\(seconds)"])
        #expect(cli.status == 64, "\(cli.stderr)")
        #expect(cli.stderr.contains("--timeout must be a number of seconds above 0 and at most 86400"), "\(cli.stderr)")
    }

    @Test func attemptsBelowOneAreRefused() {
        var fetcher = BundleFetcher(
            base: URL(string: "http://127.0.0.1:9/")!, folder: temporaryFolder("numbers"), screen: iPhone15, trust: .acceptingUnsignedBundles, bundleID: nil)
        for attempts in [0, -1, Int.min] {
            fetcher.attempts = attempts
            #expect(fetcher.parameterProblem == .badParameter("attempts", "must be at least 1; found \(attempts)"))
        }
    }
}
