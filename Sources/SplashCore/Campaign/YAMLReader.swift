import Foundation
import SplashFormat
import Yams

/// Walks a composed YAML tree and reads typed values, collecting every problem as a
/// ``Diagnostic`` with file, line, column and key path instead of stopping at the first.
final class YAMLReader {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String) {
        self.file = file
    }

    /// Records a problem at `node` (or at line 1, column 1 when the node has no mark).
    func error(_ node: Node?, _ path: String, _ message: String) {
        let mark = node?.mark
        diagnostics.append(Diagnostic(SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, keyPath: path), message))
    }

    /// The location of `node`, for errors found later (e.g. while reading an image).
    func location(_ node: Node, _ path: String) -> SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, keyPath: path)
    }

    /// The value of `key` in `node` when it is a mapping, checking nothing (the mapping is read, and
    /// its problems reported, where its own keys are).
    func mappingValue(_ node: Node, _ key: String) -> Node? {
        guard case .mapping(let mapping) = node else { return nil }
        return mapping.first { $0.key.scalar?.string == key }?.value
    }

    /// A mapping's values by key. Unknown keys are reported with a suggestion, missing required ones
    /// at the mapping. Returns nil (after reporting) when `node` is not a mapping.
    func mapping(_ node: Node, _ path: String, keys: [String], required: [String] = []) -> [String: Node]? {
        guard case .mapping(let mapping) = node else {
            error(node, path, "expected a mapping with keys \(keys.joined(separator: ", ")); found \(describe(node))")
            return nil
        }
        var values: [String: Node] = [:]
        // A required key a misspelling stands for is said once, at the misspelling: no second error
        // telling the user to add what they did write.
        let written = Set(mapping.compactMap { if case .scalar(let scalar) = $0.0 { scalar.string } else { nil } })
        var suggested: Set<String> = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                error(keyNode, path, "keys must be plain words; found \(describe(keyNode))")
                continue
            }
            let key = scalar.string
            let keyPath = join(path, key)
            if !keys.contains(key) {
                let closest = Self.closest(to: key, in: keys)
                var suggestion = closest.map { "; did you mean '\($0)'?" } ?? ""
                if let closest, required.contains(closest), !written.contains(closest) {
                    suggestion += " ('\(closest)' is required)"
                    suggested.insert(closest)
                }
                error(keyNode, keyPath, "unknown key '\(key)'\(suggestion)")
            } else if values[key] != nil {
                error(keyNode, keyPath, "duplicate key '\(key)'")
            } else {
                values[key] = value
            }
        }
        for key in required where values[key] == nil && !suggested.contains(key) {
            error(node, path, "missing required key '\(key)'")
        }
        return values
    }

    /// A campaign's or season's name: it names the bundle's folder under `Output/`.
    func bundleName(_ node: Node, _ path: String) -> String? {
        guard let name = string(node, path) else { return nil }
        guard name.count <= Season.maxNameLength else {
            error(node, path, "expected at most \(Season.maxNameLength) characters (it names folders the file system must hold); found \(name.count)")
            return nil
        }
        guard Season.isValidName(name) else {
            error(node, path, "expected \(Season.nameRule) (it names the folder under Output/); found \"\(name)\"")
            return nil
        }
        return name
    }

    /// The elements of a sequence, or nil (after reporting).
    func sequence(_ node: Node, _ path: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            error(node, path, "expected a list; found \(describe(node))")
            return nil
        }
        return Array(sequence)
    }

    /// A non-empty string scalar.
    func string(_ node: Node, _ path: String) -> String? {
        guard case .scalar(let scalar) = node, kind(node) != .null, !scalar.string.isEmpty else {
            error(node, path, "expected a non-empty string; found \(describe(node))")
            return nil
        }
        return scalar.string
    }

    /// A `true`/`false` scalar.
    func bool(_ node: Node, _ path: String) -> Bool? {
        guard case .scalar(let scalar) = node, scalar.string == "true" || scalar.string == "false", scalar.style == .plain else {
            let hint = kind(node) == .bool ? " (YAML 1.1 reads it as a boolean, which hides typos; write true or false)" : ""
            error(node, path, "expected true or false; found \(describe(node))\(hint)")
            return nil
        }
        return scalar.string == "true"
    }

    /// A whole number within `range`.
    func int(_ node: Node, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar = node, kind(node) == .int, let value = node.int else {
            error(node, path, "expected a whole number; found \(describe(node))")
            return nil
        }
        guard range.contains(value) else {
            error(node, path, "expected a whole number from \(range.lowerBound) to \(range.upperBound); found \(value)")
            return nil
        }
        return value
    }

    /// A number (whole or not) within `range`.
    func number(_ node: Node, _ path: String, in range: ClosedRange<Double>) -> Double? {
        guard case .scalar = node, kind(node) == .int || kind(node) == .float, let value = node.float, value.isFinite else {
            error(node, path, "expected a number; found \(describe(node))")
            return nil
        }
        guard range.contains(value) else {
            error(node, path, "expected a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)); found \(Self.format(value))")
            return nil
        }
        return value
    }

    /// One of an enumeration's raw values.
    func oneOf<E: RawRepresentable & CaseIterable>(_ node: Node, _ path: String, as: E.Type) -> E? where E.RawValue == String {
        let choices = E.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .scalar(let scalar) = node, kind(node) != .null else {
            error(node, path, "expected one of \(choices); found \(describe(node))")
            return nil
        }
        guard let value = E(rawValue: scalar.string) else {
            let suggestion = Self.closest(to: scalar.string, in: E.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
            error(node, path, "expected one of \(choices); found \"\(scalar.string)\"\(suggestion)")
            return nil
        }
        return value
    }

    /// An opaque `#RRGGBB` colour.
    func color(_ node: Node, _ path: String) -> RGBAColor? {
        guard case .scalar(let scalar) = node, let color = RGBAColor(hex: scalar.string), scalar.string.hasPrefix("#") else {
            error(node, path, "expected a colour as \"#RRGGBB\" (quoted: # starts a comment in YAML); found \(describe(node))")
            return nil
        }
        return color
    }

    /// An ISO 8601 date and time with an explicit offset, every field a real one (``ScheduleTime``).
    func date(_ node: Node, _ path: String) -> Date? {
        guard case .scalar(let scalar) = node else {
            error(node, path, "\(ScheduleTimeError.format); found \(describe(node))")
            return nil
        }
        switch ScheduleTime.parse(scalar.string) {
        case .success(let date): return date
        case .failure(.format):
            error(node, path, "\(ScheduleTimeError.format); found \(describe(node))")
        case .failure(let problem):
            error(node, path, "\(problem); found \(describe(node))")
        }
        return nil
    }

    /// The node's resolved YAML tag (str, int, float, bool, null, …).
    func kind(_ node: Node) -> Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// How a node looks, for "found …" in messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if kind(node) == .null { return "nothing (null)" }
            return "\"\(scalar.string)\""
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// The candidate nearest to `word` by edit distance, if it is near enough to be a typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
