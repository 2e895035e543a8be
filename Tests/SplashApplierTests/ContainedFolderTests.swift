import Foundation
@_spi(Testing) import SplashApplier
import SplashFormat
import SplashTestSupport
import Testing

/// A folder below the root swapped for a symbolic link after every check the applier makes (the
/// race an lstat walk leaves open) redirects no call of the real file system: each reaches its path
/// from the root one folder descriptor at a time, refuses the link by name, and the folder the link
/// points at keeps every byte. Expectation from first principles: nothing below the root is
/// reached through a link. The root itself may be one (an iOS container is reached through `/var`).
@Suite struct ContainedFolderTests {
    /// `root/a/b/file` and `root/a/b/sub/`, and a look-alike `elsewhere/b/...` holding the user's bytes.
    struct Tree {
        let root = temporaryFolder("contained")
        let elsewhere = temporaryFolder("elsewhere")
        let precious = Data("the user's own file".utf8)

        init() throws {
            for base in [root.appendingPathComponent("a"), elsewhere] {
                try FileManager.default.createDirectory(at: base.appendingPathComponent("b/sub"), withIntermediateDirectories: true)
                try precious.write(to: base.appendingPathComponent("b/file"))
            }
        }

        func url(_ path: String) -> URL { root.appendingPathComponent(path) }

        /// Puts a link to `elsewhere` where `root/a` was.
        func plantLink() throws {
            try FileManager.default.removeItem(at: url("a"))
            try FileManager.default.createSymbolicLink(at: url("a"), withDestinationURL: elsewhere)
        }

        /// Every path and content below `elsewhere`.
        func elsewhereTree() throws -> [String: Data] {
            var tree: [String: Data] = [:]
            for case let path as String in FileManager.default.enumerator(atPath: elsewhere.path) ?? FileManager.DirectoryEnumerator() {
                let url = elsewhere.appendingPathComponent(path)
                tree[path] = (try? Data(contentsOf: url)) ?? Data("folder".utf8)
            }
            return tree
        }
    }

    /// One call of each kind on a path below `a/`.
    static let calls: [(String, @Sendable (POSIXFileSystem, Tree) throws(ApplierError) -> Void)] = [
        ("write a new file", { fs, tree throws(ApplierError) in try fs.write(Data("x".utf8), to: tree.url("a/b/new"), flush: .full) }),
        ("write over a file", { fs, tree throws(ApplierError) in try fs.write(Data("x".utf8), to: tree.url("a/b/file"), flush: .none) }),
        ("overwrite a file in place", { fs, tree throws(ApplierError) in try fs.overwrite(Data("x".utf8), at: tree.url("a/b/file"), flush: .full) }),
        ("overwrite a missing file", { fs, tree throws(ApplierError) in try fs.overwrite(Data("x".utf8), at: tree.url("a/b/new"), flush: .none) }),
        ("replace a file", { fs, tree throws(ApplierError) in try fs.replace(tree.url("a/b/file"), with: Data("x".utf8)) }),
        ("rename a file", { fs, tree throws(ApplierError) in try fs.rename(tree.url("a/b/file"), to: tree.url("a/b/moved")) }),
        ("remove a file", { fs, tree throws(ApplierError) in try fs.remove(tree.url("a/b/file")) }),
        ("remove a folder", { fs, tree throws(ApplierError) in try fs.remove(tree.url("a/b")) }),
        ("make a folder", { fs, tree throws(ApplierError) in try fs.makeFolder(tree.url("a/b/sub/new")) }),
        ("flush a file", { fs, tree throws(ApplierError) in try fs.flush(tree.url("a/b/file"), .full) }),
        ("sync a folder", { fs, tree throws(ApplierError) in try fs.syncFolder(tree.url("a/b")) }),
        ("take the lock", { fs, tree throws(ApplierError) in _ = try ApplierLock(at: tree.url("a/b/lock"), in: fs, timeout: 0) }),
    ]

    @Test(arguments: calls.indices)
    func aFolderSwappedForALinkRedirectsNoCall(_ index: Int) throws {
        let (name, call) = Self.calls[index]
        // Control: on real folders the call succeeds, so the refusal below is the link's doing.
        let control = try Tree()
        try call(POSIXFileSystem(root: control.root), control)

        let tree = try Tree()
        try tree.plantLink()
        let before = try tree.elsewhereTree()
        #expect(throws: ApplierError.symbolicLink("a"), "\(name)") { try call(POSIXFileSystem(root: tree.root), tree) }
        #expect(try tree.elsewhereTree() == before, "\(name): the link's target keeps every byte")
    }

