// ios-check self-test, module SelfTest: valid Swift that needs iOS 16 (ContinuousClock, Duration,
// Task.sleep(for:)). The check must pass it at iOS 16 and fail it at iOS 15.
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
    return digest(of: data.subdata(in: 0..<2))
}
