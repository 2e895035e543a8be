import Foundation

/// A dotted numeric version, compared component by component (5.10 > 5.9).
public struct VersionNumber: Comparable, Sendable {
    /// The numeric components.
    public let parts: [Int]

    /// Parses `5.10.1`; a part that is not a number counts as 0.
    public init(_ text: String) {
        parts = text.split(separator: ".").map { Int($0) ?? 0 }
    }

    public static func < (a: VersionNumber, b: VersionNumber) -> Bool {
        let count = max(a.parts.count, b.parts.count)
        let x = a.parts + Array(repeating: 0, count: count - a.parts.count)
        let y = b.parts + Array(repeating: 0, count: count - b.parts.count)
        return x.lexicographicallyPrecedes(y)
    }

    public static func == (a: VersionNumber, b: VersionNumber) -> Bool { !(a < b) && !(b < a) }
}
