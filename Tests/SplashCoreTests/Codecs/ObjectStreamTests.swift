// Expectations: Apple's reference LZFSE encoder (pyliblzfse's `liblzfse.compress`), the encoder
// whose output equals the OS's own launch-snapshot streams (docs/ios-launch-cache.md §3): every
// object's stream must be its bytes for the same blocks; and the streams the reference wrote into
// Fixtures/snapshots (make-fixtures.py), decoded and encoded again, must come back unchanged.
import Foundation
import SplashCore
import SplashFormat
import SplashTestSupport
import Testing

@Suite struct ObjectStreamTests {
    /// The LZFSE stream of an ATX or Apple-compressed KTX file, and the blocks it holds.
    static func stream(of data: Data) throws -> (stream: Data, blocks: Data) {
        let blocks = try SnapshotHeader.astcBlocks(of: data).blocks
        switch SnapshotContent(sniffing: data) {
        case .atx:
            let payload = try ATXFile(parsing: data).payload
            guard case .lzfse(let stream) = payload else {
                Issue.record("an ATX object with raw blocks")
                return (Data(), blocks)
            }
            return (stream, blocks)
        default:
            let file = try KTXFile(parsing: data)
            #expect(file.isAppleCompressed)
            return (file.levelData.dropFirst(8), blocks)
        }
    }

    /// Every object of double11 (ATX and Apple-compressed KTX), for every screen, and of the app's
    /// own screen for a sample of screens: its stream is the reference encoder's for its blocks,
    /// byte for byte.
    @Test(arguments: ["double11 atx", "double11 ktx", "default atx"])
    func everyObjectsStreamIsTheReferenceEncodersBytes(_ bundle: String) throws {
        let built =
            switch bundle {
            case "double11 atx": try Built.double11.get()
            case "double11 ktx": try Built.double11KTX.get()
            // A sample of default.yaml's screens, from the smallest iPhone to the largest iPad (its
            // every screen was checked once, 104 objects; a whole build here would cost make test a minute).
            default:
                try BuiltBundle.build("default.yaml", devices: ["iPhone SE (3rd generation)", "iPhone 15", "iPad (10th generation)", "iPad Pro 13-inch (M5)"])
                    .get()
            }
        let names = Set(built.manifest.campaigns.flatMap { $0.snapshots.map(\.object) }).sorted()
        let objects = try names.map { try Self.stream(of: Data(contentsOf: built.report.bundle.appendingPathComponent("objects/" + $0))) }
        let reference = try ReferenceLZFSE.compress(objects.map(\.blocks))
        let differing = zip(names, zip(objects, reference)).filter { $1.0.stream != $1.1 }.map(\.0)
        #expect(differing.isEmpty, "\(differing.count) of \(names.count) objects' streams differ from the reference's, e.g. \(differing.prefix(3))")
        let ours = objects.reduce(0) { $0 + $1.stream.count }, theirs = reference.reduce(0) { $0 + ($1?.count ?? 0) }
        print("\(bundle): \(names.count) objects, streams \(ours) bytes, the reference's \(theirs)")
    }

    /// Streams Apple's reference encoder wrote, decoded and encoded again: the same bytes.
    @Test(arguments: ["atx-lzfs", "launch-lzfs", "launch-white-1179x2556", "launch-black-1179x2556", "ktx-apple"])
    func aReferenceStreamEncodedAgainIsItself(_ name: String) throws {
        let data = try Data(contentsOf: Fixtures.url("snapshots/" + name + ".ktx"))
        let (stream, blocks) = try Self.stream(of: data)
        #expect(Data(LZFSE.compress([UInt8](blocks))) == stream)
    }
}
