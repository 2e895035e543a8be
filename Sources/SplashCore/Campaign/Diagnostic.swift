import Foundation
import SplashFormat

/// A place in a campaign file: file, 1-based line and column, and the key path.
package struct SourceLocation: Equatable, Hashable, Sendable {
    /// The file as the user named it.
    package var file: String
    /// 1-based line.
    package var line: Int
    /// 1-based column.
    package var column: Int
    /// Dotted key path, e.g. `appearances.dark.layers[1].fit`.
    package var keyPath: String

    /// Makes a location.
    package init(file: String, line: Int, column: Int, keyPath: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
    }
}

/// One problem in a campaign file, printed like a compiler's.
package struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    /// How serious a problem is.
    package enum Severity: String, Sendable {
        /// The campaign cannot be built.
        case error
        /// The campaign builds, but probably not as meant (an error with `--strict`).
        case warning
    }

    /// Where.
    package var location: SourceLocation
    /// What is wrong, and the fix when there is one.
    package var message: String
    /// Error or warning.
    package var severity: Severity

    /// Makes a diagnostic.
    package init(_ location: SourceLocation, _ message: String, severity: Severity = .error) {
        self.location = location
        self.message = message
        self.severity = severity
    }

    /// `file:line:col: error: key.path: message` (or `warning:`).
    package var description: String {
        let path = location.keyPath.isEmpty ? "" : location.keyPath + ": "
        return "\(location.file):\(location.line):\(location.column): \(severity.rawValue): \(path)\(message)"
    }
}

/// Every problem found in a campaign file.
package struct CampaignError: Error, Equatable, CustomStringConvertible {
    /// The problems, in file order.
    package var diagnostics: [Diagnostic]

    /// Makes an error from diagnostics.
    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The warnings among `diagnostics` when nothing stops the build; otherwise every diagnostic
    /// thrown together, warnings made errors when `strict`.
    package static func warnings(_ diagnostics: [Diagnostic], strict: Bool) throws(CampaignError) -> [Diagnostic] {
        let settled = strict ? diagnostics.map { Diagnostic($0.location, $0.message) } : diagnostics
        if settled.contains(where: { $0.severity == .error }) { throw CampaignError(settled) }
        return settled
    }
}
