/// How a snapshot's bottom-right corner tells light from dark: the rule the applier's classifier
/// reads files by, shared so that the build can check, before it writes anything, that its own
/// snapshots read as what they are. A storyboard's marker view is read where it lands; a
/// `UILaunchScreen` app's background over the whole corner (``AppearanceCue``).
package enum MarkerReading {
    /// The side of the storyboard's marker view, in points (a 0.5×0.5 pt view in the corner).
    package static let viewPoints = 0.5
    /// The side of the bottom-right corner a reading needs (and the sample the decoders keep): the
    /// view's pixels at any scale, the pixel beside them, and room for ASTC's 4×4 blocks.
    package static let cornerSide = 8

    /// The pixels of the bottom rows and right columns the view covers at `scale`: ⌈0.5 × scale⌉.
    package static func span(scale: Int) -> Int { Int((viewPoints * Double(scale)).rounded(.up)) }

    /// The column (in a corner `width` pixels wide) of the pixel just beside the view, which the
    /// reading takes for the colour under it.
    package static func underColumn(width: Int, scale: Int) -> Int { width - span(scale: scale) - 1 }

    /// The smallest square stamp, in pixels, that reads as the marker at every scale up to `scale`:
    /// the view's span and the pixel beside it, so that the colour "under" is the marker's own.
    package static func smallestStamp(scale: Int) -> Int { span(scale: scale) + 1 }

    /// The stamp a campaign gets unless it says otherwise: readable on every phone (@3x at most).
    package static let defaultStamp = smallestStamp(scale: 3)

    /// The appearance whose marker colour explains the bottom-right `corner` clearly better than the
    /// other's, or nil. The 0.5×0.5 pt view covers the last `0.5 × scale` pixels of the bottom rows
    /// and right columns: each pixel is predicted as the marker colour blended by its coverage with
    /// the colour just outside the view; a colour decides when its largest error is within an eighth
    /// of the distance between the two marker colours and the other's is at least half that distance.
    /// `corner` is the bottom-right corner of a snapshot (or the whole of it).
    package static func appearance(of corner: RGBAImage, scale: Int, light: RGBAColor, dark: RGBAColor) -> Appearance? {
        let side = viewPoints * Double(scale)
        let span = span(scale: scale)
        guard corner.width > span, corner.height > span else { return nil }
        let under = corner[underColumn(width: corner.width, scale: scale), corner.height - 1]
        func error(_ colour: RGBAColor) -> Double {
            var worst = 0.0
            for dy in 0..<span {
                for dx in 0..<span {
                    let coverage = min(1, side - Double(dx)) * min(1, side - Double(dy))
                    let seen = corner[corner.width - 1 - dx, corner.height - 1 - dy]
                    for (c, u, s) in [(colour.r, under.r, seen.r), (colour.g, under.g, seen.g), (colour.b, under.b, seen.b)] {
                        let predicted = Double(c) * coverage + Double(u) * (1 - coverage)
                        worst = max(worst, abs(predicted - Double(s)))
                    }
                }
            }
            return worst
        }
        return decide(toLight: error(light), toDark: error(dark), light: light, dark: dark)
    }

    /// The appearance whose background colour explains the whole bottom-right `corner` clearly better
    /// than the other's, or nil: a `UILaunchScreen` app's render, which has no marker view, is its
    /// background colour there (docs/ios-launch-cache.md §10). Each pixel is predicted as the colour
    /// itself, and a colour decides as ``appearance(of:scale:light:dark:)``'s does. Two equal colours
    /// decide nothing: the two renders are then the same picture.
    package static func appearance(ofBackground corner: RGBAImage, light: RGBAColor, dark: RGBAColor) -> Appearance? {
        guard corner.width > 0, corner.height > 0 else { return nil }
        func error(_ colour: RGBAColor) -> Double {
            var worst = 0
            for y in 0..<corner.height {
                for x in 0..<corner.width {
                    let seen = corner[x, y]
                    worst = max(worst, abs(Int(colour.r) - Int(seen.r)), abs(Int(colour.g) - Int(seen.g)), abs(Int(colour.b) - Int(seen.b)))
                }
            }
            return Double(worst)
        }
        return decide(toLight: error(light), toDark: error(dark), light: light, dark: dark)
    }

    /// The rule both readings share: a colour decides when its largest error is within an eighth of
    /// the distance between the two colours and the other's is at least half that distance.
    private static func decide(toLight: Double, toDark: Double, light: RGBAColor, dark: RGBAColor) -> Appearance? {
        let distance = Double(max(abs(Int(light.r) - Int(dark.r)), abs(Int(light.g) - Int(dark.g)), abs(Int(light.b) - Int(dark.b))))
        guard distance > 0 else { return nil }
        if toLight <= distance / 8, toDark >= distance / 2 { return .light }
        if toDark <= distance / 8, toLight >= distance / 2 { return .dark }
        return nil
    }
}

/// What the OS's renders of an app show that differs between light and dark, and so tells a cached
/// file's appearance: the storyboard's 0.5 pt marker view, or a `UILaunchScreen` app's background.
package enum AppearanceCue: Equatable, Sendable {
    /// The marker view at the storyboard's bottom-right corner, in its two colours (§6).
    case markerView(light: RGBAColor, dark: RGBAColor)
    /// The `UILaunchScreen` background colour in each appearance (§10).
    case background(light: RGBAColor, dark: RGBAColor)

    /// The appearance the bottom-right `corner` of a file of `scale` shows clearly, or nil.
    package func appearance(of corner: RGBAImage, scale: Int) -> Appearance? {
        switch self {
        case .markerView(let light, let dark): return MarkerReading.appearance(of: corner, scale: scale, light: light, dark: dark)
        case .background(let light, let dark): return MarkerReading.appearance(ofBackground: corner, light: light, dark: dark)
        }
    }

    /// Whether the two appearances look the same here: a `UILaunchScreen` background of one colour
    /// for both, or of two too close for the rule to ever decide (less than 8 apart on every
    /// channel: its margin, an eighth of the distance, is then under one step), so the app's light
    /// and dark renders are, for the applier, the same picture. A marker is never: the manifest
    /// refuses one colour for both.
    package var isSameInBothAppearances: Bool {
        guard case .background(let light, let dark) = self else { return false }
        return max(abs(Int(light.r) - Int(dark.r)), abs(Int(light.g) - Int(dark.g)), abs(Int(light.b) - Int(dark.b))) < 8
    }
}