    /// Making a folder makes every missing one on the way and leaves the ones there as they are; a
    /// file where a folder should be stops it, named with `ENOTDIR` (POSIX `open(2)` with
    /// `O_DIRECTORY` on a path that does not name a folder), and nothing is made past it.
    @Test func makingAFolderMakesOnlyTheMissingOnesAndNamesAFileInTheWay() throws {
        let tree = try Tree()
        let fs = POSIXFileSystem(root: tree.root)
        try fs.makeFolder(tree.url("a/b/sub/new/deeper"))
        #expect(ContainedFolder(tree.root).kinds(in: tree.url("a/b/sub/new")).map(\.name) == ["deeper"])
        try fs.makeFolder(tree.url("a/b"))
        #expect(try Data(contentsOf: tree.url("a/b/file")) == tree.precious)

        #expect(throws: ApplierError.fileSystem(FileSystemError(.open, path: tree.url("a/b/file").path, systemCall: "openat", errno: ENOTDIR))) {
            try fs.makeFolder(tree.url("a/b/file/x"))
        }
        #expect(try Data(contentsOf: tree.url("a/b/file")) == tree.precious)
    }

    @Test func readsAndListingsRefuseALinkBelowTheRootAndFollowTheRootItself() throws {
        let tree = try Tree()
        let contained = ContainedFolder(tree.root)
        #expect(readBounded(tree.url("a/b/file"), limit: 100, within: contained) == tree.precious)
        #expect(try contained.names(in: tree.url("a/b"))?.sorted() == ["file", "sub"])

        // The root reached through a link, as an iOS container is: everything below still reads.
        let alias = temporaryFolder("alias").appendingPathComponent("container")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: tree.root)
        #expect(readBounded(alias.appendingPathComponent("a/b/file"), limit: 100, within: ContainedFolder(alias)) == tree.precious)
        try POSIXFileSystem(root: alias).write(Data("y".utf8), to: alias.appendingPathComponent("a/b/new"), flush: .full)
        #expect(try Data(contentsOf: tree.url("a/b/new")) == Data("y".utf8))

        try tree.plantLink()
        #expect(readBounded(tree.url("a/b/file"), limit: 100, within: contained) == nil)
        #expect(throws: ContainedFolder.Failure.link("a")) { try contained.names(in: tree.url("a/b")) }
        #expect(throws: ContainedFolder.Failure.link("a")) { try contained.status(of: tree.url("a/b/file")) }
        // Without `within`, only the file's own name is refused as a link: the old behaviour, kept
        // for the command line's own files.
        #expect(readBounded(tree.url("a/b/file"), limit: 100) == tree.precious)
    }

    /// A path is split as it is spelt when it starts with the root's own path, and compared with
    /// the root standardized otherwise: either way its components are those of the standardized
    /// path, and a look-alike sibling of the root (`root2` beside `root`) is outside.
    @Test func componentsAreThoseOfTheStandardizedPath() throws {
        let root = URL(fileURLWithPath: "/x/root")
        let folder = ContainedFolder(root)
        let cases: [(URL, [String]?)] = [
            (root, []),
            (root.appendingPathComponent("a/b"), ["a", "b"]),
            (URL(fileURLWithPath: "/x/root//a/b/"), ["a", "b"]),
            (URL(fileURLWithPath: "/x/root/a/./b"), ["a", "b"]),
            (URL(fileURLWithPath: "/x/root/a/../b"), ["b"]),
            (URL(fileURLWithPath: "/x/./root/a"), ["a"]),
            (URL(fileURLWithPath: "/x/root/../root2/a"), nil),
            (URL(fileURLWithPath: "/x/root2/a"), nil),
            (URL(fileURLWithPath: "/x/roo"), nil),
            (URL(fileURLWithPath: "/x"), nil),
        ]
        for (url, expected) in cases {
            #expect((try? folder.components(of: url)) == expected, "\(url.path)")
        }
        #expect(try ContainedFolder(URL(fileURLWithPath: "/")).components(of: URL(fileURLWithPath: "/a/b")) == ["a", "b"])
        // The root spelt decomposed (e + U+0301, 3 bytes each) and the path precomposed (U+00E9, 2
        // bytes): equal as strings, not as bytes, so nothing is cut at the root's byte count.
        let decomposed = ContainedFolder(URL(fileURLWithPath: "/x/e\u{301}e\u{301}"))
        #expect(try decomposed.components(of: URL(fileURLWithPath: "/x/\u{e9}\u{e9}/a/b")) == ["a", "b"])
        // A slash percent-encoded inside a name is that name's: it never splits it in two (Foundation
        // on Linux keeps the name as `a%2Fb`).
        #expect((try? folder.components(of: try #require(URL(string: "file:///x/root/a%2Fb")))) != ["a", "b"])
        // Such a URL is told by its bytes, in either case, wherever the `%2F` stands; a `%` with
        // anything else after it is a name's own, an encoded `%` before `2F` (`%252F`, the name `%2F`) too.
        for (spelt, encodes) in [
            ("file:///x/root/a%2Fb", true), ("file:///x/root/a%2fb", true), ("file:///x/root/a%2F", true),
            ("file:///x/root/%252Fa", false), ("file:///x/root/a%2", false), ("file:///x/root/a%20f", false),
            ("file:///x/root/a%3Fb", false), ("file:///x/root/2f", false),
        ] {
            #expect(ContainedFolder.encodesSlash(try #require(URL(string: spelt))) == encodes, "\(spelt)")
        }
    }

    /// A folder's entries, each with what it is, from the one folder opened: a file, a folder and a
    /// link (not followed); none for a missing folder or one reached through a link.
    @Test func kindsNameEachEntryWithoutFollowingALink() throws {
        let tree = try Tree()
        try FileManager.default.createSymbolicLink(at: tree.url("a/b/link"), withDestinationURL: tree.elsewhere.appendingPathComponent("b/file"))
        let contained = ContainedFolder(tree.root)
        let kinds = contained.kinds(in: tree.url("a/b")).sorted { $0.name < $1.name }
        #expect(kinds.map(\.name) == ["file", "link", "sub"])
        #expect(kinds.map(\.kind) == [S_IFREG, S_IFLNK, S_IFDIR])
        #expect(contained.kinds(in: tree.url("a/missing")).isEmpty)
        try tree.plantLink()
        #expect(contained.kinds(in: tree.url("a/b")).isEmpty)
    }

    @Test func aPathOutsideTheRootIsRefused() {
        let tree = try? Tree()
        guard let tree else { Issue.record("no scratch tree"); return }
        let fs = POSIXFileSystem(root: tree.url("a"))
        #expect(throws: ApplierError.self) { try fs.write(Data(), to: tree.url("outside"), flush: .none) }
        #expect(throws: ApplierError.self) { try fs.write(Data(), to: tree.url("a/../outside"), flush: .none) }
        #expect(!FileManager.default.fileExists(atPath: tree.url("outside").path))
    }
}
