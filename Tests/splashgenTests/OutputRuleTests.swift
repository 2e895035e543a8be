import Foundation
import SplashFormat
import SplashTestSupport
import Testing

/// The one rule for every output path (never an input, never inside one, never over what the
/// command did not make) and the one lock for every command that writes a tree, each from a case of
/// the third and fourth hostile rounds (issues 27 and 36), whose expectation is written there: a
/// folder is a bundle this tool made only when it holds nothing else, a path is resolved once (as
/// the kernel walks it) and the resolved path is checked and written, and nothing is deleted or
/// written over that the command did not make.
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
        let (bundle, key) = try bundleAndKey(in: folder)
        let tree = folder.appendingPathComponent("tree").path
        let runs = Locked<[ProcessRun]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let run = try? runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["SOURCE_DATE_EPOCH=1800000000", CommandLineTests.binary.path, "publish", bundle.path, "-o", tree, "--signing-key", key])
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

    /// A small bundle built in `folder` and a key made beside it (`folder/key`).
    func bundleAndKey(in folder: URL) throws -> (bundle: URL, key: String) {
        let bundle = try cli.smallBundle(in: folder)
        let key = folder.appendingPathComponent("key").path
        #expect(try cli.splashgen("keygen", "-o", key).status == 0)
        return (bundle, key)
    }

    /// Every file below `root` with its bytes (links as `-> target`), to show a refused command left
    /// a folder exactly as it was.
    func files(_ root: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? FileManager.DirectoryEnumerator() {
            let url = root.appendingPathComponent(path)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                found[path] = Data("-> \(target)".utf8)
                continue
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue { found[path] = try Data(contentsOf: url) }
        }
        return found
    }

    /// D5 (issue 36): `unpack` over a published tree with the team's `CNAME`, or over a bundle that
    /// also holds a `.deflate` object, and `build` over a bundle folder with a `.git` inside: each
    /// holds more than a bundle (manifest.json, manifest.sig, objects/<sha256>), so each is refused
    /// by name and left exactly as it was.
    @Test func aFolderIsABundleThisToolMadeOnlyWhenItHoldsNothingElse() throws {
        let folder = cli.temporaryFolder()
        let (bundle, key) = try bundleAndKey(in: folder)
        let archive = folder.appendingPathComponent("b.zip").path
        #expect(try cli.splashgen("pack", bundle.path, "-o", archive).status == 0)
        let tree = folder.appendingPathComponent("site")
        #expect(try cli.splashgen("publish", bundle.path, "-o", tree.path, "--signing-key", key).status == 0)
        try Data("launch.example.com\n".utf8).write(to: tree.appendingPathComponent("CNAME"))
        let withDeflate = folder.appendingPathComponent("deflated")
        try FileManager.default.copyItem(at: bundle, to: withDeflate)
        let object = try #require(try FileManager.default.contentsOfDirectory(atPath: bundle.path + "/objects").first)
        try Data("packed".utf8).write(to: withDeflate.appendingPathComponent("objects/\(object).deflate"))
        for target in [tree, withDeflate] {
            let before = try files(target)
            let run = try cli.splashgen("unpack", archive, "-o", target.path)
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(target.path) exists and is not an empty folder or a bundle splashgen wrote"), "\(run.stderr)")
            #expect(try files(target) == before, "\(target.lastPathComponent) is left as it was")
        }
        let git = bundle.appendingPathComponent(".git")
        try FileManager.default.createDirectory(at: git, withIntermediateDirectories: true)
        try Data("ref: refs/heads/main\n".utf8).write(to: git.appendingPathComponent("HEAD"))
        let before = try files(bundle)
        let build = try cli.splashgen("build", folder.appendingPathComponent("own.yaml").path, "-o", folder.appendingPathComponent("Output").path)
        #expect(build.status == 1)
        #expect(build.stderr.contains("Output/own exists and is not an empty folder or a bundle splashgen wrote"), "\(build.stderr)")
        #expect(try files(bundle) == before)
    }

    /// D6 (issue 36, round 3's N6 reached again): `keygen -o lnk/../k`, where `lnk` is a link to
    /// `a/b`, names `a/k` as the kernel walks it. The key is checked and written there; the `./k.pub`
    /// a text-standardized `lnk/..` would name is left as it is. `decode` and `pack` write where the
    /// kernel's walk goes too.
    @Test func aPathIsResolvedOnceAndWrittenWhereItWasChecked() throws {
        let folder = cli.temporaryFolder()
        let bundle = try cli.smallBundle(in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("lnk").path, withDestinationPath: "a/b")
        let pinned = folder.appendingPathComponent("k.pub")
        try Data("pinned".utf8).write(to: pinned)
        let keygen = try cli.splashgen("keygen", "-o", "lnk/../k", in: folder)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        #expect(try String(contentsOf: pinned, encoding: .utf8) == "pinned")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("k").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/k").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/k.pub").path))
        let again = try cli.splashgen("keygen", "-o", "lnk/../k", in: folder)
        #expect(again.status != 0 && again.stderr.contains("\(folder.path)/a/k exists; keygen never overwrites a key"), "\(again.stderr)")

        let object = try #require(try FileManager.default.contentsOfDirectory(atPath: bundle.path + "/objects").first)
        #expect(try cli.splashgen("decode", bundle.path + "/objects/" + object, "-o", "lnk/../d.png", in: folder).status == 0)
        #expect(try cli.splashgen("pack", bundle.path, "-o", "lnk/../p.zip", in: folder).status == 0)
        for name in ["d.png", "p.zip"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/" + name).path), "\(name) in a/")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name) not beside lnk")
        }
    }

    /// D7 (issue 36): `decode OBJ -o B/manifest.json`, with OBJ one of B's objects, would overwrite
    /// the manifest of the bundle holding its input: refused by name, and the bundle still verifies.
    @Test func writingIntoABundleThatHoldsAnInputIsRefused() throws {
        let bundle = try cli.smallBundle(in: cli.temporaryFolder())
        let object = try #require(try FileManager.default.contentsOfDirectory(atPath: bundle.path + "/objects").first)
        let input = bundle.path + "/objects/" + object
        let before = try files(bundle)
        let decode = try cli.splashgen("decode", input, "-o", bundle.path + "/manifest.json")
        #expect(decode.status == 1)
        #expect(
            decode.stderr
                == "error: \(bundle.path)/manifest.json is inside the bundle \(bundle.path), which holds \(input), this command's input; write the output somewhere else\n"
        )
        #expect(try files(bundle) == before)
        #expect(try cli.splashgen("verify", bundle.path).status == 0)
    }

    /// D9 (issue 36): a user's `.<name>.partial` beside the archive `pack` writes is neither
    /// replaced nor deleted, and `pack` leaves no partial file of its own.
    @Test func packNeverRemovesAPartialFileItDidNotMake() throws {
        let folder = cli.temporaryFolder()
        let bundle = try cli.smallBundle(in: folder)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = out.appendingPathComponent(".b.zip.partial")
        try Data("my draft".utf8).write(to: mine)
        let run = try cli.splashgen("pack", bundle.path, "-o", out.appendingPathComponent("b.zip").path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "my draft")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [".b.zip.partial", "b.zip"])
    }

    /// D11 (issue 36): `publish -o lnk` with a dangling link, and `publish -o afile/t`, say what is
    /// wrong with the path (not "the file exists", not `NSCocoaErrorDomain error 512`), exit 1, and
    /// write nothing.
    @Test func anOutputPathThatCannotBeWalkedIsNamed() throws {
        let folder = cli.temporaryFolder()
        let (bundle, key) = try bundleAndKey(in: folder)
        let link = folder.appendingPathComponent("lnk").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere")
        let dangling = try cli.splashgen("publish", bundle.path, "-o", link, "--signing-key", key)
        #expect(dangling.status == 1)
        #expect(
            dangling.stderr == "error: \(link) cannot be written: \(link) is a symbolic link to nowhere, which does not exist; refusing to write through it\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere").path))
        let file = folder.appendingPathComponent("afile")
        try Data("notes".utf8).write(to: file)
        let underFile = try cli.splashgen("publish", bundle.path, "-o", file.path + "/t", "--signing-key", key)
        #expect(underFile.status == 1)
        #expect(underFile.stderr == "error: \(file.path)/t cannot be written: \(file.path) is a regular file, not a folder\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "notes")
    }

    /// D12 (issue 36): `decode`, `pack` and `preview` given relative paths from a working folder that
    /// has since been deleted refuse at once, by name (the run spun at 100% CPU until killed). Each is
    /// given 20 s; an answer takes well under one.
    @Test(arguments: ["decode", "pack", "preview"])
    func aRelativePathFromAWorkingFolderThatIsGoneIsRefusedAtOnce(_ command: String) throws {
        let folder = cli.temporaryFolder()
        let gone = folder.appendingPathComponent("gone")
        try FileManager.default.createDirectory(at: gone, withIntermediateDirectories: true)
        let arguments =
            switch command {
            case "decode": "decode x.ktx -o out.png"
            case "pack": "pack b -o out.zip"
            default: "preview b -o out.png"
            }
        let script = "cd '\(gone.path)' && rmdir '\(gone.path)' && exec timeout 20 '\(CommandLineTests.binary.path)' \(arguments)"
        let run = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: folder)
        #expect(run.status == 1, "\(run.status) \(run.stderr)")
        #expect(
            run.stderr.contains("is relative, and the working folder it starts from no longer exists; give an absolute path, or run from a folder that exists"),
            "\(run.stderr)")
    }
}
