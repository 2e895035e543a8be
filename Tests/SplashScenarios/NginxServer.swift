// Expectations: none here; test support: Debian's nginx on 127.0.0.1, and its access log.
import Foundation
import SplashTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's nginx, started by a test on 127.0.0.1 with the configuration committed in
/// `Fixtures/nginx/nginx.conf` (which includes `Examples/nginx/splashgen-tree.conf`), serving `root`.
/// Nothing here waits for time: nginx writes its error log to a pipe (`start worker process` once it
/// listens) and each request's log line to another as the request ends, and the test waits for
/// those lines.
package final class NginxServer: @unchecked Sendable {  // its state is set once, in init
    package let prefix: URL
    package let root: URL
    package let port: Int
    /// The master process, in the foreground (`daemon off`), so the test owns it and stops it.
    private let master: Process
    /// `$request_uri $status $body_bytes_sent`, one line per request as it ends (nginx's stdout).
    private let requestLog: PipeLog
    package var base: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    package var accessLog: String { (try? String(contentsOf: prefix.appendingPathComponent("access.log"), encoding: .utf8)) ?? "" }
    /// The requests that have ended so far, as logged.
    package var requests: [LoggedRequest] { LoggedRequest.parse(requestLog.text) }

    package init() throws {
        prefix = temporaryFolder("nginx")
        root = prefix.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/nginx/nginx.conf")
        var lastError = ""
        for _ in 0..<5 {
            let port = Self.freePort()
            let config = try String(contentsOf: fixture, encoding: .utf8)
                .replacingOccurrences(of: "@PREFIX@", with: prefix.path).replacingOccurrences(of: "@PORT@", with: String(port))
                .replacingOccurrences(of: "@ROOT@", with: root.path)
                .replacingOccurrences(of: "@EXAMPLES@", with: Repo.root.appendingPathComponent("Examples").path)
            try config.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-e", "stderr"]
            let requests = PipeLog(), errors = PipeLog()
            process.standardOutput = requests.pipe
            process.standardError = errors.pipe
            process.terminationHandler = { _ in errors.close() }
            try process.run()
            // The master logs one line per worker it starts, after it has bound the port; a failed
            // bind ends it, and its error pipe with it.
            if errors.wait(seconds: 30, until: { $0.contains("start worker process") }) {
                self.port = port
                master = process
                requestLog = requests
                return
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            lastError = errors.text
        }
        throw NginxError.didNotStart(lastError)
    }

    deinit { stop() }

    /// Debian's nginx, or Homebrew's on a Mac.
    package static let executable =
        ["/usr/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/nginx"

    package func stop() {
        guard master.isRunning else { return }
        master.terminate()
        master.waitUntilExit()
    }

    package var masterPID: pid_t? { master.isRunning ? master.processIdentifier : nil }

    /// Kills the worker processes (the master starts new ones): every connection they hold drops.
    package func killWorkers() {
        guard let master = masterPID else { return }
        #if canImport(Darwin)
        let pkill = Process()
        pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pkill.arguments = ["-KILL", "-P", String(master)]
        try? pkill.run()
        pkill.waitUntilExit()
        #else
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == master { kill(pid, SIGKILL) }
        }
        #endif
    }

    /// Waits until a request whose log line (`$request_uri $status $body_bytes_sent`) contains
    /// `text` has ended, or `seconds` pass (a bound for a broken test, not a timing).
    package func waitForLog(_ text: String, seconds: Double = 60) async -> Bool {
        await waitForLines(seconds: seconds) { $0.contains(text) }
    }

    /// Waits until the requests that have ended satisfy `done`, or `seconds` pass.
    package func waitForRequests(seconds: Double = 60, until done: @escaping @Sendable ([LoggedRequest]) -> Bool) async -> Bool {
        await waitForLines(seconds: seconds) { done(LoggedRequest.parse($0)) }
    }

    /// The wait blocks a thread of its own, never one of the cooperative pool the fetch under test
    /// needs; `done` sees the log's text (and must not read the log itself: it is called under its lock).
    private func waitForLines(seconds: Double, until done: @escaping @Sendable (String) -> Bool) async -> Bool {
        let log = requestLog
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: log.wait(seconds: seconds, until: done)) }
        }
    }

    package static func freePort() -> Int {
        let fd = socket(AF_INET, streamSocket, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

}

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
private let streamSocket = SOCK_STREAM
#endif

package enum NginxError: Error, CustomStringConvertible {
    case didNotStart(String)
    package var description: String {
        switch self {
        case .didNotStart(let output): return "nginx did not start (is Debian's nginx installed? `make deps` installs it): \(output)"
        }
    }
}

/// One request as nginx logged it when it ended.
package struct LoggedRequest: Equatable {
    package var uri: String
    package var status: Int
    /// Body bytes nginx sent.
    package var bytes: Int

    package static func parse(_ text: String) -> [LoggedRequest] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let status = Int(fields[1]), let bytes = Int(fields[2]) else { return nil }
            return LoggedRequest(uri: String(fields[0]), status: status, bytes: bytes)
        }
    }
}

/// What a process writes to a pipe, gathered as it arrives; a wait wakes on each new part (or the
/// pipe's end), never on a clock.
package final class PipeLog: @unchecked Sendable {
    package let pipe = Pipe()
    private let condition = NSCondition()
    private var gathered = ""
    private var closed = false

    package init() {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            if data.isEmpty {
                handle.readabilityHandler = nil
                close()
            } else {
                condition.withLock { gathered += String(decoding: data, as: UTF8.self) }
                condition.broadcast()
            }
        }
    }

    package var text: String { condition.withLock { gathered } }

    /// No more will come (the pipe ended, or its writer did).
    package func close() {
        condition.withLock { closed = true }
        condition.broadcast()
    }

    /// Waits until `done` holds for what has arrived, the pipe ends, or `seconds` pass; whether it holds.
    package func wait(seconds: Double, until done: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !done(gathered) {
            if closed || !condition.wait(until: deadline) { return done(gathered) }
        }
        return true
    }
}
