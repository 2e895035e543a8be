import Foundation
import SplashFormat
import SplashImaging
import Yams

/// Reads a campaign YAML file into a validated ``Campaign``. Decoding and validation report every
/// problem of the file in one ``CampaignError``, each at its file:line:column and key path.
package struct CampaignLoader: Sendable {
    /// The catalogue that `devices` names refer to (before the campaign's own `catalogue` changes).
    package var catalogue: DeviceCatalogue

    /// Makes a loader over a device catalogue.
    package init(catalogue: DeviceCatalogue) {
        self.catalogue = catalogue
    }

    /// Loads the campaign at `url`; messages name the file as `displayPath`.
    package func load(contentsOf url: URL, displayPath: String? = nil) throws(CampaignError) -> Campaign {
        let file = displayPath ?? url.path
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "the file is not readable UTF-8 text" : "no such file"
            throw CampaignError([Diagnostic(SourceLocation(file: file, line: 1, column: 1, keyPath: ""), reason)])
        }
        return try load(yaml: text, file: file, baseDirectory: url.deletingLastPathComponent())
    }

    /// Loads a campaign from YAML text; image paths are relative to `baseDirectory`.
    package func load(yaml: String, file: String, baseDirectory: URL) throws(CampaignError) -> Campaign {
        let reader = YAMLReader(file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw CampaignError(Self.diagnostics(forYAMLError: error, file: file, text: yaml))
        }
        guard let root else {
            throw CampaignError([Diagnostic(SourceLocation(file: file, line: 1, column: 1, keyPath: ""), "the file is empty; expected a campaign mapping")])
        }
        var reading = Reading(reader: reader, catalogue: catalogue, baseDirectory: baseDirectory)
        let campaign = reading.campaign(root)
        guard reader.diagnostics.isEmpty, let campaign else {
            throw CampaignError(reader.diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) })
        }
        return campaign
    }

    /// What a YAML error means for a person: at its place, a tab explained, each duplicate key at its
    /// own line with the first one named.
    static func diagnostics(forYAMLError error: any Error, file: String, text: String) -> [Diagnostic] {
        var line = 1, column = 1, message = String(describing: error)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let yamlError = error as? YamlError {
            switch yamlError {
            case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
                .composer(let context, let problem, let mark, _):
                (line, column) = (mark.line, mark.column)
                message =
                    Self.indentation(problem, context: context, column: column)
                    ?? [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                if line >= 1, line <= lines.count, let tab = lines[line - 1].firstIndex(of: "\t"),
                    lines[line - 1][..<tab].allSatisfy({ $0 == " " || $0 == "\t" })
                {
                    column = lines[line - 1].distance(from: lines[line - 1].startIndex, to: tab) + 1
                    message = "a tab indents this line; YAML indents with spaces only"
                }
            case .reader(let problem, _, _, _):
                message = problem
            case .duplicatedKeysInMapping(let duplicates, let context):
                let found = duplicateKeys(duplicates, mappingAt: context.mark, lines: lines, file: file)
                if !found.isEmpty { return found }
                (line, column) = (context.mark.line, context.mark.column)
                message = "duplicate key(s) \(duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")) in this mapping"
            default:
                break
            }
        }
        return [Diagnostic(SourceLocation(file: file, line: line, column: column, keyPath: ""), "malformed YAML: \(message)")]
    }

    /// LibYAML's words for a line indented where no key or list item of the lines above can be, in a
    /// person's: what the indentation should match. Nil for any other problem.
    static func indentation(_ problem: String, context: YamlError.Context?, column: Int) -> String? {
        let block = context.map { " (in the \($0.text.hasSuffix("collection") ? "list" : "mapping") that starts at line \($0.mark.line))" } ?? ""
        switch problem {
        case "did not find expected '-' indicator", "did not find expected key":
            return
                "indentation: this line starts at column \(column), which lines up with no key or list item above it\(block); indent it as far as the keys or list items it belongs with"
        case "mapping values are not allowed in this context":
            return
                "indentation: a key on this line is indented deeper than the key above it, as if it were inside that key's value; line it up with the keys it belongs with (or, if the value holds ': ', put the value in quotes)"
        default:
            return nil
        }
    }

    /// Each repeated key of the block mapping that starts at `mark`, at its own line.
    private static func duplicateKeys(_ keys: [String], mappingAt mark: Mark, lines: [String], file: String) -> [Diagnostic] {
        let indent = String(repeating: " ", count: max(0, mark.column - 1))
        var found: [Diagnostic] = []
        for key in keys.sorted() {
            var first: Int?
            for number in max(1, mark.line)...max(1, lines.count) where number <= lines.count {
                let text = lines[number - 1]
                guard text.hasPrefix(indent + key + ":") || text.hasPrefix(indent + "\"" + key + "\":") else {
                    // A line less indented than the mapping ends it.
                    let content = text.drop { $0 == " " }
                    if number > mark.line, !content.isEmpty, !content.hasPrefix("#"), text.count - content.count < indent.count { break }
                    continue
                }
                if let first {
                    found.append(
                        Diagnostic(
                            SourceLocation(file: file, line: number, column: indent.count + 1, keyPath: key),
                            "duplicate key '\(key)'; it is already given at line \(first)"))
                } else {
                    first = number
                }
            }
        }
        return found.sorted { $0.location.line < $1.location.line }
    }
}

