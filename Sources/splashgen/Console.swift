import ArgumentParser
import Foundation
import SplashCore
import SplashFormat

/// Printing for the commands: results on stdout, diagnostics on stderr.
enum Console {
    /// Whether stderr is a terminal (progress lines are drawn only then).
    static let stderrIsTerminal = isatty(STDERR_FILENO) != 0

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints warnings as `file:line:col: warning: key.path: message` lines.
    static func warn(_ warnings: [Diagnostic]) {
        for warning in warnings { error(warning.description) }
    }

    /// Prints an error the way its type describes itself (campaign errors as file:line:col lines)
    /// and returns the exit code for it.
    static func fail(_ error: any Error, context: String? = nil) -> ExitCode {
        switch error {
        case let campaign as CampaignError:
            Self.error(campaign.description)
        case let refusal as OutputFile.Refusal:
            Self.error("error: \(refusal)")  // it names the output path itself
        case let file as CocoaError:
            // Foundation's file errors: the path it concerns and the system's reason, not the NSError dump.
            let path = file.userInfo[NSFilePathErrorKey] as? String ?? context ?? ""
            Self.error("error: \(path.isEmpty ? "" : path + ": ")\(FileSystemError.reason(of: file))")
        default:
            Self.error("error: " + (context.map { $0 + ": " } ?? "") + String(describing: error))
        }
        return .failure
    }

    /// What a command says when another splashgen command holds the lock of the tree it writes.
    static func waiting(for tree: String) -> () -> Void {
        { error("\(tree): waiting for another splashgen command writing it to finish") }
    }

    /// A progress line that redraws itself on a terminal and says nothing otherwise.
    static func progress(_ label: String) -> (@Sendable (Int, Int) -> Void)? {
        guard stderrIsTerminal else { return nil }
        return { done, total in
            FileHandle.standardError.write(Data("\r\u{1B}[K\(label) \(done)/\(total)".utf8))
            if done == total { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
    }

    /// `12.3 MB`, `840 KB`, `512 B`.
    static func bytes(_ count: Int) -> String {
        if count >= 1_000_000 { return String(format: "%.1f MB", Double(count) / 1_000_000) }
        if count >= 1_000 { return String(format: "%.0f KB", Double(count) / 1_000) }
        return "\(count) B"
    }

    /// `1.23 s` or `45 ms`.
    static func seconds(_ duration: Duration) -> String {
        let s = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return s >= 1 ? String(format: "%.2f s", s) : String(format: "%.0f ms", s * 1000)
    }
}
