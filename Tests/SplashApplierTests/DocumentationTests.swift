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

/// The privacy manifest an app ships with the applier declares the required-reason APIs the applier
/// calls (Apple's list: `stat`, `fstat` and `lstat` read file timestamps and sizes, category
/// `NSPrivacyAccessedAPICategoryFileTimestamp`; reason C617.1 is files inside the app's container).
@Suite struct PrivacyManifestTests {
    @Test func theManifestDeclaresTheFileTimestampReasonTheSourcesNeed() throws {
        let root = DocumentationTests.root
        let url = root.appendingPathComponent("Sources/SplashApplier/PrivacyInfo.xcprivacy")
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        let types = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let timestamps = types.first { $0["NSPrivacyAccessedAPIType"] as? String == "NSPrivacyAccessedAPICategoryFileTimestamp" }
        #expect(timestamps?["NSPrivacyAccessedAPITypeReasons"] as? [String] == ["C617.1"])
        // The declaration is needed: the applier and the bytes it shares call these.
        var sources = ""
        for folder in ["Sources/SplashApplier", "Sources/SplashFormat"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let name = enumerator?.nextObject() as? String {
                guard name.hasSuffix(".swift") else { continue }
                sources += try String(contentsOf: root.appendingPathComponent(folder + "/" + name), encoding: .utf8)
            }
        }
        #expect(sources.contains("lstat(") && sources.contains("fstat("))
    }
}