/// One pass over one file's tree.
private struct Reading {
    let reader: YAMLReader
    var catalogue: DeviceCatalogue
    let baseDirectory: URL

    static let topKeys = [
        "schema", "name", "app", "schedule", "priority", "grey", "encoding", "astc_quality", "orientations",
        "devices", "display_zoom", "marker", "appearances", "catalogue", "own_screen", "rollout", "match", "languages",
    ]

    mutating func campaign(_ root: Node) -> Campaign? {
        // The own screen of a UILaunchScreen app is drawn from app.launch_screen, with no appearances.
        let drawnFromApp =
            reader.mappingValue(root, "own_screen")?.scalar?.string == "true"
            && reader.mappingValue(root, "app").flatMap { reader.mappingValue($0, "launch_screen") } != nil
        let required = ["schema", "name", "app", "schedule"] + (drawnFromApp ? [] : ["appearances"])
        guard let top = reader.mapping(root, "", keys: Self.topKeys, required: required) else { return nil }
        if let node = top["schema"], let schema = reader.int(node, "schema", in: 1...Int.max), schema > Campaign.currentSchema {
            reader.error(
                node, "schema", "campaign schema \(schema) is newer than this splashgen understands (schema \(Campaign.currentSchema)); update splashgen")
            return nil
        }
        let name = top["name"].flatMap(name)
        let app = top["app"].flatMap(app)
        // Absent: .some(nil), a storyboard app; present and wrong: nil, reported at its place.
        let launchScreen: Campaign.LaunchScreen??
        if let node = top["app"].flatMap({ reader.mappingValue($0, "launch_screen") }) {
            launchScreen = self.launchScreen(node).map { .some($0) } ?? nil
        } else {
            launchScreen = .some(nil)
        }
        let schedule = top["schedule"].flatMap(schedule)
        let priority = top["priority"].map { reader.int($0, "priority", in: -1000...1000) } ?? 0
        let grey = top["grey"].map { reader.bool($0, "grey") } ?? false
        let ownScreen = top["own_screen"].map { reader.bool($0, "own_screen") } ?? false
        let rollout = top["rollout"].map(rollout)
        let match = top["match"].map(match)
        let encoding = top["encoding"].map { reader.oneOf($0, "encoding", as: SnapshotEncoding.self) } ?? .default
        let quality = top["astc_quality"].map { reader.oneOf($0, "astc_quality", as: ASTCQuality.self) } ?? .medium
        let orientations = top["orientations"].map(orientations) ?? [.portrait]
        if let node = top["catalogue"] { readCatalogue(node) }
        let displayZoom = top["display_zoom"].map { reader.bool($0, "display_zoom") } ?? true
        // How the app runs on an iPad decides which windows iPadOS caches for it (docs/ios-launch-cache.md §1).
        func appFlag(_ key: String) -> Bool {
            top["app"].flatMap { reader.mappingValue($0, key) }.map { reader.bool($0, "app." + key) ?? false } ?? false
        }
        let screens = devices(
            top["devices"], displayZoom: displayZoom ?? true, sideLayout: !appFlag("requires_full_screen"), iphoneOnly: appFlag("iphone_only"))
        // A UILaunchScreen app has no view to carry a marker: its background tells light from dark.
        let marker: Campaign.Marker?? = (launchScreen ?? nil) == nil ? self.marker(top["marker"]).map(Optional.some) : .some(nil)
        if (launchScreen ?? nil) != nil, let node = top["marker"] {
            reader.error(
                node, "marker",
                "the app's launch screen is its UILaunchScreen dictionary (app.launch_screen), which has no view to carry a marker: its background colours tell light from dark; remove marker"
            )
        }
        let ownLaunchScreen = ownScreen == true ? launchScreen ?? nil : nil
        var appearances = top["appearances"].flatMap { node in self.appearances(node, orientations: orientations ?? []) }
        if let ownLaunchScreen {
            // The app's own screen is what the OS draws from the dictionary, and nothing else.
            if let node = top["appearances"] {
                reader.error(
                    node, "appearances",
                    "the own screen of a UILaunchScreen app is what the OS draws from app.launch_screen (its background and image): remove appearances"
                )
            }
            appearances = [.light: ownLaunchScreen.drawn(.light), .dark: ownLaunchScreen.drawn(.dark)]
        }
        let languages = top["languages"].map { node in self.languages(node, orientations: orientations ?? []) }

        guard let name, let app, let schedule, let priority, let grey, let ownScreen, let encoding, let quality, let orientations, let screens,
            let marker, let launchScreen, let appearances, let nameNode = top["name"], let scheduleNode = top["schedule"]
        else { return nil }
        var campaign = Campaign(
            name: name, app: app, schedule: schedule, priority: priority, grey: grey, encoding: encoding, astcQuality: quality,
            orientations: orientations, screens: screens, marker: marker, appearances: appearances,
            baseDirectory: baseDirectory,
            nameSource: reader.location(nameNode, "name"), scheduleSource: reader.location(scheduleNode, "schedule"))
        campaign.markerSource = top["marker"].map { reader.location($0, "marker") } ?? launchScreen?.source ?? campaign.nameSource
        campaign.launchScreen = launchScreen
        if let launchScreen { campaign.app.launchScreen = launchScreen.colors }
        campaign.ownScreen = ownScreen
        // Who sees it is decided on the phone; the app's own screen is every phone's.
        for (key, given) in [("rollout", rollout.map { $0 != nil }), ("match", match.map { $0 != nil }), ("languages", languages.map { $0 != nil })] {
            guard let given else { continue }
            guard given else { return nil }
            if ownScreen == true, let node = top[key] {
                reader.error(node, key, "the app's own screen (own_screen: true) is shown to every phone, as it repairs black renders: remove \(key)")
                return nil
            }
        }
        campaign.rollout = rollout ?? nil
        campaign.match = match ?? nil
        campaign.languages = (languages ?? nil) ?? [:]
        if case .mapping(let keys) = scheduleNode, let start = keys["start"]?.string, let zone = ScheduleTime.timeZone(of: start) {
            campaign.scheduleTimeZone = zone
        }
        return campaign
    }

