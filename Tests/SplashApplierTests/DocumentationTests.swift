import Foundation
import Testing

/// What the README tells an app team to write is what CI compiles.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    @Test func theReadmeQuotesTheCompiledIntegrationExampleVerbatim() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/AppIntegration/Sources/AppIntegration/LaunchScreenUpdater.swift"),
            encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```\n"))
    }
}
