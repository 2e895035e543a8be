import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a regular file of at most `limit` bytes; nil when it is missing, larger, a link or not a
/// regular file. The size is checked before a byte is read, so a 2 GiB file costs nothing; the
/// file opened (`O_NOFOLLOW`) must be the one checked, so a link swapped in between is refused.
/// Given `within`, every folder from there down is reached by descriptor and none may be a link
/// (``ContainedFolder``); otherwise only the file's own name is refused as a link.
package func readBounded(_ url: URL, limit: Int, within folder: ContainedFolder? = nil) -> Data? {
    try? readBoundedFile(url, limit: limit, within: folder).get()
}

/// Why ``readBoundedFile(_:limit:within:)`` read nothing.
package enum FileRefusal: Error, Equatable, Sendable {
    /// Nothing is there.
    case missing
    /// Something other than a regular file is there (``FileKind/describe(_:)`` names it).
    case notARegularFile(kind: String)
    /// The file is larger than the limit.
    case tooLarge(size: Int)
    /// It could not be read whole (a folder above is a link, it changed while read, a read failed).
    case unreadable(FileSystemError)
}

/// ``readBounded(_:limit:within:)``, saying why when it reads nothing.
package func readBoundedFile(_ url: URL, limit: Int, within folder: ContainedFolder? = nil) -> Result<Data, FileRefusal> {
    var data = Data()
    return readBoundedFile(url, limit: limit, within: folder, into: &data).map { _ in data }
}

/// ``readBoundedFile(_:limit:within:)`` into `buffer`, which grows when the file is larger (a
/// buffer reused across files is filled in place): the file's byte count, its bytes first in
/// `buffer`. The one bounded, link-safe read every other one goes through.
package func readBoundedFile(_ url: URL, limit: Int, within folder: ContainedFolder? = nil, into buffer: inout Data) -> Result<Int, FileRefusal> {
    guard let folder else { return readBounded(url.path, in: AT_FDCWD, path: url.path, limit: limit, into: &buffer) }
    let parent: Int32, name: String
    do { (parent, name) = try folder.openParent(of: url) } catch {
        if case .failed(_, ENOENT, _) = error { return .failure(.missing) }
        return .failure(.unreadable(error.fileSystemError(root: folder.root)))
    }
    defer { close(parent) }
    return readBounded(name, in: parent, path: url.path, limit: limit, into: &buffer)
}

/// ``readBoundedFile(_:limit:within:into:)`` of `name` in the folder `parent` (a path when it is
/// `AT_FDCWD`); `path` names it in errors.
private func readBounded(_ name: String, in parent: Int32, path: String, limit: Int, into buffer: inout Data) -> Result<Int, FileRefusal> {
    guard let info = ContainedFolder.status(parent, name) else {
        return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(FileSystemError(.read, path: path, systemCall: "fstatat", errno: errno)))
    }
    guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile(kind: FileKind.describe(info.st_mode))) }
    guard Int(info.st_size) <= limit else { return .failure(.tooLarge(size: Int(info.st_size))) }
    let fd = ContainedFolder.retrying { openat(parent, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
    guard fd >= 0 else { return .failure(.unreadable(FileSystemError(.open, path: path, systemCall: "openat", errno: errno))) }
    defer { close(fd) }
    var opened = stat()
    guard fstat(fd, &opened) == 0, opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else {
        return .failure(.unreadable(FileSystemError(.read, path: path, message: "it was replaced while it was opened")))
    }
    // One buffer of at least the size the file had, filled by read(2): no second copy of the bytes.
    // A file that grew past that size since the stat is refused rather than read in part.
    let size = Int(info.st_size)
    if buffer.count < size { buffer = Data(count: size) }
    guard buffer.withUnsafeMutableBytes({ readExactly(fd, into: $0, count: size) }) else {
        return .failure(.unreadable(FileSystemError(.read, path: path, message: "it changed size while it was read")))
    }
    return .success(size)
}

/// What a `stat` mode is, for a message: "a symbolic link", "a folder", "a character device"…
package enum FileKind {
    package static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }
}

/// Fills the first `count` bytes of `buffer` from `fd` with read(2) and checks that the file ends
/// there: false when it is shorter or longer (it changed since its size was read), never a part.
package func readExactly(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int) -> Bool {
    guard count <= buffer.count else { return false }
    var offset = 0
    if count > 0 {
        guard let base = buffer.baseAddress else { return false }
        while offset < count {
            let n = read(fd, base + offset, count - offset)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
    }
    var extra: UInt8 = 0
    return offset == count && read(fd, &extra, 1) == 0
}

/// Limits on what a reader accepts, so no header or manifest can make it allocate without bound.
package enum ReadLimits {
    /// The largest manifest.json read (a whole-catalogue season is well under 1 MB).
    package static let manifestBytes = 8 << 20
    /// The largest snapshot object or cached file read: an uncompressed 16384×16384 ASTC 4×4 image
    /// is 256 MiB, far beyond any screen; the largest screen's PNG stays under 64 MiB.
    package static let snapshotBytes = 64 << 20
    /// The largest applier state file read.
    package static let stateBytes = 4 << 20
    /// The largest signature file read (`manifest.sig`, a slice's `.sig`: one line of base64).
    package static let signatureBytes = 4096
}
