import Foundation
import SplashFormat

/// The devices splashgen renders for: full-screen sizes in points × scale, and approximate safe
/// areas. Shipped as data (`Resources/devices.json`); a campaign can add or override entries.
public struct DeviceCatalogue: Equatable, Sendable {
    /// Every device, in catalogue order.
    public var devices: [Device]

    /// Makes a catalogue from devices.
    public init(devices: [Device]) {
        self.devices = devices
    }

    /// The catalogue shipped with splashgen.
    public static func bundled() throws -> DeviceCatalogue {
        guard let url = Bundle.module.url(forResource: "devices", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "devices.json is missing from splashgen's resources"])
        }
        return try load(Data(contentsOf: url))
    }

    /// Reads a catalogue in the `devices.json` format.
    public static func load(_ data: Data) throws -> DeviceCatalogue {
        struct File: Decodable { var devices: [Device] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return DeviceCatalogue(devices: try decoder.decode(File.self, from: data).devices)
    }

    /// The device named `name` (case-insensitive), if any.
    public func device(named name: String) -> Device? {
        devices.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Catalogue names a mistyped `name` may mean, best first (at most three): the ones it equals or
    /// begins once case, spaces and punctuation are set aside (`iPhone15`, `iPhone SE`), otherwise
    /// the nearest by edit distance.
    public func suggestions(for name: String) -> [String] {
        func folded(_ text: String) -> String { String(text.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let word = folded(name)
        guard !word.isEmpty else { return [] }
        let names = devices.map(\.name)
        let exact = names.filter { folded($0) == word }
        if !exact.isEmpty { return Array(exact.prefix(3)) }
        let prefixed = names.filter { folded($0).hasPrefix(word) }.sorted { $0.count < $1.count }
        if !prefixed.isEmpty { return Array(prefixed.prefix(3)) }
        let scored = names.map { ($0, editDistance(folded($0), word)) }.filter { $0.1 <= max(2, word.count / 3) }
        return Array(scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0).prefix(3))
    }

    /// `unknown device "NAME"; did you mean …?`, or a pointer to the catalogue.
    public func unknownDeviceMessage(_ name: String) -> String {
        let suggestions = suggestions(for: name)
        let hint =
            suggestions.isEmpty
            ? "; `splashgen devices` lists the catalogue"
            : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
        return "unknown device \"\(name)\"\(hint)"
    }

    /// The catalogue with `device` replacing the entry of the same name, or appended.
    public func replacing(_ device: Device) -> DeviceCatalogue {
        var copy = self
        if let index = copy.devices.firstIndex(where: { $0.name.caseInsensitiveCompare(device.name) == .orderedSame }) {
            copy.devices[index] = device
        } else {
            copy.devices.append(device)
        }
        return copy
    }

    /// The devices a selection names, in catalogue order, without repeats. A named device brings its
    /// Display Zoom entry along (its users may have zoom on); `displayZoom: false` leaves every
    /// zoomed entry out.
    public func select(_ selection: DeviceSelection, displayZoom: Bool = true) -> [Device] {
        func named(_ device: Device, _ name: String) -> Bool {
            device.name.caseInsensitiveCompare(name) == .orderedSame
                || device.displayZoomOf.map { $0.caseInsensitiveCompare(name) == .orderedSame } == true
        }
        let chosen: [Device]
        switch selection {
        case .all:
            chosen = devices
        case .some(let selectors):
            chosen = devices.filter { device in
                selectors.contains { selector in
                    switch selector {
                    case .family(let family): return device.family == family
                    case .named(let name): return named(device, name)
                    }
                }
            }
        }
        return displayZoom ? chosen : chosen.filter { !$0.isZoomed }
    }

    /// Devices grouped by screen (points and scale): each group shares one set of snapshots.
    /// Ordered by family, then pixel count, so output order is stable.
    public static func screens(of devices: [Device]) -> [Screen] {
        var groups: [ScreenKey: [Device]] = [:]
        var order: [ScreenKey] = []
        for device in devices {
            let key = ScreenKey(points: device.points, scale: device.scale)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(device)
        }
        return order.map { key in Screen(points: key.points, scale: key.scale, devices: groups[key]!) }
            .sorted { ($0.family.rawValue, $0.pixelCount, $0.points.width) < ($1.family.rawValue, $1.pixelCount, $1.points.width) }
    }

    private func editDistance(_ a: String, _ b: String) -> Int { YAMLReader.editDistance(a, b) }

    private struct ScreenKey: Hashable {
        var points: Manifest.Size
        var scale: Int
    }
}

/// Safe-area insets for both orientations.
public struct SafeAreas: Codable, Equatable, Hashable, Sendable {
    /// Insets in portrait.
    public var portrait: Insets
    /// Insets in landscape.
    public var landscape: Insets

    /// Makes safe areas.
    public init(portrait: Insets = Insets(), landscape: Insets = Insets()) {
        self.portrait = portrait
        self.landscape = landscape
    }

    /// The insets for one orientation.
    public subscript(orientation: Orientation) -> Insets {
        orientation == .portrait ? portrait : landscape
    }
}

/// Edge insets in points.
public struct Insets: Codable, Equatable, Hashable, Sendable {
    /// Top inset.
    public var top: Double = 0
    /// Left inset.
    public var left: Double = 0
    /// Bottom inset.
    public var bottom: Double = 0
    /// Right inset.
    public var right: Double = 0

    /// Makes insets.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The larger of each edge: art kept clear of both is clear on every device of a screen.
    public func union(_ other: Insets) -> Insets {
        Insets(top: max(top, other.top), left: max(left, other.left), bottom: max(bottom, other.bottom), right: max(right, other.right))
    }
}

/// Which devices a campaign renders for.
public enum DeviceSelection: Equatable, Sendable {
    /// The whole catalogue.
    case all
    /// Families and names.
    case some([DeviceSelector])
}

/// One item of a device list.
public enum DeviceSelector: Equatable, Sendable {
    /// Every device of a family.
    case family(DeviceFamily)
    /// One catalogue entry.
    case named(String)
}

/// A screen size shared by one or more devices: the unit splashgen renders.
public struct Screen: Equatable, Sendable {
    /// Size in points, portrait.
    public var points: Manifest.Size
    /// `UIScreen.scale`.
    public var scale: Int
    /// The devices with this screen.
    public var devices: [Device]

    /// The family of the first device (a screen size is never shared across families).
    public var family: DeviceFamily { devices[0].family }
    /// Pixels in one snapshot.
    public var pixelCount: Int { points.width * points.height * scale * scale }
    /// Insets that keep art clear on every device of the screen.
    public var safeArea: SafeAreas {
        devices.dropFirst().reduce(devices[0].safeArea) { sum, device in
            SafeAreas(portrait: sum.portrait.union(device.safeArea.portrait), landscape: sum.landscape.union(device.safeArea.landscape))
        }
    }

    /// The snapshot's pixel size for an orientation.
    public func pixels(_ orientation: Orientation) -> Manifest.Size {
        let w = points.width * scale, h = points.height * scale
        return orientation == .portrait ? Manifest.Size(width: w, height: h) : Manifest.Size(width: h, height: w)
    }
}
