import Foundation

/// The bytes a hand-written hex golden file spells: each line hex bytes then `# what they are`;
/// `xx` is a byte that depends on the content (nil here).
public func hexGolden(_ url: URL) throws -> [UInt8?] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").flatMap { line in
        line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map {
            $0.split(separator: " ").map { $0 == "xx" ? nil : UInt8($0, radix: 16) }
        } ?? []
    }
}
