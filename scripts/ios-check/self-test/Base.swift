// ios-check self-test, module SelfTestBase: what the real modules lean on in the prepared SDK
// setup. Typed throws through Array.withUnsafeBufferPointer and Result.get() (the patched stdlib
// interface; -emit-module also runs SILGen, which needs _willThrowTyped), Dispatch (the API
// notes; a global DispatchQueue needs the Sendable conformance of patch-dispatch.py) and CryptoKit
// from the SDK. Valid at iOS 15.
import CryptoKit
import Dispatch
import Foundation

public enum BaseError: Error { case empty }

public func firstByte(_ bytes: [UInt8]) throws(BaseError) -> UInt8 {
    try bytes.withUnsafeBufferPointer { (buffer) throws(BaseError) -> UInt8 in
        guard let first = buffer.first else { throw BaseError.empty }
        return first
    }
}

public func number(_ text: String) throws(BaseError) -> Int {
    let parsed: Result<Int, BaseError> = Int(text).map { .success($0) } ?? .failure(.empty)
    return try parsed.get()
}

let hashing = DispatchQueue(label: "ios-check.self-test")

public func digest(of data: Data) -> String {
    let group = DispatchGroup()
    group.enter()
    let hex = hashing.sync {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
    group.leave()
    group.wait()
    return hex
}
