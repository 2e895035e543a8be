import Foundation
import SplashTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's nginx, started by a test on 127.0.0.1 with the configuration committed in
/// `Fixtures/nginx/nginx.conf` (which includes `Examples/nginx/splashgen-tree.conf`), serving `root`.
final class NginxServer {
    let prefix: URL
    let root: URL
    let port: Int
    /// The master process, in the foreground (`daemon off`), so the test owns it and stops it.
    private let master: Process
    var base: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    var accessLog: String { (try? String(contentsOf: prefix.appendingPathComponent("access.log"), encoding: .utf8)) ?? "" }

    init() throws {
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
            process.arguments = [
                "-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-e", prefix.appendingPathComponent("error.log").path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitUntilListening(port, while: process) {
                self.port = port
                master = process
                return
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            lastError = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        }
        throw NginxError.didNotStart(lastError)
    }

    deinit { stop() }

    /// Debian's nginx, or Homebrew's on a Mac.
    static let executable =
        ["/usr/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/nginx"

    func stop() {
        guard master.isRunning else { return }
        master.terminate()
        master.waitUntilExit()
    }

    var masterPID: pid_t? { master.isRunning ? master.processIdentifier : nil }

    /// Whether something accepts connections on `port` within 5 seconds, while `process` runs.
    static func waitUntilListening(_ port: Int, while process: Process) -> Bool {
        for _ in 0..<250 where process.isRunning {
            let fd = socket(AF_INET, streamSocket, 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected =
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                } == 0
            close(fd)
            if connected { return true }
            usleep(20_000)
        }
        return false
    }

    /// Kills the worker processes (the master starts new ones): every connection they hold drops.
    func killWorkers() {
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

    /// Waits (bounded) until the access log has a line containing `text`.
    func waitForLog(_ text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if accessLog.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    static func freePort() -> Int {
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

enum NginxError: Error, CustomStringConvertible {
    case didNotStart(String)
    var description: String {
        switch self {
        case .didNotStart(let output): return "nginx did not start (is Debian's nginx installed? `make deps` installs it): \(output)"
        }
    }
}
