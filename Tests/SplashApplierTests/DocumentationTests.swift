import Foundation
import Testing

/// What docs/ios-integration.md tells an app team to write is what CI compiles.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    @Test(arguments: ["ShopAppDelegate.swift", "ShopApp.swift"])
    func theIntegrationGuideQuotesTheCompiledIntegrationExampleVerbatim(_ file: String) throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/ios-integration.md"), encoding: .utf8)
        let example = try String(contentsOf: Self.root.appendingPathComponent("Examples/AppIntegration/Sources/AppIntegration/" + file), encoding: .utf8)
        #expect(guide.contains("```swift\n" + example + "```\n"))
    }

    /// The README's integration is the one call the example makes, and five lines.
    @Test func theReadmesIntegrationIsTheExamplesCallInFiveLines() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/AppIntegration/Sources/AppIntegration/ShopAppDelegate.swift"), encoding: .utf8)
        let call = example.split(separator: "\n").drop { !$0.contains("LaunchScreenUpdater.start(") }.prefix { !$0.contains("return true") }
        #expect(call.count == 5, "\(call)")
        let quoted = call.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        #expect(lines.contains("import SplashUpdater\n" + quoted), "the README shows the example's call")
    }

    /// Every comment that cites the iOS facts cites a section docs/ios-launch-cache.md has, and none
    /// points outside the repository (the facts once lived in a document beside it, "the reference").
    @Test func everyCitedSectionOfTheIOSFactsExists() throws {
        let facts = try String(contentsOf: Self.root.appendingPathComponent("docs/ios-launch-cache.md"), encoding: .utf8)
        let sections = Set(facts.split(separator: "\n").filter { $0.hasPrefix("## §") }.map { $0.dropFirst(4).prefix { $0.isNumber } }.map(String.init))
        #expect(sections == Set((1...10).map(String.init)))
        var cited = 0
        for folder in ["Sources", "Tests", "Examples", "Fuzz", "scripts", "docs"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(folder).path)
            while let name = enumerator?.nextObject() as? String {
                guard [".swift", ".json", ".md", ".py", ".sh", ".txt"].contains(where: name.hasSuffix) else { continue }
                let text = (try? String(contentsOf: Self.root.appendingPathComponent(folder + "/" + name), encoding: .utf8)) ?? ""
                #expect(!text.contains("reference" + " §"), "\(folder)/\(name) cites a document outside the repository")
                for part in text.components(separatedBy: "ios-launch-cache.md").dropFirst() {
                    // "ios-launch-cache.md §3, §4" or "ios-launch-cache.md (§3": the numbers that follow.
                    let head = part.prefix(16)
                    for number in head.split(separator: "§").dropFirst().map({ String($0.prefix { $0.isNumber }) }) where !number.isEmpty {
                        cited += 1
                        #expect(sections.contains(number), "\(folder)/\(name) cites §\(number), which docs/ios-launch-cache.md lacks")
                    }
                }
            }
        }
        #expect(cited > 40, "the code cites the facts it relies on (\(cited) citations)")
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
        // The declaration is needed: the applier, the bytes it shares and the updater (which links
        // the applier, so its manifest covers both products) call these.
        var sources = ""
        for folder in ["Sources/SplashApplier", "Sources/SplashFormat", "Sources/SplashUpdater"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let name = enumerator?.nextObject() as? String {
                guard name.hasSuffix(".swift") else { continue }
                sources += try String(contentsOf: root.appendingPathComponent(folder + "/" + name), encoding: .utf8)
            }
        }
        #expect(sources.contains("lstat(") && sources.contains("fstat("))
    }
}