    func name(_ node: Node) -> String? { reader.bundleName(node, "name") }

    /// `match:`: which phones the campaign is for, every condition checked here (a BCP 47 language,
    /// an ISO 3166 region, a range that ends before it starts, an unknown key).
    func match(_ node: Node) -> Manifest.Match? {
        guard let keys = reader.mapping(node, "match", keys: ["languages", "regions", "builds", "ios", "devices"]) else { return nil }
        var match = Manifest.Match()
        var ok = true
        func list(_ key: String, _ check: (String) -> String?) -> [String]? {
            guard let node = keys[key] else { return nil }
            guard let items = reader.sequence(node, "match.\(key)"), !items.isEmpty else {
                if case .sequence = node { reader.error(node, "match.\(key)", "expected at least one entry") }
                ok = false
                return nil
            }
            var values: [String] = []
            for (index, item) in items.enumerated() {
                guard let value = reader.string(item, "match.\(key)[\(index)]") else {
                    ok = false
                    continue
                }
                if let problem = check(value) {
                    reader.error(item, "match.\(key)[\(index)]", problem)
                    ok = false
                } else {
                    values.append(value)
                }
            }
            return values
        }
        func range(_ key: String, example: String) -> (String?, String?) {
            guard let node = keys[key], let bounds = reader.mapping(node, "match.\(key)", keys: ["min", "max"]) else { return (nil, nil) }
            func bound(_ name: String) -> String? {
                guard let node = bounds[name] else { return nil }
                guard case .scalar(let scalar) = node, VersionNumber.problem(scalar.string) == nil else {
                    reader.error(node, "match.\(key).\(name)", "expected a number such as \(example); found \(reader.describe(node))")
                    ok = false
                    return nil
                }
                return scalar.string
            }
            let (min, max) = (bound("min"), bound("max"))
            if let min, let max, VersionNumber(max) < VersionNumber(min) {
                reader.error(bounds["max"] ?? node, "match.\(key).max", "the range ends (\(max)) before it starts (\(min))")
                ok = false
            }
            return (min, max)
        }
        match.languages = list("languages") { Self.isLanguageTag($0) ? nil : "expected a BCP 47 language tag such as en, zh-Hans or pt-BR; found \"\($0)\"" }
        match.regions = list("regions") { region in
            Self.regions.contains(region) ? nil : "expected an ISO 3166 region code such as CN, US or GB; found \"\(region)\""
        }
        (match.minBuild, match.maxBuild) = range("builds", example: "100 or 5.2.1")
        (match.minIOS, match.maxIOS) = range("ios", example: "15 or 17.4")
        match.devices = list("devices") { ["iphone", "ipad"].contains($0) ? nil : "expected iphone or ipad; found \"\($0)\"" }
        return ok ? match : nil
    }

