import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The iOS 12 rule that an app cannot write its launch snapshots in place (docs/ios-launch-cache.md §9: seeds
/// 002 and 003; LLDynamicLaunchScreen moves the folder out, edits it and moves it back). The
/// simulator runs as root, where file permissions stop nothing, so the rule is enforced by
/// watching: while the app's code runs, the kernel (inotify) reports every change inside the
/// launch folder and every move of the folder itself. A change made while the folder sits at its
/// place is a refused write: ``finish()`` undoes them all, putting back what the folder held, and
/// names them. Changes made while the folder is moved elsewhere are allowed.
final class InPlaceWriteGuard {
    private let folder: URL
    private let saved: [String: Data]
    #if canImport(Glibc)
    private let fd: Int32
    private let folderWatch: Int32
    private let parentWatch: Int32
    #endif

    /// Starts watching `folder` (and its parent, to see the folder leave and come back).
    init(folder: URL) throws {
        self.folder = folder
        saved = Self.contents(of: folder)
        #if canImport(Glibc)
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SimulatorError.rejected("inotify is not available: \(String(cString: strerror(errno)))") }
        let changes = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_CLOSE_WRITE)
        folderWatch = inotify_add_watch(fd, folder.path, changes)
        parentWatch = inotify_add_watch(fd, folder.deletingLastPathComponent().path, UInt32(IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE))
        guard folderWatch >= 0, parentWatch >= 0 else {
            close(fd)
            throw SimulatorError.rejected("cannot watch \(folder.path): \(String(cString: strerror(errno)))")
        }
        #endif
    }

    deinit {
        #if canImport(Glibc)
        close(fd)
        #endif
    }

    /// The names written in place, in order, after undoing those writes; empty when the app kept
    /// the rule.
    func finish() throws -> [String] {
        var refused: [String] = []
        #if canImport(Glibc)
        let name = folder.lastPathComponent
        var inPlace = true
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: Int32 wd, UInt32 mask, UInt32 cookie, UInt32 len, then len bytes of name.
            while offset + 16 <= count {
                func field(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(buffer[offset + at + $1]) << (8 * $1) } }
                let watch = Int32(bitPattern: field(0)), mask = field(4), length = Int(field(12))
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let entry = String(decoding: nameBytes, as: UTF8.self)
                offset += 16 + length
                if watch == parentWatch, entry == name {
                    if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { inPlace = false }
                    if mask & UInt32(IN_MOVED_TO) != 0 { inPlace = true }
                    if mask & UInt32(IN_CREATE) != 0 { refused.append("\(name) (a new folder in the OS's place)") }
                } else if watch == folderWatch, inPlace, !entry.isEmpty {
                    if refused.last != entry { refused.append(entry) }
                }
            }
        }
        #endif
        guard !refused.isEmpty else { return [] }
        let fm = FileManager.default
        try? fm.removeItem(at: folder)
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        for (entry, data) in saved { try data.write(to: folder.appendingPathComponent(entry)) }
        return refused
    }

    /// The regular files of the folder, by name.
    private static func contents(of folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(entry)) { files[entry] = data }
        }
        return files
    }
}
