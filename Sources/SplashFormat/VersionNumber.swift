import Foundation

/// A dotted numeric version, compared component by component (5.10 > 5.9).
package struct VersionNumber: Comparable, Sendable {
    /// The numeric components.
    package let parts: [Int]

    /// Parses `5.10.1`; a part that is not a number counts as 0.
    package init(_ text: String) {
        parts = text.split(separator: ".").map { Int($0) ?? 0 }
    }

    /// Why `text` cannot be a campaign's version bound, or nil: it must be digits in dot-separated
    /// parts, each a number the comparison can hold (at most `Int.max`; a larger one would read as 0).
    /// Campaign files and manifests are both held to it.
    package static func problem(_ text: String) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            return "expected a version such as 5.2 or 5.2.1"
        }
        if let part = parts.first(where: { Int($0) == nil }) { return "version component \(part) is too large to compare (at most \(Int.max))" }
        return nil
    }

    package static func < (a: VersionNumber, b: VersionNumber) -> Bool {
        let count = max(a.parts.count, b.parts.count)
        let x = a.parts + Array(repeating: 0, count: count - a.parts.count)
        let y = b.parts + Array(repeating: 0, count: count - b.parts.count)
        return x.lexicographicallyPrecedes(y)
    }

    package static func == (a: VersionNumber, b: VersionNumber) -> Bool { !(a < b) && !(b < a) }
}
