import Foundation
import SplashFormat

/// The devices splashgen renders for: full-screen sizes in points × scale, and approximate safe
/// areas. Shipped as data (`Resources/devices.json`); a campaign can add or override entries.
package struct DeviceCatalogue: Equatable, Sendable {
    /// Every device, in catalogue order.
    package var devices: [Device]

    /// Makes a catalogue from devices.
    package init(devices: [Device]) {
        self.devices = devices
    }

    /// The catalogue shipped with splashgen.
    package static func bundled() throws -> DeviceCatalogue {
        guard let url = Bundle.module.url(forResource: "devices", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "devices.json is missing from splashgen's resources"])
        }
        return try load(Data(contentsOf: url))
    }

    /// Reads a catalogue in the `devices.json` format.
    package static func load(_ data: Data) throws -> DeviceCatalogue {
        struct File: Decodable { var devices: [Device] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return DeviceCatalogue(devices: try decoder.decode(File.self, from: data).devices)
    }

    /// The device named `name` (case-insensitive), if any.
    package func device(named name: String) -> Device? {
        devices.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Catalogue names a mistyped `name` may mean, best first (at most three): the ones it equals or
    /// begins once case, spaces and punctuation are set aside (`iPhone15`, `iPhone SE`), otherwise
    /// the nearest by edit distance.
    package func suggestions(for name: String) -> [String] {
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
    package func unknownDeviceMessage(_ name: String) -> String {
        let suggestions = suggestions(for: name)
        let hint =
            suggestions.isEmpty
            ? "; `splashgen devices` lists the catalogue"
            : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
        return "unknown device \"\(name)\"\(hint)"
    }

    /// The catalogue with `device` replacing the entry of the same name, or appended.
    package func replacing(_ device: Device) -> DeviceCatalogue {
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
    package func select(_ selection: DeviceSelection, displayZoom: Bool = true) -> [Device] {
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
    package static func screens(of devices: [Device]) -> [Screen] {
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
