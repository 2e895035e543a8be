import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a tree has served, and the objects no phone can still need (`publish --prune`).
///
/// A phone reads its screen's slice, then the objects it names. So an object stays needed while a
/// manifest naming it is served, and for a grace period after: a phone that read the slice just
/// before it was replaced is still downloading. Every publication into a tree records its serial,
/// its time and the objects its manifest names in `publications.json` (publish's own bookkeeping,
/// never served); `--prune` deletes the object files (raw and `.deflate`) that no publication served
/// within the grace period names, and lists them in `pruned-objects.txt` for the CDN's copies to
/// be deleted and purged (deploy-example.yml does it).
extension Publisher {
    /// The bookkeeping file's name in a tree.
    package static let historyFile = "publications.json"
    /// The list of object files the last prune deleted, for the CDN.
    package static let prunedFile = "pruned-objects.txt"
    /// How long an object stays after the last manifest naming it was replaced, by default: two days.
    package static let defaultGrace: TimeInterval = 2 * 86_400

    /// One publication, as the tree records it.
    package struct Publication: Codable, Equatable, Sendable {
        package var serial: Int
        package var published: Date
        package var objects: [String]
    }

    /// The tree's record of what it served, oldest first (empty for a tree published before records
    /// were kept). A record that is not publish's own (a link, not a file, unreadable) is refused.
    static func history(in tree: URL) throws -> [Publication] {
        let url = tree.appendingPathComponent(historyFile)
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFREG, let data = readBounded(url, limit: ReadLimits.manifestBytes) else {
            throw PublishError.notWrittenByPublish(url.path, found: FileKind.describe(info.st_mode))
        }
        do { return try KeyCertificate.decoder.decode([Publication].self, from: data) } catch {
            throw PublishError.unreadableTree(url.path, "not publish's record of its publications: \(error)")
        }
    }

    /// The history with `publication` added: entries older than 90 days, beyond the last 256, go.
    static func record(_ publication: Publication, in tree: URL, history: [Publication]) throws {
        let kept = (history + [publication]).filter { $0.published > publication.published.addingTimeInterval(-90 * 86_400) }.suffix(256)
        do { try KeyCertificate.encoder.encode(Array(kept)).write(to: tree.appendingPathComponent(historyFile), options: .atomic) } catch {
            throw PublishError.notWritable(FileSystemError(.write, path: tree.appendingPathComponent(historyFile).path, cause: error))
        }
    }

    /// Deletes the object files of `tree` that no publication served within `grace` before `now`
    /// names (the current one included), and writes their list to ``prunedFile``. Refused when the
    /// tree's record does not reach back that far: an object of an unrecorded publication may be
    /// one a phone is fetching.
    static func prune(_ tree: URL, history: [Publication], grace: TimeInterval, now: Date) throws -> [String] {
        let since = now.addingTimeInterval(-grace)
        guard let first = history.first, first.published <= since else {
            let ready = history.first.map { ScheduleTime.written($0.published.addingTimeInterval(grace), in: nil) } ?? "a grace period after this publication"
            throw PublishError.cannotPruneYet(ready)
        }
        // Served within the grace period: those published since, and the one current at its start.
        let recent = history.filter { $0.published > since }
        let current = history.last { $0.published <= since }
        let needed = Set((recent + (current.map { [$0] } ?? [])).flatMap(\.objects))
        let folder = tree.appendingPathComponent("objects")
        var pruned: [String] = []
        for entry in ContainedFolder(tree).listing(folder).sorted() {
            let name = entry.hasSuffix(".deflate") ? String(entry.dropLast(".deflate".count)) : entry
            guard isObjectName(name), !needed.contains(name) else { continue }
            var info = stat()
            guard lstat(folder.appendingPathComponent(entry).path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            do { try FileManager.default.removeItem(at: folder.appendingPathComponent(entry)) } catch {
                throw PublishError.notWritable(FileSystemError(.write, path: folder.appendingPathComponent(entry).path, cause: error))
            }
            pruned.append("objects/" + entry)
        }
        do { try Data(pruned.map { $0 + "\n" }.joined().utf8).write(to: tree.appendingPathComponent(prunedFile), options: .atomic) } catch {
            throw PublishError.notWritable(FileSystemError(.write, path: tree.appendingPathComponent(prunedFile).path, cause: error))
        }
        return pruned
    }
}
