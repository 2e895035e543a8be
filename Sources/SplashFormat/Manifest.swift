import Foundation

/// The bundle's table of contents: which snapshot object serves which screen, orientation and
/// appearance, for which app and schedule. Written by `splashgen build`, read by the applier.
package struct Manifest: Codable, Equatable, Sendable {
    /// The newest manifest schema this code reads and the one it writes. Schema 2 added seasons:
    /// campaign priorities and version ranges, open-ended schedules, the publish serial. Schema 3
    /// moved the marker from each campaign to the app (it is the app's storyboard's, one for every
    /// campaign); schemas 1 and 2 are still read, their campaigns' markers as the app's when they agree.
    package static let currentSchema = 5
    /// The schema a manifest is written with: 5 when a snapshot is of a window of a larger screen
    /// (``Snapshot/screen``, an iPad's side layout: an earlier SplashApplier would match its file by
    /// pixels, find its object missing, since its fetcher never downloads it, and stop every run;
    /// it refuses the manifest instead and keeps what it installed); 4 when a campaign has a
    /// `rollout`, a `match` or art per language (an earlier SplashApplier refuses it, rather than
    /// show that campaign to every phone); 3 otherwise, which every app out there reads. A slice is
    /// given the schema of what it holds, so only the screens with windows need the newer reader.
    package var neededSchema: Int { Self.schema(needed: campaigns) }

    /// ``neededSchema`` of a manifest holding `campaigns`.
    private static func schema(needed campaigns: [Campaign]) -> Int {
        if campaigns.contains(where: { $0.snapshots.contains { $0.screen != nil } }) { return 5 }
        return campaigns.contains(where: \.needsSchema4) ? 4 : 3
    }

    /// Schema version of this manifest.
    package var schema: Int
    /// The tool and version that wrote it, e.g. `splashgen 0.1.0`.
    package var generator: String
    /// The app the bundle is for.
    package var app: App
    /// The campaigns in the bundle, each with its own schedule and snapshots.
    package var campaigns: [Campaign]
    /// Set by `splashgen publish`: a number that only grows from one publication to the next, inside
    /// the signature, so a fetcher can refuse an older manifest replayed to it. Nil when unpublished.
    package var serial: Int?
    /// Set on a one-screen slice (`publish`'s `screens/<W>x<H>.json`, `pack --slice` by pixels): the
    /// screen it is for, in portrait pixels, inside the signature. A fetcher refuses a slice that is
    /// not for its own screen, however validly signed. Nil on a whole manifest.
    package var screen: Size?
    /// Set when the manifest is signed by an online key (`sign`, `pack` or `publish` with
    /// `--certificate`): the root's certificate of that key, inside the signed bytes. Readers that
    /// predate it ignore the field. Nil when the pinned key signs directly, or unsigned.
    package var certificate: KeyCertificate?
    /// Set by `splashgen publish` (`--valid-for`), inside the signature: the first instant the
    /// season no longer holds. A phone that has fetched nothing newer by then shows no campaign of
    /// it and puts the originals back (docs/reliability.md, "A pull, and how long it takes").
    /// Readers that predate it ignore it. Nil on an unpublished bundle.
    package var expires: Date?
    /// Set by `splashgen publish --withdraw` and kept by every later publication into the same tree:
    /// the campaigns pulled from it, which a publication brings back only with `--readmit`.
    package var withdrawn: [String]?
    /// Set by `publish --readmit`: the withdrawn campaigns this publication brings back on purpose
    /// (the deploy lets them over a season online that withdrew them).
    package var readmitted: [String]?

    /// The app a bundle applies to.
    package struct App: Codable, Equatable, Sendable {
        /// `CFBundleIdentifier`.
        package var bundleID: String
        /// Lowest `CFBundleShortVersionString` every campaign applies to (inclusive), if any (schema 1;
        /// since schema 2 each campaign carries its own range).
        package var minVersion: String?
        /// Highest `CFBundleShortVersionString` every campaign applies to (inclusive), if any (schema 1).
        package var maxVersion: String?
        /// The app's storyboard marker, which tells the OS's light renders from its dark ones (every
        /// manifest from schema 3 has it, or ``launchScreen``; read from the campaigns of older ones).
        package var marker: Marker?
        /// For an app whose launch screen is the Info.plist `UILaunchScreen` dictionary (no storyboard,
        /// so no marker): the background colour it draws in each appearance, which tells the OS's
        /// light renders from its dark ones (docs/ios-launch-cache.md §10). A manifest has this or
        /// ``marker``, never both; an applier that predates it finds no marker and refuses the bundle.
        package var launchScreen: LaunchScreenColors?

        private enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id", minVersion = "min_version", maxVersion = "max_version", marker
            case launchScreen = "launch_screen"
        }

        /// Makes an app description.
        package init(
            bundleID: String, minVersion: String? = nil, maxVersion: String? = nil, marker: Marker? = nil, launchScreen: LaunchScreenColors? = nil
        ) {
            self.bundleID = bundleID
            self.minVersion = minVersion
            self.maxVersion = maxVersion
            self.marker = marker
            self.launchScreen = launchScreen
        }

        /// How the OS's renders of this app tell their appearance: the `UILaunchScreen` background, or
        /// the storyboard's marker view; nil when the manifest gives neither.
        package var appearanceCue: AppearanceCue? {
            if let launchScreen, let light = RGBAColor(hex: launchScreen.light), let dark = RGBAColor(hex: launchScreen.dark) {
                return .background(light: light, dark: dark)
            }
            if let marker, let light = RGBAColor(hex: marker.light), let dark = RGBAColor(hex: marker.dark) {
                return .markerView(light: light, dark: dark)
            }
            return nil
        }
    }

    /// A `UILaunchScreen` app's background colour (its `UIColorName`, resolved) in each appearance.
    package struct LaunchScreenColors: Codable, Equatable, Sendable {
        /// `#RRGGBB` in light appearance.
        package var light: String
        /// `#RRGGBB` in dark appearance; equal to `light` when the colour has no dark variant.
        package var dark: String

        /// Makes the pair.
        package init(light: String, dark: String) {
            self.light = light
            self.dark = dark
        }

        /// A colour that is not `#RRGGBB`, if any. One colour for both appearances is allowed: the
        /// app's light and dark renders are then the same picture (docs/ios-launch-cache.md §10).
        var problem: String? {
            for (key, colour) in [("light", light), ("dark", dark)] where RGBAColor(hex: colour) == nil {
                return "\(key) \"\(colour.prefix(16))\" is not a colour as #RRGGBB"
            }
            return nil
        }
    }

    /// One campaign: when it is in force and what it shows.
    package struct Campaign: Codable, Equatable, Sendable {
        /// The campaign's name, e.g. `double11`.
        package var id: String
        /// When it starts and ends.
        package var schedule: Schedule
        /// Whether the snapshots are grey (luma only).
        package var grey: Bool
        /// How the snapshot objects are encoded.
        package var encoding: SnapshotEncoding
        /// True for the app's own launch screen as its storyboard draws it (`own_screen` in the
        /// campaign file): the applier tells a black render of the OS's by it, in force or not, and
        /// puts it where such a render would come back (docs/ios-launch-cache.md §6).
        package var ownScreen: Bool?
        /// One entry per (screen size, orientation, appearance).
        package var snapshots: [Snapshot]
        /// Of the campaigns in force at one instant, the highest priority is shown (a day of mourning
        /// outranks a sale). Two campaigns of one priority never overlap.
        package var priority: Int
        /// Lowest `CFBundleShortVersionString` the campaign applies to (inclusive), if any.
        package var minVersion: String?
        /// Highest `CFBundleShortVersionString` the campaign applies to (inclusive), if any.
        package var maxVersion: String?
        /// The share of phones that show it, in percent (0 to 100, in hundredths); nil: every phone.
        /// Each phone draws its place once and keeps it (``rollsOut(toBucket:)``). Schema 4.
        package var rollout: Double?
        /// Which phones it is for (`match:`), decided on the phone; nil: every phone. Schema 4.
        package var match: Match?

        private enum CodingKeys: String, CodingKey {
            case id, schedule, grey, encoding, snapshots, priority, rollout, match
            case minVersion = "min_version", maxVersion = "max_version", ownScreen = "own_screen"
        }

        /// Makes a campaign entry.
        package init(
            id: String, schedule: Schedule, grey: Bool, encoding: SnapshotEncoding, snapshots: [Snapshot],
            priority: Int = 0, minVersion: String? = nil, maxVersion: String? = nil, ownScreen: Bool = false, rollout: Double? = nil,
            match: Match? = nil
        ) {
            self.rollout = rollout
            self.match = match
            self.id = id
            self.ownScreen = ownScreen ? true : nil
            self.schedule = schedule
            self.grey = grey
            self.encoding = encoding
            self.snapshots = snapshots
            self.priority = priority
            self.minVersion = minVersion
            self.maxVersion = maxVersion
        }

        /// Reads a campaign; a schema 1 campaign has priority 0 and no range of its own.
        package init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            id = try keys.decode(String.self, forKey: .id)
            schedule = try keys.decode(Schedule.self, forKey: .schedule)
            grey = try keys.decode(Bool.self, forKey: .grey)
            encoding = try keys.decode(SnapshotEncoding.self, forKey: .encoding)
            snapshots = try keys.decode([Snapshot].self, forKey: .snapshots)
            priority = try keys.decodeIfPresent(Int.self, forKey: .priority) ?? 0
            minVersion = try keys.decodeIfPresent(String.self, forKey: .minVersion)
            maxVersion = try keys.decodeIfPresent(String.self, forKey: .maxVersion)
            ownScreen = try keys.decodeIfPresent(Bool.self, forKey: .ownScreen)
            rollout = try keys.decodeIfPresent(Double.self, forKey: .rollout)
            match = try keys.decodeIfPresent(Match.self, forKey: .match)
        }
    }

    /// A half-open time window `[start, end)`; with no end, in force from `start` on (the app's own
    /// launch screen, kept to repair a black render).
    package struct Schedule: Codable, Equatable, Sendable {
        /// First instant the campaign is in force.
        package var start: Date
        /// First instant it no longer is; nil when it never ends.
        package var end: Date?
        /// The UTC offset the campaign's start was written with (`+08:00`, or `Z`), to show the
        /// schedule as its author wrote it; nil in manifests made before it was recorded.
        package var offset: String?

        /// Makes a schedule.
        package init(start: Date, end: Date?, offset: String? = nil) {
            self.start = start
            self.end = end
            self.offset = offset
        }

        /// The time zone of ``offset``, when it reads.
        package var writtenTimeZone: TimeZone? {
            offset.flatMap { ScheduleTime.timeZone(of: "2000-01-01T00:00:00" + $0) }
        }

        /// Whether `date` falls in the window.
        package func contains(_ date: Date) -> Bool { start <= date && end.map { date < $0 } ?? true }

        /// Whether the two windows share an instant.
        package func overlaps(_ other: Schedule) -> Bool {
            (end.map { other.start < $0 } ?? true) && (other.end.map { start < $0 } ?? true)
        }
    }

    /// The marker: a tiny system-coloured view at the storyboard's bottom-right corner.
    package struct Marker: Codable, Equatable, Sendable {
        /// `#RRGGBB` in light appearance.
        package var light: String
        /// `#RRGGBB` in dark appearance.
        package var dark: String
        /// Side of the marker square, in pixels.
        package var size: Int

        /// Makes a marker description.
        package init(light: String, dark: String, size: Int) {
            self.light = light
            self.dark = dark
            self.size = size
        }

        /// What makes this marker one no storyboard has: a colour that is not `#RRGGBB` (which would
        /// leave every file to a luminance guess, silently), one colour for both appearances, or a
        /// size out of 1...16.
        var problem: String? {
            for (key, colour) in [("light", light), ("dark", dark)] where RGBAColor(hex: colour) == nil {
                return "\(key) \"\(colour.prefix(16))\" is not a colour as #RRGGBB"
            }
            if RGBAColor(hex: light) == RGBAColor(hex: dark) { return "light and dark are the same colour, \(light)" }
            guard (1...16).contains(size) else { return "size \(size) is out of range 1...16" }
            return nil
        }
    }

    /// One precomputed launch snapshot.
    package struct Snapshot: Codable, Equatable, Sendable {
        /// Screen size in points, portrait (width < height).
        package var points: Size
        /// `UIScreen.scale`.
        package var scale: Int
        /// The image's pixel size, as laid out for `orientation`.
        package var pixels: Size
        /// Portrait or landscape.
        package var orientation: Orientation
        /// Light or dark.
        package var appearance: Appearance
        /// `iphone` or `ipad`.
        package var family: String
        /// Catalogue names of the devices that show this snapshot.
        package var devices: [String]
        /// SHA-256 of the object's bytes, lowercase hex; its file is `objects/<object>`.
        package var object: String
        /// The object's size in bytes.
        package var bytes: Int
        /// Set by `splashgen publish`: the size of `objects/<object>.deflate`, the object as raw
        /// DEFLATE (what a phone downloads), so a fetcher knows how much to accept before inflating.
        package var deflated: Int?
        /// For the app's own screen (`own_screen`): where its image views are in this picture, in
        /// pixels (each layer's frame as drawn, possibly beyond the picture's edges). The applier
        /// tells a black render by them (`BlackRender`); nil elsewhere, and in bundles built before.
        package var imageViews: [Frame]?
        /// The BCP 47 tag of the art it draws, for a campaign with art per language; nil: the
        /// campaign's art for every other language (``Campaign/inLanguage(_:)``). Schema 4.
        package var language: String?
        /// Set on a window smaller than the screen it is on, an iPad's side layout
        /// (docs/ios-launch-cache.md §1): that screen, in portrait pixels. ``points`` is then the
        /// window as this snapshot shows it (375×1032 in landscape), and the screen's slice carries
        /// it. A manifest with one is schema 5 (``neededSchema``): an earlier applier, whose fetcher
        /// would not download it, refuses the manifest rather than stop at a missing object.
        package var screen: Size?

        private enum CodingKeys: String, CodingKey {
            case points, scale, pixels, orientation, appearance, family, devices, object, bytes, deflated, language, screen
            case imageViews = "image_views"
        }

        /// Makes a snapshot entry.
        package init(
            points: Size, scale: Int, pixels: Size, orientation: Orientation, appearance: Appearance,
            family: String, devices: [String], object: String, bytes: Int, deflated: Int? = nil, imageViews: [Frame]? = nil,
            language: String? = nil
        ) {
            self.language = language
            self.deflated = deflated
            self.imageViews = imageViews
            self.family = family
            self.points = points
            self.scale = scale
            self.pixels = pixels
            self.orientation = orientation
            self.appearance = appearance
            self.devices = devices
            self.object = object
            self.bytes = bytes
        }
    }

    /// A width and a height (``ScreenSize``).
    package typealias Size = ScreenSize

    /// The most image views an own screen's snapshot may list: each costs a pass over its frame
    /// when a black render is told, so the count bounds a run's cost.
    package static let mostImageViews = 64

    /// A rectangle in a snapshot's pixels: its top-left corner and its size.
    package struct Frame: Codable, Equatable, Sendable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int

        /// Makes a frame.
        package init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Makes a manifest, of `schema`, or by default the one its campaigns need (``neededSchema``).
    package init(schema: Int? = nil, generator: String, app: App, campaigns: [Campaign], serial: Int? = nil) {
        self.schema = schema ?? Self.schema(needed: campaigns)
        self.generator = generator
        self.app = app
        self.campaigns = campaigns
        self.serial = serial
    }

    private enum CodingKeys: String, CodingKey { case schema, generator, app, campaigns, serial, screen, certificate, expires, withdrawn, readmitted }

    /// A campaign of schema 1 or 2, as far as its marker goes.
    private struct CampaignMarker: Decodable { var marker: Marker? }

    /// Reads a manifest. Schemas 1 and 2 kept the marker in each campaign: the app's marker is theirs
    /// when they agree, and a manifest whose campaigns disagree is refused by name (the marker is the
    /// app's storyboard's, so one of them would misread the OS's renders).
    package init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        schema = try keys.decode(Int.self, forKey: .schema)
        generator = try keys.decode(String.self, forKey: .generator)
        app = try keys.decode(App.self, forKey: .app)
        campaigns = try keys.decode([Campaign].self, forKey: .campaigns)
        serial = try keys.decodeIfPresent(Int.self, forKey: .serial)
        screen = try keys.decodeIfPresent(Size.self, forKey: .screen)
        certificate = try keys.decodeIfPresent(KeyCertificate.self, forKey: .certificate)
        expires = try keys.decodeIfPresent(Date.self, forKey: .expires)
        withdrawn = try keys.decodeIfPresent([String].self, forKey: .withdrawn)
        readmitted = try keys.decodeIfPresent([String].self, forKey: .readmitted)
        if schema < 3, app.marker == nil {
            let markers = try keys.decode([CampaignMarker].self, forKey: .campaigns).compactMap(\.marker)
            if let first = markers.first, let other = markers.first(where: { $0 != first }) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: [CodingKeys.campaigns],
                        debugDescription:
                            "a schema \(schema) manifest whose campaigns give different markers (\(first.light)/\(first.dark) and \(other.light)/\(other.dark)); the marker is the app's storyboard's, one for every campaign: build the bundle again with this splashgen"
                    ))
            }
            // Read as schema 3 from here on, so that a manifest written again (a publication, a
            // slice) says the schema its shape is.
            if let marker = markers.first { (app.marker, schema) = (marker, 3) }
        }
    }
}

