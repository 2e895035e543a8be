import Foundation
import SplashFormat

/// The app's `UIUserInterfaceStyle` (Info.plist): a light-only or dark-only app needs no guess.
public enum InterfaceStyle: String, Codable, CaseIterable, Sendable {
    /// Light only: every cached file is light.
    case light
    /// Dark only: every cached file is dark.
    case dark
    /// Both, following the system (no `UIUserInterfaceStyle`, or `Automatic`).
    case automatic

    /// The style an Info.plist value names (`Light`, `Dark`, `Automatic`, or none).
    public init(infoPlistValue: String?) {
        switch infoPlistValue?.lowercased() {
        case "light": self = .light
        case "dark": self = .dark
        default: self = .automatic
        }
    }
}

/// A `UILaunchScreen` app's background colour in each appearance, as the app resolves its
/// `UIColorName` (``SnapshotApplier/launchScreenColors``). Equal colours mean the app's light and
/// dark renders are the same picture.
public struct LaunchScreenColors: Equatable, Sendable {
    /// The colour in light appearance.
    public var light: RGBAColor
    /// The colour in dark appearance.
    public var dark: RGBAColor

    /// Makes the pair.
    public init(light: RGBAColor, dark: RGBAColor) {
        self.light = light
        self.dark = dark
    }
}

/// Tells which variant each cached file is. The OS's table of which file is which lives outside the
/// container, so it is inferred, in the order the field's leader uses (docs/ios-launch-cache.md §6): the app's
/// declared interface style; else the app's cue (``AppearanceCue``): the marker view, read where the
/// 0.5 pt view lands at the file's scale, or a `UILaunchScreen` app's background colour (§10), each
/// decided only when one colour is clearly nearer; else, as a guess the report names, the light. A
/// `UILaunchScreen` background of one colour in both appearances is no cue: its light and dark
/// renders are the same picture, reported `same-picture`, never guessed. Orientation comes from the
/// pixel size, which every container declares in its header.
package struct SnapshotClassifier {
    let decoder: any SnapshotPixelDecoder
    let cue: AppearanceCue?
    let interfaceStyle: InterfaceStyle

    package struct Result {
        package var width: Int
        package var height: Int
        package var appearance: Appearance?
        package var decidedBy: Classification
        var luma: Double
    }

    /// Classifies files given as (name, bytes), the decoder sampling them together.
    package func classify(_ files: [(name: String, data: Data)]) -> [String: Result] {
        var results = unsettled(files)
        settleGuesses(&results)
        return results
    }

    /// One file: by the declared style, else by its marker (nil appearance when the marker does not
    /// decide: ``settleGuesses(_:)`` then guesses from the light of all files together).
    func classify(_ name: String, _ data: Data) -> Result {
        unsettled([(name, data)])[name] ?? Result(width: 0, height: 0, appearance: nil, decidedBy: .undecodable, luma: 0)
    }

    /// Files in memory, their guesses not settled.
    private func unsettled(_ files: [(name: String, data: Data)]) -> [String: Result] {
        classify(files.map(\.name)) { files[$0].data }
    }

    /// The files `names`, their bytes read in turn by `read` (nil: unreadable) and dropped before
    /// the next file is read; the decoder samples them together (one codec for all). Guesses are
    /// not settled.
    func classify(_ names: [String], read: (Int) -> Data?) -> [String: Result] {
        var results: [String: Result] = [:]
        // A declared style settles every file whose header gives its size; the others are sampled.
        var sampled: [Int] = []
        for index in names.indices {
            if interfaceStyle != .automatic, let size = read(index).flatMap({ try? SnapshotHeader.pixelSize(of: $0) }) {
                results[names[index]] = Result(
                    width: size.width, height: size.height, appearance: interfaceStyle == .dark ? .dark : .light,
                    decidedBy: .interfaceStyle, luma: 0)
            } else {
                sampled.append(index)
            }
        }
        var sizes = [(width: Int, height: Int)?](repeating: nil, count: sampled.count)
        let samples = decoder.samples(count: sampled.count) { position in
            guard let data = read(sampled[position]) else { throw ClassifierError.unreadable }
            sizes[position] = try? SnapshotHeader.pixelSize(of: data)
            return data
        }
        for (position, index) in sampled.enumerated() {
            let name = names[index]
            guard position < samples.count, let sample = try? samples[position].get(), sample.width > 0, sample.height > 0 else {
                results[name] = Result(
                    width: sizes[position]?.width ?? 0, height: sizes[position]?.height ?? 0, appearance: nil,
                    decidedBy: .undecodable, luma: 0)
                continue
            }
            let reading = decidedBy == .samePicture ? nil : cue?.appearance(of: sample.corner, scale: Self.scale(ofFileNamed: name))
            results[name] = Result(width: sample.width, height: sample.height, appearance: reading, decidedBy: decidedBy, luma: sample.luma)
        }
        return results
    }

    /// What a sampled file's reading is named by: the marker, the launch screen's background, or
    /// (one colour for both) the same picture, which nothing decides.
    private var decidedBy: Classification {
        switch cue {
        case .background: return cue?.isSameInBothAppearances == true ? .samePicture : .launchScreenBackground
        case .markerView, nil: return .marker
        }
    }

    /// A file the classifier was to read could not be read.
    package enum ClassifierError: Error { case unreadable }

    /// The guess for files the marker did not decide: of two undecided files of one size the darker
    /// is dark; a lone one is dark below mid-grey. Each is marked as a luminance guess. Two of one
    /// size and one light are not guessed (either guess would put one of them wrong): they stay
    /// unknown, and are left as they are.
    func settleGuesses(_ results: inout [String: Result]) {
        for (name, result) in results where result.appearance == nil && [.marker, .launchScreenBackground].contains(result.decidedBy) {
            let twins = results.filter {
                $0.key != name && $0.value.width == result.width && $0.value.height == result.height && $0.value.decidedBy != .undecodable
            }
            let darker: Bool
            if let twin = twins.first?.value, twins.count == 1 {
                guard twin.luma != result.luma else { continue }
                darker = result.luma < twin.luma
            } else {
                darker = result.luma < 0.5
            }
            results[name]?.appearance = darker ? .dark : .light
            results[name]?.decidedBy = .luminance
        }
    }

    /// The scale in an OS file name (`…@3x.ktx` → 3); 1 when it names none.
    package static func scale(ofFileNamed name: String) -> Int {
        guard let at = name.lastIndex(of: "@") else { return 1 }
        let digits = name[name.index(after: at)...].prefix { $0.isNumber }
        return Int(digits).map { min(max($0, 1), 4) } ?? 1
    }

    /// Makes one from every stored property (the memberwise initializer, which is never `package`).
    package init(decoder: any SnapshotPixelDecoder, cue: AppearanceCue? = nil, interfaceStyle: InterfaceStyle) {
        self.decoder = decoder
        self.cue = cue
        self.interfaceStyle = interfaceStyle
    }
}
