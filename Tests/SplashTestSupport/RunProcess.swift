import Foundation

/// What a finished process left: its exit status and everything it wrote.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs `executable` with `arguments` (in `directory` when given) to its end, its two outputs read
/// at the same time so that neither can fill its pipe and stall it: the one process runner every
/// test target shares.
public func runProcess(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> ProcessRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errors = ErrorsRead()
    let reading = DispatchGroup()
    DispatchQueue.global().async(group: reading) { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    reading.wait()
    process.waitUntilExit()
    return ProcessRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: errors.get(), as: UTF8.self))
}

/// Standard error as its reader thread hands it over.
private final class ErrorsRead: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
