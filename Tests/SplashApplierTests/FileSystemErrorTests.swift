import Foundation
import SplashApplier
import Testing

/// A file system error says what was done, where, and the system's reason: an app can tell a full
/// disk from a refused permission. The reason texts are POSIX `strerror`'s.
@Suite struct FileSystemErrorTests {
    @Test func itNamesTheOperationThePathAndTheSystemsReason() {
        let full = FileSystemError(.write, path: "/c/Library/x", errno: ENOSPC)
        #expect(full.code == .ENOSPC && full.description == "/c/Library/x: cannot be written: No space left on device")
        let refused = FileSystemError(.rename, path: "/c/a", destination: "/c/b", errno: EACCES)
        #expect(refused.code == .EACCES && refused.description == "/c/a: cannot be renamed to /c/b: Permission denied")
        let changed = FileSystemError(.read, path: "/c/a", underlying: "it changed while it was read")
        #expect(changed.code == nil && changed.description == "/c/a: cannot be read: it changed while it was read")
        #expect(ApplierError.fileSystem(full).description == full.description)
    }
}
