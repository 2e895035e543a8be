import Foundation

extension Manifest {
    /// Which phones a campaign is for (a campaign file's `match:`), decided on the phone with what it
    /// knows of itself. Every condition given must hold; a condition the phone cannot answer (no
    /// preferred language, no region) does not.
    package struct Match: Codable, Equatable, Sendable {
        /// BCP 47 tags: the phone's first preferred language is one of them, or a narrower tag of one
        /// (`zh-Hans` takes `zh-Hans-CN`; `en` takes `en-GB`).
        package var languages: [String]?
        /// ISO 3166-1 region codes: the phone's region is one of them.
        package var regions: [String]?
        /// The app's `CFBundleVersion` range, inclusive, compared as version numbers.
        package var minBuild: String?, maxBuild: String?
        /// The iOS version range, inclusive.
        package var minIOS: String?, maxIOS: String?
        /// Device families: `iphone`, `ipad`.
        package var devices: [String]?

        private enum CodingKeys: String, CodingKey {
            case languages, regions, devices
            case minBuild = "min_build", maxBuild = "max_build", minIOS = "min_ios", maxIOS = "max_ios"
        }

        package init(
            languages: [String]? = nil, regions: [String]? = nil, minBuild: String? = nil, maxBuild: String? = nil, minIOS: String? = nil,
            maxIOS: String? = nil, devices: [String]? = nil
        ) {
            (self.languages, self.regions, self.minBuild, self.maxBuild) = (languages, regions, minBuild, maxBuild)
            (self.minIOS, self.maxIOS, self.devices) = (minIOS, maxIOS, devices)
        }

        /// What a phone says of itself, for a match.
        package struct Phone: Sendable {
            package var language: String?, region: String?, build: String, os: OSVersion, device: String?
            package init(language: String?, region: String?, build: String, os: OSVersion, device: String?) {
                (self.language, self.region, self.build, self.os, self.device) = (language, region, build, os, device)
            }
        }

        /// Whether a phone's `language` is the BCP 47 `tag` or narrower than it (`zh-Hans-CN` falls
        /// under `zh-Hans` and `zh`), ignoring case.
        package static func language(_ language: String, fallsUnder tag: String) -> Bool {
            let (language, tag) = (language.lowercased(), tag.lowercased())
            return language == tag || language.hasPrefix(tag + "-")
        }

        /// The first condition `phone` fails, in words; nil when it matches.
        package func mismatch(_ phone: Phone) -> String? {
            if let languages {
                guard let language = phone.language else { return "it is for \(languages.joined(separator: ", ")), and this phone names no language" }
                if !languages.contains(where: { Self.language(language, fallsUnder: $0) }) {
                    return "it is for \(languages.joined(separator: ", ")); this phone's language is \(language)"
                }
            }
            if let regions {
                guard let region = phone.region else { return "it is for \(regions.joined(separator: ", ")), and this phone names no region" }
                if !regions.contains(where: { $0.caseInsensitiveCompare(region) == .orderedSame }) {
                    return "it is for \(regions.joined(separator: ", ")); this phone's region is \(region)"
                }
            }
            let build = VersionNumber(phone.build)
            if let minBuild, build < VersionNumber(minBuild) { return "it is for builds from \(minBuild); this app is build \(phone.build)" }
            if let maxBuild, VersionNumber(maxBuild) < build { return "it is for builds up to \(maxBuild); this app is build \(phone.build)" }
            let os = VersionNumber("\(phone.os.major).\(phone.os.minor)")
            if let minIOS, os < VersionNumber(minIOS) { return "it is for iOS \(minIOS) and later; this phone runs \(phone.os)" }
            if let maxIOS, VersionNumber(maxIOS) < os { return "it is for iOS up to \(maxIOS); this phone runs \(phone.os)" }
            if let devices {
                guard let device = phone.device, devices.contains(device) else {
                    return "it is for \(devices.joined(separator: ", ")); this is \(phone.device ?? "a device of unknown family")"
                }
            }
            return nil
        }
    }
}

extension Manifest.Campaign {
    /// Whether the campaign uses what schema 4 added: a rollout, a match, or art per language.
    package var needsSchema4: Bool { rollout != nil || match != nil || snapshots.contains { $0.language != nil } }

    /// The campaign as a phone whose first preferred language is `language` sees it: of a campaign
    /// with art per language, only the snapshots of the art whose tag the language is, or is narrower
    /// than (the longest such tag: `zh-Hans-CN` takes `zh-Hans` before `zh`); with none, the art for
    /// every other language. A campaign without art per language is unchanged.
    package func inLanguage(_ language: String?) -> Manifest.Campaign {
        let tags = Set(snapshots.compactMap(\.language))
        guard !tags.isEmpty else { return self }
        let chosen = tags.filter { tag in language.map { Manifest.Match.language($0, fallsUnder: tag) } ?? false }.max { $0.count < $1.count }
        var seen = self
        seen.snapshots = snapshots.filter { $0.language == chosen }
        return seen
    }
}