/// Why a manifest could not be read.
package enum ManifestError: Error, Equatable, CustomStringConvertible {
    /// The bytes are not a JSON manifest of the expected shape.
    case malformed(String)
    /// The manifest was written by a newer splashgen.
    case newerSchema(found: Int, supported: Int)

    package var description: String {
        switch self {
        case .malformed(let detail):
            return "malformed manifest: \(detail)"
        case .newerSchema(let found, let supported):
            return "manifest schema \(found) is newer than this reader understands (schema \(supported)); update splashgen or the app's applier"
        }
    }
}

extension Manifest {
    private struct SchemaProbe: Decodable { var schema: Int }

    /// Reads a manifest, refusing a schema newer than ``currentSchema`` before anything else.
    package static func decode(from data: Data) throws(ManifestError) -> Manifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let probe: SchemaProbe
        do { probe = try decoder.decode(SchemaProbe.self, from: data) } catch {
            throw .malformed(Self.explain(error))
        }
        guard probe.schema <= currentSchema else {
            throw .newerSchema(found: probe.schema, supported: currentSchema)
        }
        let manifest: Manifest
        do { manifest = try decoder.decode(Manifest.self, from: data) } catch {
            throw .malformed(Self.explain(error))
        }
        if let problem = manifest.rangeProblem { throw .malformed(problem) }
        return manifest
    }

    /// Letters, digits and hyphens in two or more dot-separated parts (at most 255 bytes): a bundle
    /// identifier, and so never a path. Campaign files, manifests and the applier all take this one.
    package static func isBundleIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.utf8.count <= 255 && parts.count >= 2
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
    }

    /// What puts a decoded manifest outside what any real bundle holds, if anything: the app id is
    /// not a bundle identifier (it names a folder), or a number is beyond every screen (so nothing
    /// computed from it can overflow or allocate without bound).
    var rangeProblem: String? {
        guard Self.isBundleIdentifier(app.bundleID) else {
            return "app.bundle_id \"\(app.bundleID)\" is not a bundle identifier"
        }
        let side = 1...Int(KTXFile.maxDimension)
        if let serial, serial < 1 { return "serial \(serial) is out of range 1...\(Int.max)" }
        if let screen, !(side.contains(screen.width) && side.contains(screen.height) && screen.width <= screen.height) {
            return "screen \(screen.width)x\(screen.height) is not a portrait size of at most \(KTXFile.maxDimension) pixels a side"
        }
        for (key, version) in [("min_version", app.minVersion), ("max_version", app.maxVersion)] {
            if let version, let problem = VersionNumber.problem(version) { return "app.\(key) \"\(version)\": \(problem)" }
        }
        if let problem = app.marker?.problem { return "app.marker: \(problem)" }
        if let problem = app.launchScreen?.problem { return "app.launch_screen: \(problem)" }
        if app.marker != nil, app.launchScreen != nil {
            return "app has both a marker (a storyboard's) and a launch_screen (a UILaunchScreen app's): an app has one launch screen"
        }
        if schema >= 3, app.marker == nil, app.launchScreen == nil { return "app.marker is missing (and no app.launch_screen)" }
        for (c, campaign) in campaigns.enumerated() {
            for (key, version) in [("min_version", campaign.minVersion), ("max_version", campaign.maxVersion)] {
                if let version, let problem = VersionNumber.problem(version) { return "campaigns[\(c)].\(key) \"\(version)\": \(problem)" }
            }
            if let end = campaign.schedule.end, end <= campaign.schedule.start { return "campaigns[\(c)].schedule ends before it starts" }
            if let rollout = campaign.rollout, !(0...100).contains(rollout) { return "campaigns[\(c)].rollout \(rollout) is out of range 0...100" }
            if let match = campaign.match {
                for (key, version) in [("min_build", match.minBuild), ("max_build", match.maxBuild), ("min_ios", match.minIOS), ("max_ios", match.maxIOS)] {
                    if let version, let problem = VersionNumber.problem(version) { return "campaigns[\(c)].match.\(key) \"\(version)\": \(problem)" }
                }
            }
            if let offset = campaign.schedule.offset, campaign.schedule.writtenTimeZone == nil {
                return "campaigns[\(c)].schedule.offset \"\(offset.prefix(16))\" is not a UTC offset such as +08:00 or Z"
            }
            for (s, snapshot) in campaign.snapshots.enumerated() {
                var at: String { "campaigns[\(c)].snapshots[\(s)]" }
                guard (1...ReadLimits.snapshotBytes).contains(snapshot.bytes) else {
                    return "\(at).bytes \(snapshot.bytes) is out of range 1...\(ReadLimits.snapshotBytes)"
                }
                if let deflated = snapshot.deflated, !(1...ReadLimits.snapshotBytes).contains(deflated) {
                    return "\(at).deflated \(deflated) is out of range 1...\(ReadLimits.snapshotBytes)"
                }
                guard (1...4).contains(snapshot.scale) else { return "\(at).scale \(snapshot.scale) is out of range 1...4" }
                guard side.contains(snapshot.pixels.width), side.contains(snapshot.pixels.height),
                    side.contains(snapshot.points.width), side.contains(snapshot.points.height)
                else {
                    return "\(at): a size beyond \(KTXFile.maxDimension) pixels on a side"
                }
                if let screen = snapshot.screen, !(side.contains(screen.width) && side.contains(screen.height)) {
                    return "\(at).screen: a size beyond \(KTXFile.maxDimension) pixels on a side"
                }
                let reach = -Int(KTXFile.maxDimension)...Int(KTXFile.maxDimension)
                if let views = snapshot.imageViews, views.count > Self.mostImageViews {
                    return "\(at).image_views: \(views.count) frames, more than the \(Self.mostImageViews) a launch screen is given"
                }
                for (v, frame) in (snapshot.imageViews ?? []).enumerated() {
                    guard side.contains(frame.width), side.contains(frame.height), reach.contains(frame.x), reach.contains(frame.y) else {
                        return "\(at).image_views[\(v)]: a frame beyond \(KTXFile.maxDimension) pixels on a side"
                    }
                }
            }
        }
        return nil
    }

    /// The manifest as canonical JSON: sorted keys, UTC dates, a final newline.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail; an empty result would be refused by every reader.
        var data = (try? encoder.encode(self)) ?? Data()
        data.append(0x0A)
        return data
    }

    private static func explain(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription + Self.path(context.codingPath)
        case DecodingError.keyNotFound(let key, let context):
            return "missing key \(key.stringValue)" + Self.path(context.codingPath)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return context.debugDescription + Self.path(context.codingPath)
        default:
            return String(describing: error)
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "" }
        let parts = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
        return " at " + String(parts.joined().drop { $0 == "." })
    }
}

