import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock of every command that writes a tree (`build` and `unpack` into an output folder,
/// `publish` into a published tree): an exclusive `flock` on the folder itself, so it writes no
/// file of its own (nothing extra reaches a CDN) and is released by the kernel when the process
/// ends, however it ends. A second command on the same folder waits for the first (`waiting` is
/// called once, first) and then reads the tree as the first left it: two `publish`es take
/// different serials, two `build`s each swap in a whole bundle.
package final class TreeLock {
    private let descriptor: Int32

    /// Holds the lock on `folder` (created when missing) until this object is released.
    package init(_ folder: URL, waiting: (() -> Void)? = nil) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TreeLockError.cannotLock(FileSystemError(.lock, path: folder.path, systemCall: "open", errno: errno)) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK else {
                close(descriptor)
                throw TreeLockError.cannotLock(FileSystemError(.lock, path: folder.path, systemCall: "flock", errno: code))
            }
            waiting?()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let failure = FileSystemError(.lock, path: folder.path, systemCall: "flock", errno: errno)
                    close(descriptor)
                    throw TreeLockError.cannotLock(failure)
                }
            }
        }
    }

    deinit { close(descriptor) }
}

/// Why a tree could not be locked.
package enum TreeLockError: Error, Equatable, CustomStringConvertible {
    case cannotLock(FileSystemError)

    package var description: String {
        switch self {
        case .cannotLock(let failure): return "cannot lock \(failure.path) against other splashgen commands: \(failure.reason)"
        }
    }
}
