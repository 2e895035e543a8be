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
    /// zoomed entry out. The windows an iPad caches (docs/ios-launch-cache.md §1) come as the app
    /// makes them: an iPad brings its side-layout windows unless the app requires full screen
    /// (`sideLayout: false`); an iPhone-only app (`iphoneOnly`) gets no iPad, and its iPhones bring
    /// the screens an iPhone app is shown at on an iPad. A window named on its own is taken as named.
    package func select(_ selection: DeviceSelection, displayZoom: Bool = true, sideLayout: Bool = true, iphoneOnly: Bool = false) -> [Device] {
        func named(_ device: Device, _ name: String) -> Bool {
            device.name.caseInsensitiveCompare(name) == .orderedSame
                || device.displayZoomOf.map { $0.caseInsensitiveCompare(name) == .orderedSame } == true
        }
        func selected(_ device: Device) -> Bool {
            switch selection {
            case .all: return !device.isWindow
            case .some(let selectors):
                return selectors.contains { selector in
                    switch selector {
                    case .family(let family): return device.family == family && !device.isWindow
                    case .named(let name): return named(device, name)
                    }
                }
            }
        }
        let base = devices.filter(selected).filter { !iphoneOnly || $0.family == .iphone }
        let names = Set(base.map { $0.name.lowercased() })
        let anIPhone = base.contains { $0.family == .iphone && !$0.isWindow }
        let chosen = devices.filter { device in
            if names.contains(device.name.lowercased()) { return true }
            if let window = device.windowOf { return sideLayout && !iphoneOnly && names.contains(window.device.lowercased()) }
            if device.iphoneAppOnIpad == true { return iphoneOnly && anIPhone }
            return false
        }
        return displayZoom ? chosen : chosen.filter { !$0.isZoomed }
    }

    /// Devices grouped by screen (points and scale): each group shares one set of snapshots.
    /// Ordered by family, then pixel count, so output order is stable.
    package static func screens(of devices: [Device]) -> [Screen] {
        var groups: [ScreenKey: [Device]] = [:]
        var order: [ScreenKey] = []
        for device in devices {
            let key = ScreenKey(points: device.points, scale: device.scale, landscapePoints: device.landscapePoints, windowOf: device.windowOf?.pixels)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(device)
        }
        return order.map { key in
            Screen(points: key.points, scale: key.scale, devices: groups[key]!, landscapePoints: key.landscapePoints, windowOf: key.windowOf)
        }
        .sorted { ($0.family.rawValue, $0.pixelCount, $0.points.width) < ($1.family.rawValue, $1.pixelCount, $1.points.width) }
    }

    private func editDistance(_ a: String, _ b: String) -> Int { YAMLReader.editDistance(a, b) }

    private struct ScreenKey: Hashable {
        var points: Manifest.Size
        var scale: Int
        var landscapePoints: Manifest.Size?
        var windowOf: Manifest.Size?
    }
}
