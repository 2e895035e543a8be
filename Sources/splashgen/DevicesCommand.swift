import ArgumentParser
import Foundation
import SplashCore
import SplashFormat

/// `splashgen devices`: the device catalogue.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device catalogue: points, scale, pixels and safe areas.")

    @Option(help: "Show the catalogue as this campaign changes and selects it.")
    var campaign: String?

    @Flag(help: "Print the screens as JSON (points, scale, pixels, safe areas, devices), for scripts.")
    var json = false

    func run() throws {
        let screens: [Screen]
        do {
            let catalogue = try DeviceCatalogue.bundled()
            if let campaign {
                screens = try CampaignLoader(catalogue: catalogue).load(contentsOf: URL(fileURLWithPath: campaign), displayPath: campaign).screens
            } else {
                screens = DeviceCatalogue.screens(of: catalogue.devices)
            }
        } catch {
            throw Console.fail(error)
        }
        if json {
            print(Self.json(screens))
            return
        }
        print("points      scale  pixels      safe area portrait (t l b r)  devices")
        for screen in screens {
            let p = screen.points, px = screen.pixels(.portrait), inset = screen.safeArea.portrait
            let size = "\(p.width)x\(p.height)".padding(toLength: 12, withPad: " ", startingAt: 0)
            let pixels = "\(px.width)x\(px.height)".padding(toLength: 12, withPad: " ", startingAt: 0)
            let safe = [inset.top, inset.left, inset.bottom, inset.right].map { String(format: "%g", $0) }.joined(separator: " ")
            let names = screen.devices.map { $0.name + ($0.confidence.map { " [\($0)]" } ?? "") }.joined(separator: ", ")
            let landscape = screen.landscapePoints.map { " (landscape \($0.width)x\($0.height))" } ?? ""
            print("\(size)@\(screen.scale)     \(pixels)\(safe.padding(toLength: 31, withPad: " ", startingAt: 0))\(names)\(landscape)")
        }
        let all = screens.flatMap(\.devices)
        let zoomed = all.filter(\.isZoomed).count, windows = all.filter(\.isWindow).count
        let unsure = all.filter { $0.confidence != nil }.count
        print(
            "\(all.count) devices (\(zoomed) of them Display Zoom screens, marked \"(Display Zoom)\"; \(windows) windows an iPad caches, a side layout or an iPhone app on an iPad, docs/ios-launch-cache.md §1; \(unsure) of sizes a source gives only in part, marked [inferred] or [community]; sources in devices.json), \(screens.count) screen sizes"
        )
    }

    /// The screens as sorted-key JSON: what the table shows, one object a screen size.
    static func json(_ screens: [Screen]) -> String {
        struct Entry: Encodable {
            var points: Manifest.Size
            var scale: Int
            var pixels: Manifest.Size
            var family: String
            var safeArea: SafeAreas
            var devices: [String]
            var landscapePoints: Manifest.Size?
            var windowOf: Manifest.Size?
            var confidence: [String: String]?
            private enum CodingKeys: String, CodingKey {
                case points, scale, pixels, family, safeArea = "safe_area", devices, landscapePoints = "landscape_points", windowOf = "window_of"
                case confidence
            }
        }
        let entries = screens.map { screen in
            let unsure = Dictionary(uniqueKeysWithValues: screen.devices.compactMap { device in device.confidence.map { (device.name, $0) } })
            return Entry(
                points: screen.points, scale: screen.scale, pixels: screen.pixels(.portrait), family: screen.family.rawValue,
                safeArea: screen.safeArea, devices: screen.devices.map(\.name), landscapePoints: screen.landscapePoints, windowOf: screen.windowOf,
                confidence: unsure.isEmpty ? nil : unsure)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
