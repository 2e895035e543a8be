// What each target does with an input: the parser, then what follows a successful parse, bounded so
// that no input is slow. An invariant broken after a parse that succeeded is a crash (precondition).

import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashImaging

extension FuzzTarget {
    /// Bytes of ASTC blocks up to which a parsed KTX or ATX is also inflated and sampled as the
    /// applier samples it: 4 MiB, a little over a 1179×2556 phone screen (3 MiB).
    static let sampledBlockBytes = 4 << 20
    /// Pixels up to which a PNG is also decoded whole (libpng), as a snapshot object would be.
    static let decodedPNGPixels = 256 * 256
    /// Output bytes an LZFSE stream may declare, and up to which a decoded stream is compressed again.
    static let lzfseLimit = 1 << 20
    static let lzfseRoundTripBytes = 64 << 10

    /// Makes what the target shares between inputs.
    func prepare() {
        switch self {
        case .state: _ = Scratch.paths
        case .yaml: _ = Scratch.loader
        case .slice: _ = Scratch.sliceKey
        default: break
        }
    }

    /// Runs the target on one input.
    func run(_ data: Data) {
        switch self {
        case .atx: Self.snapshot(data, parse: { data throws(SnapshotFormatError) in _ = try ATXFile(parsing: data) })
        case .ktx: Self.snapshot(data, parse: { data throws(SnapshotFormatError) in _ = try KTXFile(parsing: data) })
        case .lzfse: Self.lzfse(data)
        case .lzfseEncode: Self.lzfseEncode(data)
        case .png: Self.png(data)
        case .manifest: Self.manifest(data)
        case .slice: Self.slice(data)
        case .state: Self.state(data)
        case .yaml: Self.yaml(data)
        }
    }

    /// A KTX or ATX file: parsed whole, its header read alone, then (when small enough) its blocks
    /// inflated and sampled through astcenc.
    private static func snapshot(_ data: Data, parse: (Data) throws(SnapshotFormatError) -> Void) {
        guard (try? parse(data)) != nil else { return }
        guard let size = try? SnapshotHeader.pixelSize(of: data) else { preconditionFailure("parsed, but its header is refused") }
        guard KTXFile.astc4x4ByteCount(width: size.width, height: size.height) <= sampledBlockBytes else { return }
        if let blocks = try? SnapshotHeader.astcBlocks(of: data) {
            precondition(blocks.width == size.width && blocks.height == size.height, "the blocks' size is not the header's")
            precondition(blocks.blocks.count == KTXFile.astc4x4ByteCount(width: size.width, height: size.height), "wrong block byte count")
        }
        if let sample = try? SnapshotDecoder().sample(data) {
            precondition(sample.width == size.width && sample.height == size.height, "the sample's size is not the header's")
        }
    }

    /// An LZFSE stream: its framing listed, decoded within a limit, and a small output encoded and
    /// decoded again to the same bytes.
    private static func lzfse(_ data: Data) {
        let input = [UInt8](data)
        _ = LZFSE.blockKinds(input)
        guard let output = try? LZFSE.decompress(input, limit: lzfseLimit) else { return }
        precondition(output.count <= lzfseLimit, "decoded past the limit")
        guard output.count <= lzfseRoundTripBytes else { return }
        let again = try? LZFSE.decompress(LZFSE.compress(output), limit: output.count)
        precondition(again == output, "compress then decompress changed the bytes")
    }

    /// Any bytes: encoded by splashgen's LZFSE encoder, which must write a stream that decodes to
    /// them. With SPLASHFUZZ_WRITE set (scripts/fuzz.sh, after the run), the stream is also written
    /// there as `<SHA-256 of the input>.lzfse`, for Apple's reference (pyliblzfse) to decode and to
    /// write again: scripts/fuzz-lzfse-reference.py.
    private static func lzfseEncode(_ data: Data) {
        let input = [UInt8](data)
        let stream = LZFSEEncoder.encode(input)
        let decoded = try? LZFSE.decompress(stream, limit: input.count)
        precondition(decoded == input, "the encoder's stream does not decode to its input")
        if let folder = ProcessInfo.processInfo.environment["SPLASHFUZZ_WRITE"] {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(sha256Hex(data) + ".lzfse")
            precondition((try? Data(stream).write(to: url)) != nil, "cannot write \(url.path)")
        }
    }

