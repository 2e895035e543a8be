import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a regular file of at most `limit` bytes; nil when it is missing, larger, a link or not a
/// regular file. The size is checked before a byte is read, so a 2 GiB file costs nothing.
public func readBounded(_ url: URL, limit: Int) -> Data? {
    var info = stat()
    guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= limit else { return nil }
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    do {
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        return data.count <= limit ? data : nil
    } catch {
        return nil
    }
}

/// Limits on what a reader accepts, so no header or manifest can make it allocate without bound.
public enum ReadLimits {
    /// The largest manifest.json read (a whole-catalogue season is well under 1 MB).
    public static let manifestBytes = 8 << 20
    /// The largest snapshot object or cached file read: an uncompressed 16384×16384 ASTC 4×4 image
    /// is 256 MiB, far beyond any screen; the largest screen's PNG stays under 64 MiB.
    public static let snapshotBytes = 64 << 20
    /// The largest applier state file read.
    public static let stateBytes = 4 << 20
}
