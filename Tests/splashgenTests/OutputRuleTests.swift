import Foundation
import SplashFormat
import SplashTestSupport
import Testing

/// The one rule for every output path (never an input, never inside one, never over what the
/// command did not make) and the one lock for every command that writes a tree, each from a case of
/// the third hostile round (issue 27), whose expectation is written there.
@Suite struct OutputRuleTests {
    let cli = CommandLineTests()

    /// N3: `unpack` into a folder it did not make, or onto a file, is refused by name and leaves it
    /// as it was; into a new folder, or over a bundle it unpacked, it works.
    @Test func unpackReplacesOnlyAFolderItMade() throws {
        let folder = cli.temporaryFolder()
        let archive = folder.appendingPathComponent("b.zip").path
        #expect(try cli.splashgen("pack", try cli.smallBundle(in: folder).path, "-o", archive).status == 0)
        let keep = folder.appendingPathComponent("keep")
        try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
        try Data("thesis".utf8).write(to: keep.appendingPathComponent("thesis.txt"))
        let refused = try cli.splashgen("unpack", archive, "-o", keep.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(keep.path) exists and is not an empty folder or a bundle splashgen wrote"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: keep.path) == ["thesis.txt"])
        let file = folder.appendingPathComponent("notes.txt")
        try Data("notes".utf8).write(to: file)
        #expect(try cli.splashgen("unpack", archive, "-o", file.path).status == 1)
        #expect(try String(contentsOf: file, encoding: .utf8) == "notes")
        let fresh = folder.appendingPathComponent("fresh").path
        #expect(try cli.splashgen("unpack", archive, "-o", fresh).status == 0)
        #expect(try cli.splashgen("unpack", archive, "-o", fresh).status == 0, "a bundle unpack wrote is replaced")
        #expect(try cli.splashgen("verify", fresh).status == 0)
    }

    /// N4: a campaign named `docs`, built with `-o .`, must not replace `./docs` (a `.git` inside).
    @Test func buildReplacesOnlyABundleItWrote() throws {
        let folder = cli.temporaryFolder()
        let git = folder.appendingPathComponent("Output/docs/.git")
        try FileManager.default.createDirectory(at: git, withIntermediateDirectories: true)
        try Data("ref: refs/heads/main\n".utf8).write(to: git.appendingPathComponent("HEAD"))
        let campaign = folder.appendingPathComponent("docs.yaml")
        try Data(
            try String(contentsOf: CommandLineTests.repo.appendingPathComponent("campaigns/default.yaml"), encoding: .utf8)
                .replacingOccurrences(of: "name: default", with: "name: docs")
                .replacingOccurrences(of: "art/", with: CommandLineTests.repo.path + "/campaigns/art/").utf8
        ).write(to: campaign)
        let run = try cli.splashgen("build", campaign.path, "-o", folder.appendingPathComponent("Output").path)
        #expect(run.status == 1)
        #expect(run.stderr.contains("Output/docs exists and is not an empty folder or a bundle splashgen wrote"), "\(run.stderr)")
        #expect(try String(contentsOf: git.appendingPathComponent("HEAD"), encoding: .utf8) == "ref: refs/heads/main\n")
    }

    /// N6: `keygen -o K` with `K.pub` there (and `K` absent) leaves the public key as it is.
    @Test func keygenNeverOverwritesAPublicKey() throws {
        let folder = cli.temporaryFolder()
        let pub = folder.appendingPathComponent("K.pub")
        try Data("pinned".utf8).write(to: pub)
        let run = try cli.splashgen("keygen", "-o", folder.appendingPathComponent("K").path)
        #expect(run.status != 0)
        #expect(run.stderr.contains("K.pub exists; keygen never overwrites a key"), "\(run.stderr)")
        #expect(try String(contentsOf: pub, encoding: .utf8) == "pinned")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("K").path))
    }

    /// N7: `decode OBJ -o OBJ` and `pack B -o B/manifest.json` would overwrite their own input: refused,
    /// and the bundle still verifies.
    @Test func anOutputThatIsAnInputOrInsideOneIsRefused() throws {
        let bundle = try cli.smallBundle(in: cli.temporaryFolder())
        let object = try #require(try FileManager.default.contentsOfDirectory(atPath: bundle.path + "/objects").first)
        let path = bundle.path + "/objects/" + object
        let decode = try cli.splashgen("decode", path, "-o", path)
        #expect(decode.status == 1)
        #expect(decode.stderr == "error: \(path) is this command's input; write the output somewhere else\n")
        let pack = try cli.splashgen("pack", bundle.path, "-o", bundle.path + "/manifest.json")
        #expect(pack.status == 1)
        #expect(pack.stderr.contains("\(bundle.path)/manifest.json is inside \(bundle.path), this command's input"), "\(pack.stderr)")
        let preview = try cli.splashgen("preview", bundle.path, "-o", bundle.path + "/page.html")
        #expect(preview.status == 1)
        #expect(try cli.splashgen("verify", bundle.path).status == 0)
    }

    /// N12: a damaged object in the build cache is never reused: the bundle built over it verifies.
    @Test func aDamagedCacheObjectIsNeverReused() throws {
        let folder = cli.temporaryFolder()
        let bundle = try cli.smallBundle(in: folder)
        let cached = folder.appendingPathComponent("Output/.cache/objects")
        for name in try FileManager.default.contentsOfDirectory(atPath: cached.path) {
            let url = cached.appendingPathComponent(name)
            var bytes = [UInt8](try Data(contentsOf: url))
            bytes[bytes.count / 2] ^= 0xFF
            try FileManager.default.removeItem(at: url)  // a new inode: the built bundle's hard link keeps its bytes
            try Data(bytes).write(to: url)
        }
        _ = try cli.smallBundle(in: folder)
        let verify = try cli.splashgen("verify", bundle.path)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// N5: two `publish`es into one tree at once both succeed, one after the other: their serials
    /// differ, and the tree's manifest carries the greater.
    @Test func twoPublishesIntoOneTreeTakeTurnsAndTakeDifferentSerials() throws {
        let folder = cli.temporaryFolder()
        let bundle = try cli.smallBundle(in: folder)
        let key = folder.appendingPathComponent("key").path
        #expect(try cli.splashgen("keygen", "-o", key).status == 0)
        let tree = folder.appendingPathComponent("tree").path
        let runs = Locked<[ProcessRun]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let run = try? runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["SOURCE_DATE_EPOCH=1800000000", CommandLineTests.binary.path, "publish", bundle.path, "-o", tree, "--key", key])
            {
                runs.withLock { $0.append(run) }
            }
        }
        let done = runs.withLock { $0 }
        #expect(done.count == 2 && done.allSatisfy { $0.status == 0 }, "\(done.map(\.stderr))")
        let serials = done.compactMap { run in run.stdout.range(of: "serial ").flatMap { Int(run.stdout[$0.upperBound...].prefix { $0.isNumber }) } }
        #expect(Set(serials) == [1_800_000_000, 1_800_000_001], "\(serials)")
        let manifest = try Manifest.decode(from: Data(contentsOf: URL(fileURLWithPath: tree + "/manifest.json")))
        #expect(manifest.serial == 1_800_000_001)
    }

    /// N13 on the command line: a raw payload whose block order cannot be told makes `decode` refuse
    /// (exit 1, no PNG written) and `inspect` say so.
    @Test func decodeRefusesToGuessABlockOrder() throws {
        let folder = cli.temporaryFolder()
        var blocks = Data()
        for index in 0..<(384 * 512) {
            let word = withUnsafeBytes(of: UInt32(index).littleEndian) { Array($0) }
            blocks += word + word + word + word
        }
        let file = folder.appendingPathComponent("A@2x.ktx")
        try ATXFile(head: ATXFile.launchHead(width: 1536, height: 2048), rowOrderBlocks: blocks, tag: "ASTC").serialized().write(to: file)
        let png = folder.appendingPathComponent("out.png")
        let decode = try cli.splashgen("decode", file.path, "-o", png.path)
        #expect(decode.status == 1)
        #expect(decode.stderr.contains("block order cannot be told") && decode.stderr.contains("refusing to guess"), "\(decode.stderr)")
        #expect(!FileManager.default.fileExists(atPath: png.path))
        let inspect = try cli.splashgen("inspect", file.path)
        #expect(inspect.stdout.contains("raw blocks in an order that cannot be told"), "\(inspect.stdout)")
    }
}