    /// A PNG: the IHDR read, the pixel size every reader takes, and a small image decoded whole.
    private static func png(_ data: Data) {
        guard let header = PNGHeader(data) else { return }
        guard let size = try? SnapshotHeader.pixelSize(of: data) else { return }
        precondition(size.width == Int(header.width) && size.height == Int(header.height), "pixel size is not the IHDR's")
        guard size.width * size.height <= decodedPNGPixels, let image = try? PNGCodec.decode(data, maxPixels: decodedPNGPixels) else { return }
        precondition(image.width == size.width && image.height == size.height, "decoded size is not the IHDR's")
    }

    /// A bundle's manifest.json: decoded, then written as canonical JSON, which must read back equal.
    private static func manifest(_ data: Data) {
        guard let manifest = try? Manifest.decode(from: data) else { return }
        let again = Result { () throws(ManifestError) in try Manifest.decode(from: manifest.encoded()) }
        precondition((try? again.get()) == manifest, "the canonical encoding does not read back equal: \(again)")
    }

    /// A published screen slice as the fetcher takes it: the input's first line is its signature
    /// file's text, the rest the slice; the signature is checked against a pinned key, the slice
    /// decoded, and the fetcher's checks on what it names run.
    private static func slice(_ data: Data) {
        let newline = data.firstIndex(of: 0x0A) ?? data.endIndex
        let signature = String(decoding: data[..<newline], as: UTF8.self)
        let body = Data(data[newline...].dropFirst())
        _ = try? BundleSignature.check(body, signature: signature, root: Scratch.sliceKey, at: Date())
        guard let manifest = try? Manifest.decode(from: body) else { return }
        _ = ApplierPaths.isBundleIdentifier(manifest.app.bundleID)
        let screen = Manifest.Size(width: 1179, height: 2556)
        for snapshot in manifest.campaigns.flatMap(\.snapshots)
        where snapshot.pixels == screen || snapshot.pixels == Manifest.Size(width: screen.height, height: screen.width) {
            _ = isObjectName(snapshot.object)
            _ = SnapshotBundle.check(snapshot, data: nil)
        }
    }

    /// The applier's state.json: written where the applier keeps it and loaded as a run loads it,
    /// with the checks that decide whether it is trusted; a trusted one is asked whether it is settled.
    private static func state(_ data: Data) {
        let paths = Scratch.paths
        guard (try? data.write(to: paths.stateURL)) != nil else { preconditionFailure("cannot write \(paths.stateURL.path)") }
        let (state, problem) = ApplierState.load(paths)
        guard let state else {
            precondition(problem != nil, "a state refused without a reason")
            return
        }
        _ = state.isSettled(for: state.key, manifestStamp: state.manifestStamp, at: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// A campaign file's text, loaded against the bundled device catalogue; its image paths are
    /// relative to a folder that holds `logo.png`.
    private static func yaml(_ data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return }
        guard let campaign = try? Scratch.loader.load(yaml: text, file: "fuzz.yaml", baseDirectory: Scratch.folder) else { return }
        precondition(!campaign.screens.isEmpty && !campaign.appearances.isEmpty, "a campaign with nothing to render")
    }
}

/// What the targets share: made once, in a scratch folder of their own.
private enum Scratch {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashfuzz-\(getpid())")
        let support = url.appendingPathComponent("container/" + ApplierPaths.support)
        guard (try? FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)) != nil,
            FileManager.default.createFile(atPath: url.appendingPathComponent("logo.png").path, contents: Data())
        else { preconditionFailure("cannot make the scratch folder \(url.path)") }
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return url
    }()

    /// The container the state target's files go in, for the app whose state the corpus holds.
    static let paths: ApplierPaths = {
        guard
            let paths = try? ApplierPaths(
                container: folder.appendingPathComponent("container"), bundleID: "com.example.shop", os: OSVersion(major: 17))
        else { preconditionFailure("no applier paths") }
        return paths
    }()

    /// The campaign loader over the bundled catalogue.
    static let loader: CampaignLoader = {
        guard let catalogue = try? DeviceCatalogue.bundled() else { preconditionFailure("no bundled device catalogue") }
        _ = folder
        return CampaignLoader(catalogue: catalogue)
    }()

    /// The public key the slice corpus is signed with (Fuzz/make-corpus.sh).
    static let sliceKey: Data = {
        guard let key = try? BundleSignature.publicKey("ed25519-public 9vJ36xFvdH3xJTi0vOiy6ornJJHceOX+JO2yrKVWP+w=") else {
            preconditionFailure("the pinned key does not read")
        }
        return key
    }()
}
