import Foundation
import SplashApplier
import SplashTestSupport
import Testing

/// A file system error says what was done, where, the cause beneath it and where it was raised:
/// an app can tell a full disk from a refused permission, and a log gets the whole story. The
/// reason texts are POSIX `strerror`'s; the shape is swift-nio's `FileSystemError` (a cause kept
/// as the error itself, the system call's name, a source location, `detailedDescription()`).
@Suite struct FileSystemErrorTests {
    @Test func itNamesTheOperationThePathAndTheSystemsReason() {
        let full = FileSystemError(.write, path: "/c/Library/x", systemCall: "write", errno: ENOSPC)
        #expect(full.code == .ENOSPC && full.systemCall == "write")
        #expect(full.description == "/c/Library/x: cannot be written: No space left on device")
        let refused = FileSystemError(.rename, path: "/c/a", destination: "/c/b", systemCall: "renameat", errno: EACCES)
        #expect(refused.code == .EACCES && refused.description == "/c/a: cannot be renamed to /c/b: Permission denied")
        let changed = FileSystemError(.read, path: "/c/a", message: "it changed while it was read")
        #expect(changed.code == nil && changed.cause == nil && changed.description == "/c/a: cannot be read: it changed while it was read")
        #expect(ApplierError.fileSystem(full).description == full.description)
    }

    /// Foundation's error is kept whole; its error number is still read from beneath it.
    @Test func foundationsErrorIsKeptAsTheCause() throws {
        let file = temporaryFolder("fs-error").appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        var failure: FileSystemError?
        do { try FileManager.default.createDirectory(at: file.appendingPathComponent("below"), withIntermediateDirectories: true) } catch {
            failure = FileSystemError(.makeFolder, path: file.path, cause: error)
        }
        let made = try #require(failure)
        #expect(made.cause is CocoaError)
        #expect(made.code == .ENOTDIR || made.code == .EEXIST || made.code == nil)
        #expect(made.description.hasPrefix("\(file.path): the folder cannot be made: "))
    }

    /// Every field on its own line, the cause's story indented, and where it was raised.
    @Test func theDetailedDescriptionTellsTheWholeStory() {
        let (inner, line) = (FileSystemError(.open, path: "/c/a", systemCall: "openat", errno: ENOENT), #line)
        let outer = FileSystemError(.read, path: "/c/a", message: "the state cannot be read back", cause: inner)
        #expect(outer.code == .ENOENT)
        #expect(outer.description == "/c/a: cannot be read: the state cannot be read back; No such file or directory")
        #expect(
            outer.detailedDescription() == """
                FileSystemError: read failed
                  path: /c/a
                  message: the state cannot be read back
                  cause: FileSystemError: open failed
                      path: /c/a
                      cause: SystemCallError: openat(2): No such file or directory (errno \(ENOENT))
                      raised at: SplashApplierTests/FileSystemErrorTests.swift:\(line) in theDetailedDescriptionTellsTheWholeStory()
                  raised at: SplashApplierTests/FileSystemErrorTests.swift:\(line + 1) in theDetailedDescriptionTellsTheWholeStory()
                """)
    }

    /// Two errors that say the same are equal wherever each was raised; a different cause is not.
    @Test func equalityIsWhatTheySayNotWhereTheyWereRaised() {
        let one = FileSystemError(.remove, path: "/c/a", systemCall: "unlinkat", errno: EBUSY)
        let two = FileSystemError(.remove, path: "/c/a", systemCall: "unlinkat", errno: EBUSY)
        #expect(one == two && one.location != two.location)
        #expect(one != FileSystemError(.remove, path: "/c/a", systemCall: "unlinkat", errno: EPERM))
        #expect(one != FileSystemError(.remove, path: "/c/a", systemCall: "rmdir", errno: EBUSY))
    }
}
