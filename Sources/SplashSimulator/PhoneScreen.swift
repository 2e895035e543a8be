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
    /// On an iPad: the screen in points an iPhone-only app is shown at (docs/ios-launch-cache.md §1).
    var iphoneApp: [Int]?
    /// On an iPad that caches side-layout windows: the window in points per orientation, as it is.
    var sideLayout: [String: [Int]]?

    private enum CodingKeys: String, CodingKey {
        case name, points, scale, insets
        case zoomOf = "zoom_of", iphoneApp = "iphone_app", sideLayout = "side_layout"
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

    /// The screen an iPhone-only app is shown at on this iPad: its points at the iPad's scale, with
    /// a status bar's inset, and nothing else of the iPad (no side layout).
    func asIPhoneApp() throws(SimulatorError) -> PhoneScreen {
        guard let size = iphoneApp, size.count == 2 else { throw .rejected("\(name) shows no iPhone app (it is not an iPad the simulator knows one for)") }
        return PhoneScreen(name: name, points: size, scale: scale, insets: ["portrait": [20, 0, 0, 0], "landscape": [0, 0, 0, 0]])
    }

    /// Width and height in points for an orientation (landscape swaps them), or of the side-layout
    /// window in it (as the window is).
    func size(_ orientation: Orientation, window: SpringBoardModel.Window? = nil) -> (width: Int, height: Int) {
        if window == .side, let side = sideLayout?[orientation.rawValue], side.count == 2 { return (side[0], side[1]) }
        return orientation == .landscape ? (points[1], points[0]) : (points[0], points[1])
    }

    /// Width and height in pixels of a snapshot: points × scale.
    func pixels(_ orientation: Orientation, window: SpringBoardModel.Window? = nil) -> (width: Int, height: Int) {
        let size = size(orientation, window: window)
        return (size.width * scale, size.height * scale)
    }

    /// The safe-area insets in points for an orientation.
    func safeArea(_ orientation: Orientation) -> (top: Double, left: Double, bottom: Double, right: Double) {
        let values = insets[orientation.rawValue] ?? []
        guard values.count == 4 else { return (0, 0, 0, 0) }
        return (values[0], values[1], values[2], values[3])
    }
}
