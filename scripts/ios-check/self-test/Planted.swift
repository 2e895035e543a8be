// ios-check self-test, module SelfTest: Clean.swift (iOS 16 API: ContinuousClock, Duration,
// Task.sleep(for:)) plus a planted wrong argument label: Data has subdata(in:), not subdata(from:).
// The check must report the label at every target, and the iOS 16 API at iOS 15 only.
import Foundation
import SelfTestBase

public func measuredPause() async throws -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try await Task.sleep(for: .milliseconds(5))
    return start.duration(to: clock.now)
}

public func head(_ data: Data) throws -> String {
    _ = try firstByte([UInt8](data)) + UInt8(try number("1"))
    return digest(of: data.subdata(from: 0..<2))
}
