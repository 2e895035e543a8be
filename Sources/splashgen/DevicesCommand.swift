import ArgumentParser
import Foundation
import SplashCore

/// `splashgen devices`: the device catalogue.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device catalogue: points, scale, pixels and safe areas.")

    @Option(help: "Show the catalogue as this campaign changes and selects it.")
    var campaign: String?

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
        print("points      scale  pixels      safe area portrait (t l b r)  devices")
        for screen in screens {
            let p = screen.points, px = screen.pixels(.portrait), inset = screen.safeArea.portrait
            let size = "\(p.width)x\(p.height)".padding(toLength: 12, withPad: " ", startingAt: 0)
            let pixels = "\(px.width)x\(px.height)".padding(toLength: 12, withPad: " ", startingAt: 0)
            let safe = [inset.top, inset.left, inset.bottom, inset.right].map { String(format: "%g", $0) }.joined(separator: " ")
            print("\(size)@\(screen.scale)     \(pixels)\(safe.padding(toLength: 31, withPad: " ", startingAt: 0))\(screen.devices.map(\.name).joined(separator: ", "))")
        }
        let zoomed = screens.flatMap(\.devices).filter(\.isZoomed).count
        print("\(screens.reduce(0) { $0 + $1.devices.count }) devices (\(zoomed) of them Display Zoom screens, marked \"(Display Zoom)\"; sources in devices.json), \(screens.count) screen sizes")
    }
}