    /// `languages:`: art per language, each a BCP 47 tag with appearances of the `appearances:` form.
    func languages(_ node: Node, orientations: [Orientation]) -> [String: [Appearance: Campaign.AppearanceSpec]]? {
        guard case .mapping(let mapping) = node, !mapping.isEmpty else {
            reader.error(node, "languages", "expected a mapping from language tags (zh-Hans, en, …) to appearances, as under appearances:")
            return nil
        }
        var result: [String: [Appearance: Campaign.AppearanceSpec]] = [:]
        var ok = true
        for (keyNode, value) in mapping {
            guard let tag = keyNode.scalar?.string, Self.isLanguageTag(tag) else {
                reader.error(keyNode, "languages", "expected a BCP 47 language tag such as en, zh-Hans or pt-BR; found \(reader.describe(keyNode))")
                ok = false
                continue
            }
            if let art = appearances(value, orientations: orientations, path: "languages.\(tag)") { result[tag] = art } else { ok = false }
        }
        return ok ? result : nil
    }

    /// A BCP 47 tag as phones give them: a language (2–3 letters), then optionally a script (4
    /// letters) and a region (2 letters or 3 digits), e.g. `zh-Hans-CN` (RFC 5646 §2.1, the subset
    /// `Locale.preferredLanguages` returns).
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), (2...3).contains(parts[0].count), parts[0].allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy({ $0.isASCII && $0.isLetter }) { rest = rest.dropFirst() }
        if let region = rest.first {
            guard (region.count == 2 && region.allSatisfy({ $0.isASCII && $0.isLetter })) || (region.count == 3 && region.allSatisfy(\.isNumber)) else {
                return false
            }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }

    /// ISO 3166-1 alpha-2 codes, as Foundation knows them.
    static let regions = Set(Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 })

    /// `rollout:`, a percentage from 0 to 100 in hundredths (each phone draws one of 10,000 places).
    func rollout(_ node: Node) -> Double? {
        guard let value = reader.number(node, "rollout", in: 0...100) else { return nil }
        guard (value * 100).rounded() == value * 100 else {
            reader.error(node, "rollout", "a percentage in hundredths at most (each phone draws one of 10,000 places); found \(value)")
            return nil
        }
        return value
    }

    /// `app.launch_screen`: the app's `UILaunchScreen` dictionary, its colours and image given per
    /// appearance (a mapping of `light` and `dark`) or once for both.
    func launchScreen(_ node: Node) -> Campaign.LaunchScreen? {
        let path = "app.launch_screen"
        let keyNames = ["background", "image", "image_width", "image_respects_safe_area"]
        guard let keys = reader.mapping(node, path, keys: keyNames, required: ["background"]) else { return nil }
        let errorsBefore = reader.diagnostics.count
        /// A value given once for both appearances, or as `light:` and `dark:` (dark defaulting to light).
        func perAppearance<T>(_ key: String, _ read: (Node, String) -> T?) -> [Appearance: T]? {
            guard let node = keys[key] else { return [:] }
            if case .mapping = node {
                guard let both = reader.mapping(node, "\(path).\(key)", keys: ["light", "dark"], required: ["light"]) else { return nil }
                guard let light = both["light"].flatMap({ read($0, "\(path).\(key).light") }) else { return nil }
                guard let darkNode = both["dark"] else { return [.light: light, .dark: light] }
                return read(darkNode, "\(path).\(key).dark").map { [.light: light, .dark: $0] }
            }
            return read(node, "\(path).\(key)").map { [.light: $0, .dark: $0] }
        }
        let background = perAppearance("background") { reader.color($0, $1) }
        let image = perAppearance("image") { imageFile($0, $1) }
        let width = keys["image_width"].map { reader.number($0, path + ".image_width", in: 0.5...10_000) }
        let respects = keys["image_respects_safe_area"].map { reader.bool($0, path + ".image_respects_safe_area") } ?? false
        guard reader.diagnostics.count == errorsBefore, let background, let image, let respects, width != .some(nil) else { return nil }
        if !image.isEmpty, width == nil {
            reader.error(
                keys["image"], path + ".image",
                "give the image's natural width in points as image_width (its pixels divided by its scale): the OS draws it at that size, centred, never scaled"
            )
            return nil
        }
        if image.isEmpty, let extra = keys["image_width"] {
            reader.error(extra, path + ".image_width", "image_width applies only with an image")
            return nil
        }
        return Campaign.LaunchScreen(
            background: background, image: image, imageSource: keys["image"].map { reader.location($0, path + ".image") },
            imageWidth: width ?? nil, imageRespectsSafeArea: respects, source: reader.location(node, path))
    }

    func app(_ node: Node) -> Manifest.App? {
        let keyNames = ["bundle_id", "min_version", "max_version", "launch_screen", "requires_full_screen", "iphone_only"]
        guard let keys = reader.mapping(node, "app", keys: keyNames, required: ["bundle_id"]) else {
            return nil
        }
        let bundleID = keys["bundle_id"].flatMap { node -> String? in
            guard let id = reader.string(node, "app.bundle_id") else { return nil }
            guard Manifest.isBundleIdentifier(id) else {
                reader.error(node, "app.bundle_id", "expected a reverse-DNS bundle identifier such as com.example.shop; found \"\(id)\"")
                return nil
            }
            return id
        }
        func version(_ key: String) -> String?? {
            guard let node = keys[key] else { return .some(nil) }
            guard case .scalar(let scalar) = node, VersionNumber.problem(scalar.string) == nil else {
                let problem = (node.scalar?.string).flatMap(VersionNumber.problem) ?? "expected a version such as 5.2 or 5.2.1"
                reader.error(node, "app.\(key)", "\(problem); found \(reader.describe(node))")
                return nil
            }
            return .some(scalar.string)
        }
        guard let bundleID, let min = version("min_version"), let max = version("max_version") else { return nil }
        if let min, let max, VersionNumber(min) > VersionNumber(max) {
            reader.error(keys["max_version"], "app.max_version", "max_version \(max) is lower than min_version \(min)")
            return nil
        }
        return Manifest.App(bundleID: bundleID, minVersion: min, maxVersion: max)
    }

    func schedule(_ node: Node) -> Manifest.Schedule? {
        guard let keys = reader.mapping(node, "schedule", keys: ["start", "end"], required: ["start"]) else { return nil }
        let start = keys["start"].flatMap { reader.date($0, "schedule.start") }
        // No end: in force from the start on. A written end must read.
        let end: Date?? = keys["end"].map { reader.date($0, "schedule.end") } ?? .some(nil)
        guard let start, let end else { return nil }
        if let end, end <= start {
            reader.error(keys["end"], "schedule.end", "the campaign ends before it starts; end must be after start")
            return nil
        }
        // The offset the start was written with, kept to show the schedule as written.
        var offset: String?
        if case .scalar(let text) = keys["start"], ScheduleTime.timeZone(of: text.string) != nil {
            offset = text.string.hasSuffix("Z") ? "Z" : String(text.string.suffix(6))
        }
        return Manifest.Schedule(start: start, end: end, offset: offset)
    }

    func orientations(_ node: Node) -> [Orientation]? {
        guard let items = reader.sequence(node, "orientations") else { return nil }
        var result: [Orientation] = []
        var ok = true
        for (index, item) in items.enumerated() {
            guard let orientation = reader.oneOf(item, "orientations[\(index)]", as: Orientation.self) else { ok = false; continue }
            if result.contains(orientation) {
                reader.error(item, "orientations[\(index)]", "\(orientation.rawValue) is listed twice")
                ok = false
            }
            result.append(orientation)
        }
        if items.isEmpty {
            reader.error(node, "orientations", "expected at least one of portrait, landscape")
            ok = false
        }
        return ok ? result.sorted() : nil
    }

    func devices(_ node: Node?, displayZoom: Bool, sideLayout: Bool, iphoneOnly: Bool) -> [Screen]? {
        func select(_ selection: DeviceSelection) -> [Device] {
            catalogue.select(selection, displayZoom: displayZoom, sideLayout: sideLayout, iphoneOnly: iphoneOnly)
        }
        guard let node else { return DeviceCatalogue.screens(of: select(.all)) }
        if case .scalar(let scalar) = node, scalar.string == "all" {
            return DeviceCatalogue.screens(of: select(.all))
        }
        guard case .sequence = node, let items = reader.sequence(node, "devices") else {
            reader.error(node, "devices", "expected all, or a list of iphone, ipad and device names; found \(reader.describe(node))")
            return nil
        }
        var selectors: [DeviceSelector] = []
        for (index, item) in items.enumerated() {
            guard let word = reader.string(item, "devices[\(index)]") else { continue }
            if let family = DeviceFamily(rawValue: word.lowercased()) {
                selectors.append(.family(family))
            } else if catalogue.device(named: word) != nil {
                selectors.append(.named(word))
            } else {
                reader.error(item, "devices[\(index)]", catalogue.unknownDeviceMessage(word))
            }
        }
        if items.isEmpty { reader.error(node, "devices", "expected at least one device") }
        guard selectors.count == items.count, !items.isEmpty else { return nil }
        let chosen = select(.some(selectors))
        guard !chosen.isEmpty else {
            reader.error(
                node, "devices",
                iphoneOnly
                    ? "an iPhone-only app (app.iphone_only) has no iPad screen to render; name iPhones, or leave devices out"
                    : "these select no screen (a Display Zoom screen with display_zoom: false?); name a device")
            return nil
        }
        return DeviceCatalogue.screens(of: chosen)
    }

    func marker(_ node: Node?) -> Campaign.Marker? {
        var marker = Campaign.Marker(light: RGBAColor(r: 255, g: 255, b: 255), dark: RGBAColor(r: 0, g: 0, b: 0), size: MarkerReading.defaultStamp)
        guard let node else { return marker }
        guard let keys = reader.mapping(node, "marker", keys: ["light", "dark", "size"]) else { return nil }
        var ok = true
        if let value = keys["light"] { if let color = reader.color(value, "marker.light") { marker.light = color } else { ok = false } }
        if let value = keys["dark"] { if let color = reader.color(value, "marker.dark") { marker.dark = color } else { ok = false } }
        if let value = keys["size"] { if let size = reader.int(value, "marker.size", in: 1...16) { marker.size = size } else { ok = false } }
        if ok, marker.light == marker.dark {
            reader.error(node, "marker", "the light and dark marker colours are the same, so appearance cannot be told apart")
            ok = false
        }
        return ok ? marker : nil
    }

    func appearances(_ node: Node, orientations: [Orientation], path: String = "appearances") -> [Appearance: Campaign.AppearanceSpec]? {
        guard let keys = reader.mapping(node, path, keys: Appearance.allCases.map(\.rawValue), required: ["light"]) else {
            return nil
        }
        var result: [Appearance: Campaign.AppearanceSpec] = [:]
        var ok = true
        for appearance in Appearance.allCases {
            guard let value = keys[appearance.rawValue] else { continue }
            if let spec = appearanceSpec(value, "\(path).\(appearance.rawValue)", orientations: orientations) {
                result[appearance] = spec
            } else {
                ok = false
            }
        }
        return ok && result[.light] != nil ? result : nil
    }

    func appearanceSpec(_ node: Node, _ path: String, orientations: [Orientation]) -> Campaign.AppearanceSpec? {
        guard let keys = reader.mapping(node, path, keys: ["background", "layers"], required: ["background"]) else { return nil }
        let background = keys["background"].flatMap { reader.color($0, path + ".background") }
        var layers: [Campaign.Layer]? = []
        if let list = keys["layers"] {
            if let items = reader.sequence(list, path + ".layers") {
                for (index, item) in items.enumerated() {
                    let layer = self.layer(item, "\(path).layers[\(index)]", orientations: orientations)
                    if let layer { layers?.append(layer) } else { layers = nil }
                }
            } else {
                layers = nil
            }
        }
        guard let background, let layers, let backgroundNode = keys["background"] else { return nil }
        return Campaign.AppearanceSpec(
            background: background, layers: layers,
            backgroundSource: reader.location(backgroundNode, path + ".background"))
    }

    /// An image path, relative to the campaign's folder, that names a file there (its bytes are read
    /// and checked later, by ``Artwork``); else nil, reported at `node`.
    func imageFile(_ node: Node, _ path: String) -> String? {
        guard let image = reader.string(node, path) else { return nil }
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: image, relativeTo: baseDirectory)
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            reader.error(node, path, "no such image file \"\(image)\" (paths are relative to the campaign file's folder)")
            return nil
        }
        return image
    }

    func layer(_ node: Node, _ path: String, orientations: [Orientation]) -> Campaign.Layer? {
        let keyNames = ["image", "fit", "anchor", "width", "height", "margin", "safe_area", "orientation", "keep", "screen_width", "family"]
        guard let keys = reader.mapping(node, path, keys: keyNames, required: ["image"]) else { return nil }
        let errorsBefore = reader.diagnostics.count
        let image = keys["image"].flatMap { imageFile($0, path + ".image") }
        let fit = keys["fit"].map { reader.oneOf($0, path + ".fit", as: Campaign.Fit.self) } ?? .fill
        let anchor = keys["anchor"].map { reader.oneOf($0, path + ".anchor", as: Campaign.Anchor.self) } ?? .center
        let width = keys["width"].map { reader.number($0, path + ".width", in: 0.5...10_000) }
        let height = keys["height"].map { reader.number($0, path + ".height", in: 0.5...10_000) }
        let margin = keys["margin"].map { reader.number($0, path + ".margin", in: 0...10_000) } ?? 0
        let orientation = keys["orientation"].map { reader.oneOf($0, path + ".orientation", as: Orientation.self) }
        let safeArea = keys["safe_area"].map { reader.bool($0, path + ".safe_area") } ?? (fit == Campaign.Fit.none)
        let keep = keys["keep"].map { self.keep($0, path + ".keep") }
        let family = keys["family"].map { reader.oneOf($0, path + ".family", as: DeviceFamily.self) }
        var screenWidth = Campaign.ScreenWidth()
        if let node = keys["screen_width"], let bounds = reader.mapping(node, path + ".screen_width", keys: ["min", "max"]) {
            screenWidth.min = bounds["min"].flatMap { reader.number($0, path + ".screen_width.min", in: 0...10_000) }
            screenWidth.max = bounds["max"].flatMap { reader.number($0, path + ".screen_width.max", in: 0...10_000) }
            if bounds.isEmpty { reader.error(node, path + ".screen_width", "expected min, max or both, in points") }
            if let min = screenWidth.min, let max = screenWidth.max, max < min {
                reader.error(node, path + ".screen_width", "the range ends (\(max)) before it starts (\(min))")
            }
        }
        guard reader.diagnostics.count == errorsBefore, let image, let imageNode = keys["image"], let fit, let anchor,
            let margin, let safeArea, keep != .some(nil)
        else { return nil }
        if fit == .none, width == nil, height == nil {
            reader.error(node, path, "fit: none needs a width or a height in points")
            return nil
        }
        if fit != .none, let extra = keys["width"] ?? keys["height"] {
            reader.error(extra, path, "width and height apply only to fit: none; \(fit.rawValue) sizes the art to its region")
            return nil
        }
        if let orientation = orientation ?? nil, !orientations.contains(orientation) {
            reader.error(keys["orientation"], path + ".orientation", "the campaign does not render \(orientation.rawValue); add it to orientations")
            return nil
        }
        var layer = Campaign.Layer(
            image: image, source: reader.location(imageNode, path + ".image"), fit: fit, anchor: anchor,
            width: width ?? nil, height: height ?? nil, margin: margin, safeArea: safeArea,
            orientation: orientation ?? nil, keep: keep ?? nil)
        layer.screenWidth = screenWidth
        layer.family = family ?? nil
        return layer
    }

    /// `keep: [x, y, width, height]` in art pixels; whether it lies within the art is checked once
    /// the art is read (``ArtChecker``).
    func keep(_ node: Node, _ path: String) -> Campaign.Keep? {
        guard let items = reader.sequence(node, path) else { return nil }
        guard items.count == 4 else {
            reader.error(node, path, "expected [x, y, width, height] in art pixels; found a list of \(items.count)")
            return nil
        }
        let limit = 1_000_000
        let x = reader.int(items[0], path + "[0]", in: 0...limit), y = reader.int(items[1], path + "[1]", in: 0...limit)
        let width = reader.int(items[2], path + "[2]", in: 1...limit), height = reader.int(items[3], path + "[3]", in: 1...limit)
        guard let x, let y, let width, let height else { return nil }
        return Campaign.Keep(x: x, y: y, width: width, height: height, source: reader.location(node, path))
    }

    /// Applies the campaign's `catalogue:` additions and overrides.
    mutating func readCatalogue(_ node: Node) {
        guard let items = reader.sequence(node, "catalogue") else { return }
        for (index, item) in items.enumerated() {
            let path = "catalogue[\(index)]"
            guard let keys = reader.mapping(item, path, keys: ["name", "family", "points", "scale", "safe_area"], required: ["name"]),
                let nameNode = keys["name"], let name = reader.string(nameNode, path + ".name")
            else { continue }
            let existing = catalogue.device(named: name)
            if existing == nil {
                for key in ["family", "points", "scale"] where keys[key] == nil {
                    reader.error(item, path, "a new device needs '\(key)' (\"\(name)\" is not in the catalogue)")
                }
            }
            let family = keys["family"].map { reader.oneOf($0, path + ".family", as: DeviceFamily.self) } ?? existing?.family
            let points = keys["points"].map { size($0, path + ".points") } ?? existing?.points
            let scale = keys["scale"].map { reader.int($0, path + ".scale", in: 1...3) } ?? existing?.scale
            let safeArea = keys["safe_area"].map { safeAreas($0, path + ".safe_area") } ?? existing?.safeArea ?? SafeAreas()
            guard let family = family ?? nil, let points = points ?? nil, let scale = scale ?? nil, let safeArea else { continue }
            var device = Device(
                name: existing?.name ?? name, family: family, points: points, scale: scale, safeArea: safeArea,
                displayZoomOf: existing?.displayZoomOf, source: existing?.source)
            // An override keeps what the entry is: a window of an iPad, or an iPhone app on one.
            (device.windowOf, device.landscapePoints, device.iphoneAppOnIpad, device.confidence) =
                (existing?.windowOf, existing?.landscapePoints, existing?.iphoneAppOnIpad, existing?.confidence)
            catalogue = catalogue.replacing(device)
        }
    }

    func size(_ node: Node, _ path: String) -> Manifest.Size? {
        guard let keys = reader.mapping(node, path, keys: ["width", "height"], required: ["width", "height"]) else { return nil }
        let width = keys["width"].flatMap { reader.int($0, path + ".width", in: 100...4096) }
        let height = keys["height"].flatMap { reader.int($0, path + ".height", in: 100...4096) }
        guard let width, let height else { return nil }
        guard width <= height else {
            reader.error(node, path, "points are given in portrait: width must not exceed height")
            return nil
        }
        return Manifest.Size(width: width, height: height)
    }

    func safeAreas(_ node: Node, _ path: String) -> SafeAreas? {
        guard let keys = reader.mapping(node, path, keys: ["portrait", "landscape"]) else { return nil }
        func insets(_ key: String) -> Insets?? {
            guard let node = keys[key] else { return .some(Insets()) }
            guard let edges = reader.mapping(node, path + "." + key, keys: ["top", "left", "bottom", "right"]) else { return nil }
            var values: [String: Double] = [:]
            for (edge, value) in edges {
                guard let number = reader.number(value, "\(path).\(key).\(edge)", in: 0...500) else { return nil }
                values[edge] = number
            }
            return Insets(top: values["top"] ?? 0, left: values["left"] ?? 0, bottom: values["bottom"] ?? 0, right: values["right"] ?? 0)
        }
        guard let portrait = insets("portrait") ?? nil, let landscape = insets("landscape") ?? nil else { return nil }
        return SafeAreas(portrait: portrait, landscape: landscape)
    }
}
