import Foundation
import SplashApplier
import SplashFormat

/// A simulated phone's screen: points, `UIScreen.scale` and safe-area insets, from the simulator's
/// own data (`Resources/screens.json`), never from the generator's catalogue, so that the two can
/// disagree.
struct PhoneScreen: Decodable, Sendable {
    /// The model's name, as `splashgen devices` and the campaign files spell it.
    var name: String
    /// Portrait width and height in points.
    var points: [Int]
    /// `UIScreen.scale`.
    var scale: Int
    /// Safe-area insets in points, `[top, left, bottom, right]`, by orientation.
    var insets: [String: [Double]]
    /// For a Display Zoom screen, the model it is the zoomed screen of.
    var zoomOf: String?

    private enum CodingKeys: String, CodingKey {
        case name, points, scale, insets
        case zoomOf = "zoom_of"
    }

    /// Every screen the simulator knows.
    static let all: [PhoneScreen] = {
        struct File: Decodable { var screens: [PhoneScreen] }
        guard let url = Bundle.module.url(forResource: "screens", withExtension: "json"), let data = try? Data(contentsOf: url),
            let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.screens.filter { $0.points.count == 2 && $0.scale > 0 }
    }()

    /// The screen of the model named `name` (case-insensitive).
    static func named(_ name: String) throws(SimulatorError) -> PhoneScreen {
        guard let screen = all.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
            throw .unknownDevice(name)
        }
        return screen
    }

    /// The Display Zoom screen of this model.
    func zoomed() throws(SimulatorError) -> PhoneScreen {
        guard let zoomed = Self.all.first(where: { $0.zoomOf?.caseInsensitiveCompare(name) == .orderedSame }) else {
            throw .noDisplayZoom(name)
        }
        return zoomed
    }

    /// Width and height in points for an orientation (landscape swaps them).
    func size(_ orientation: Orientation) -> (width: Int, height: Int) {
        orientation == .landscape ? (points[1], points[0]) : (points[0], points[1])
    }

    /// Width and height in pixels of a snapshot: points × scale.
    func pixels(_ orientation: Orientation) -> (width: Int, height: Int) {
        let size = size(orientation)
        return (size.width * scale, size.height * scale)
    }

    /// The safe-area insets in points for an orientation.
    func safeArea(_ orientation: Orientation) -> (top: Double, left: Double, bottom: Double, right: Double) {
        let values = insets[orientation.rawValue] ?? []
        guard values.count == 4 else { return (0, 0, 0, 0) }
        return (values[0], values[1], values[2], values[3])
    }
}
