import os

/// The demo's log: `xcrun simctl spawn DEVICE log show --predicate 'subsystem == "com.example.shop.demo"'`
/// reads it back. Through `os_log` with a constant format, whose text is public: it type-checks with
/// every SDK the demo builds with (`Logger`'s interpolation needs the compiler's os_log support).
enum DemoLog {
    /// Made for each line: OSLog is not Sendable in every SDK, and a line is rare.
    private static var log: OSLog { OSLog(subsystem: "com.example.shop.demo", category: "splashgen") }

    /// A line of what happened.
    static func notice(_ text: String) { os_log("%{public}@", log: log, type: .default, text) }

    /// A line of what went wrong.
    static func error(_ text: String) { os_log("%{public}@", log: log, type: .error, text) }
}
