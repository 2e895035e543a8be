import Foundation

/// Tells which variant each cached file is. The OS's table of which file is which lives outside the
/// container, so it is inferred: orientation from the pixel size, appearance from the marker pixel
/// at the bottom-right, and, when the marker does not decide, from the light (said in the report).
struct SnapshotClassifier {
    let decoder: any SnapshotPixelDecoder
    let marker: Manifest.Marker?

    /// How far (largest channel difference) the corner may be from a marker colour and still count.
    static let markerTolerance = 48

    struct Result {
        var width: Int
        var height: Int
        var appearance: Appearance?
        var decidedBy: Classification
        var luma: Double
    }

    /// Classifies files given as (name, bytes); files whose marker does not decide are settled by
    /// light: of two files with the same size the darker is dark; a lone file is dark below mid-grey.
    func classify(_ files: [(name: String, data: Data)]) -> [String: Result] {
        var results: [String: Result] = [:]
        for file in files {
            guard let image = try? decoder.decode(file.data) else {
                let size = try? SnapshotHeader.pixelSize(of: file.data)
                results[file.name] = Result(width: size?.width ?? 0, height: size?.height ?? 0, appearance: nil, decidedBy: .undecodable, luma: 0)
                continue
            }
            results[file.name] = Result(width: image.width, height: image.height, appearance: markerAppearance(image),
                                        decidedBy: .marker, luma: Self.meanLuma(image))
        }
        for (name, result) in results where result.appearance == nil && result.decidedBy == .marker {
            let twins = results.filter { $0.key != name && $0.value.width == result.width && $0.value.height == result.height && $0.value.decidedBy != .undecodable }
            let darker: Bool
            if let twin = twins.first?.value, twins.count == 1, twin.luma != result.luma {
                darker = result.luma < twin.luma
            } else {
                darker = result.luma < 0.5
            }
            results[name]!.appearance = darker ? .dark : .light
            results[name]!.decidedBy = .luminance
        }
        return results
    }

    private func markerAppearance(_ image: RGBAImage) -> Appearance? {
        guard let marker, let light = RGBAColor(hex: marker.light), let dark = RGBAColor(hex: marker.dark) else { return nil }
        let corner = image[image.width - 1, image.height - 1]
        func distance(_ c: RGBAColor) -> Int {
            max(abs(Int(c.r) - Int(corner.r)), abs(Int(c.g) - Int(corner.g)), abs(Int(c.b) - Int(corner.b)))
        }
        let toLight = distance(light), toDark = distance(dark)
        if toLight <= Self.markerTolerance && toLight < toDark { return .light }
        if toDark <= Self.markerTolerance && toDark < toLight { return .dark }
        return nil
    }

    /// Mean Rec. 709 luma of the sRGB values, on a sparse grid (enough to tell light from dark).
    static func meanLuma(_ image: RGBAImage) -> Double {
        var sum = 0.0, count = 0
        let step = max(1, min(image.width, image.height) / 64)
        for y in stride(from: 0, to: image.height, by: step) {
            for x in stride(from: 0, to: image.width, by: step) {
                let c = image[x, y]
                sum += (0.2126 * Double(c.r) + 0.7152 * Double(c.g) + 0.0722 * Double(c.b)) / 255
                count += 1
            }
        }
        return count == 0 ? 0 : sum / Double(count)
    }
}
