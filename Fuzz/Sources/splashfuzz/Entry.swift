// libFuzzer's entry points. One executable holds every target; SPLASHFUZZ_TARGET names the one a
// run exercises (scripts/fuzz.sh sets it), so one build serves them all.

import Foundation

/// The parsers fuzzed, each by ``FuzzTarget/run(_:)``.
enum FuzzTarget: String, CaseIterable, Sendable {
    case atx, ktx, lzfse, png, manifest, slice, state, yaml
    /// Any bytes, encoded by splashgen's LZFSE encoder (`LZFSEEncoder`) and decoded again.
    case lzfseEncode = "lzfse-encode"

    /// The target SPLASHFUZZ_TARGET names; nil when it names none.
    static let selected = ProcessInfo.processInfo.environment["SPLASHFUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))
}

/// Called once before the first input: refuses a run without a known target, and makes what the
/// targets share (the device catalogue, a scratch container) so no input pays for it.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let target = FuzzTarget.selected else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("splashfuzz: set SPLASHFUZZ_TARGET to one of \(names)\n".utf8))
        exit(2)
    }
    target.prepare()
    return 0
}

/// One input: every outcome but a crash, a hang or an over-limit allocation is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.selected?.run(data)
    return 0
}
