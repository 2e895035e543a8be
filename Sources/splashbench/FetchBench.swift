import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashFormatWriting
import SplashSimulator
import SplashUpdater

#if canImport(Glibc)
import Glibc
#endif

/// `make bench`, the path to the phone: the season in `campaigns/season.yaml` (whole catalogue)
/// published and served by Debian's nginx on 127.0.0.1, fetched as an iPhone 15 does; the bytes on
/// the wire come from nginx's own log (`$request_length` + `$bytes_sent`: request and answer,
/// headers included).
func fetchFigures(outputRoot: URL) async throws {
    let season = try SeasonLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: URL(fileURLWithPath: "campaigns/season.yaml"))
    let bundle = try BundleBuilder(outputRoot: outputRoot).build(season).bundle
    let key = BundleSignature.makeKeyPair()
    let served = temporaryFolder()
    let published = try Publisher.publish(bundle: bundle, to: served.appendingPathComponent("season"), privateKey: key.privateKey)

    let prefix = temporaryFolder()
    let port = 20_000 + Int(getpid() % 20_000)
    let config = """
        worker_processes 1; daemon off; pid \(prefix.path)/nginx.pid; error_log \(prefix.path)/error.log warn;
        events { worker_connections 64; }
        http {
            log_format wire '$request_length $bytes_sent $status $request_uri';
            access_log \(prefix.path)/access.log wire;
            client_body_temp_path \(prefix.path)/body; proxy_temp_path \(prefix.path)/proxy; fastcgi_temp_path \(prefix.path)/fastcgi;
            uwsgi_temp_path \(prefix.path)/uwsgi; scgi_temp_path \(prefix.path)/scgi;
            server { listen 127.0.0.1:\(port); root \(served.path); include \(FileManager.default.currentDirectoryPath)/Examples/nginx/splashgen-tree.conf; }
        }
        """
    try config.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
    let nginx = Process()
    nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
    nginx.arguments = ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-e", prefix.appendingPathComponent("error.log").path]
    try nginx.run()
    defer { nginx.terminate(); nginx.waitUntilExit() }
    usleep(300_000)

    func wire() -> (requests: Int, bytes: Int, statuses: [String]) {
        let lines = ((try? String(contentsOf: prefix.appendingPathComponent("access.log"), encoding: .utf8)) ?? "").split(separator: "\n")
        let fields = lines.map { $0.split(separator: " ") }
        return (lines.count, fields.reduce(0) { $0 + (Int($1[0]) ?? 0) + (Int($1[1]) ?? 0) }, fields.map { String($0[2]) })
    }

    let device = try DeviceCatalogue.bundled().device(named: "iPhone 15")!
    let sandbox = temporaryFolder().appendingPathComponent("sandbox")
    let simulator = SandboxSimulator(root: sandbox)
    _ = try simulator.install(launchScreen: try SandboxSimulator.defaultLaunchScreen, version: "5.2", build: "100", device: device.name, ios: "17.0")
    let fetcher = try simulator.fetcher(from: URL(string: "http://127.0.0.1:\(port)/season/")!, trust: .pinned(try PinnedKey(key.publicKey)))
    let clock = ContinuousClock()
    let during = try Date("2026-11-11T12:00:00+08:00", strategy: .iso8601)

    let start = clock.now
    let first = try await fetcher.fetch()
    let fetched = clock.now
    let launch = try simulator.launch(bundle: fetcher.installed, now: during)
    let applied = clock.now
    let firstWire = wire()
    let again = try await fetcher.fetch()
    let secondWire = wire()
    let objects = first.bytesReceived
    print(
        """

        fetch, iPhone 15 (1179x2556) from the published campaigns/season.yaml, nginx on 127.0.0.1:
          published           \(published.screens) screen slices, \(published.objects) objects (\(megabytes(published.rawBytes)) raw, \(megabytes(published.deflatedBytes)) deflated), manifest \(published.manifestBytes / 1000) KB
          first fetch         \(firstWire.requests) requests, \(first.objectsDownloaded) objects; bodies \(objects / 1000) KB; on the wire \(firstWire.bytes / 1000) KB with headers (goal <= 250 KB)
          nothing new         \(again.notModified ? "one \(secondWire.statuses.last ?? "?")" : "NOT a 304"), \(secondWire.bytes - firstWire.bytes) bytes on the wire (goal <= 2 KB)
          fetch + apply       \(seconds(applied - start)) wall (fetch \(seconds(fetched - start)), apply \(seconds(applied - fetched)); the app showed \(launch.appReport?.campaign ?? "nothing") from the next launch)
        """)
}

/// ``fetchFigures(outputRoot:)`` from the bench's synchronous top level.
func fetchFiguresWaiting(outputRoot: URL) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { try await fetchFigures(outputRoot: outputRoot) } catch { print("fetch figures failed: \(error)"); exit(1) }
        done.signal()
    }
    done.wait()
}
