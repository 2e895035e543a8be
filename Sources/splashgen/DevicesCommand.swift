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
            print(
                "\(size)@\(screen.scale)     \(pixels)\(safe.padding(toLength: 31, withPad: " ", startingAt: 0))\(screen.devices.map(\.name).joined(separator: ", "))"
            )
        }
        let zoomed = screens.flatMap(\.devices).filter(\.isZoomed).count
        print(
            "\(screens.reduce(0) { $0 + $1.devices.count }) devices (\(zoomed) of them Display Zoom screens, marked \"(Display Zoom)\"; sources in devices.json), \(screens.count) screen sizes"
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
            private enum CodingKeys: String, CodingKey { case points, scale, pixels, family, safeArea = "safe_area", devices }
        }
        let entries = screens.map {
            Entry(
                points: $0.points, scale: $0.scale, pixels: $0.pixels(.portrait), family: $0.family.rawValue,
                safeArea: $0.safeArea, devices: $0.devices.map(\.name))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
