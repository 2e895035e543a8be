import Foundation

/// What the window shows: the last run's summary, set when ``DemoUpdater`` finishes.
@MainActor
final class DemoStatus: ObservableObject {
    /// The one the window observes.
    static let shared = DemoStatus()
    /// One line per fact of the last run.
    @Published var summary = "splashgen has not run in this launch" { didSet { onChange?(summary) } }
    /// Told each new summary: the app-delegate shape's UIKit window (the SwiftUI shapes observe
    /// ``summary`` itself).
    var onChange: (@MainActor (String) -> Void)?
}