extension Manifest.Snapshot {
    /// The screen in points as this snapshot shows it (width and height swapped in landscape; a
    /// window of a larger screen, ``screen``, is given as it shows).
    package var orientedPoints: Manifest.Size {
        orientation == .portrait || screen != nil ? points : Manifest.Size(width: points.height, height: points.width)
    }

    /// The screen whose slice carries this snapshot, in portrait pixels: the one it is a window of,
    /// else its own.
    package var sliceScreen: ScreenSize {
        screen.map { ScreenSize(width: $0.width, height: $0.height).portrait } ?? pixels.portrait
    }

    /// Whether points × scale is the pixel size (checked without overflow, whatever the values).
    package var pointsMatchPixels: Bool {
        let size = orientedPoints
        let width = size.width.multipliedReportingOverflow(by: scale), height = size.height.multipliedReportingOverflow(by: scale)
        return !width.overflow && !height.overflow && width.partialValue == pixels.width && height.partialValue == pixels.height
    }
}

/// A width and a height in pixels: a screen's, a snapshot's (`Manifest.Size` inside SplashFormat).
public struct ScreenSize: Codable, Equatable, Hashable, Sendable {
    /// Horizontal extent.
    public var width: Int
    /// Vertical extent.
    public var height: Int

    /// Makes a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The same size the portrait way round (the narrower side first).
    package var portrait: ScreenSize { ScreenSize(width: min(width, height), height: max(width, height)) }

    /// This screen's slice in a published tree, relative to it: `screens/1179x2556.json` (portrait
    /// pixels), the one name `publish` writes and the fetcher asks for.
    package var slicePath: String { "screens/\(portrait.width)x\(portrait.height).json" }

    /// Whether a file that records `recorded` pixels is a snapshot of this size: the same, or one
    /// pixel wider or taller with the same ASTC 4×4 block count (device-written files have been
    /// seen recording 1180 for a 1179-pixel screen, docs/ios-launch-cache.md §3).
    package func isScreen(ofRecorded recorded: ScreenSize) -> Bool {
        func same(_ screen: Int, _ file: Int) -> Bool { file == screen || (file == screen + 1 && (file + 3) / 4 == (screen + 3) / 4) }
        return same(width, recorded.width) && same(height, recorded.height)
    }
}
