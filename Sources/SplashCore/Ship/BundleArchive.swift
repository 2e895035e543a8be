import Foundation
import SplashFormat
import ZIPFoundation

/// Bundles as ZIP archives (ZIPFoundation): written deterministically (the same bundle gives the
/// same bytes), and read as hostile input, every entry checked before anything is written.
package enum BundleArchive {
    /// What goes in an archive: the manifest's bytes, its signature, and the objects it names.
    package struct Contents: Sendable {
        /// `manifest.json`.
        package var manifest: Data
        /// `manifest.sig`, when signed.
        package var signature: String?
        /// `objects/<sha256>` by name.
        package var objects: [String: Data]

        /// Makes contents.
        package init(manifest: Data, signature: String?, objects: [String: Data]) {
            self.manifest = manifest
            self.signature = signature
            self.objects = objects
        }
    }

    /// Every archive entry carries this date, so archives are byte-for-byte reproducible.
    static let entryDate = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z

    /// Writes `contents` as a ZIP at `url`, resolved and checked once (``OutputFile/check(_:example:inputs:)``),
    /// through a partial file of a name only this writing makes (`.<name>.splashgen-<UUID>.partial`,
    /// created only when nothing is there), renamed over the archive: no half archive is left, and
    /// no file this writing did not create is removed. Entries: `manifest.json`, `manifest.sig`,
    /// then `objects/…` in name order, deflated. Returns the path written.
    @discardableResult
    package static func write(_ contents: Contents, to url: URL, inputs: [URL] = []) throws -> URL {
        let target = try OutputFile.check(url, example: "bundle.zip", inputs: inputs)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).splashgen-\(UUID().uuidString).partial")
        let archive = try Archive(url: partial, accessMode: .create)  // refuses a file already there
        defer { try? FileManager.default.removeItem(at: partial) }
        var entries: [(String, Data)] = [("manifest.json", contents.manifest)]
        if let signature = contents.signature { entries.append((BundleSignature.fileName, Data(signature.utf8))) }
        entries += contents.objects.keys.sorted().map { ("objects/" + $0, contents.objects[$0]!) }
        for (path, data) in entries {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: entryDate,
                permissions: 0o644, compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard rename(partial.path, target.path) == 0 else {
            throw FileSystemError(.rename, path: partial.path, destination: target.path, systemCall: "rename", errno: errno)
        }
        return target
    }

    /// Reads an archive that may have been made to attack its reader. Before any byte is kept, every
    /// entry must be a plain file named `manifest.json`, `manifest.sig` or `objects/<sha256>`, once;
    /// every object must be one the manifest names, of the size it says; and the archive may not be
    /// much larger than what the manifest declares. Each object's bytes must hash to its name.
    package static func read(_ url: URL) throws(ArchiveProblem) -> Contents {
        let archiveSize = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue ?? 0
        let archive: Archive
        do { archive = try Archive(url: url, accessMode: .read) } catch { throw .notAnArchive(String(describing: error)) }
        var seen: Set<String> = []
        var manifestEntry: Entry?, signatureEntry: Entry?
        var objectEntries: [String: Entry] = [:]
        for entry in archive {
            let path = entry.path
            guard seen.insert(path).inserted else { throw .duplicateEntry(path) }
            guard entry.type == .file else {
                if entry.type == .directory && path == "objects/" { continue }
                throw entry.type == .symlink ? .symbolicLink(path) : .unexpectedEntry(path)
            }
            if path.hasPrefix("/") || path.split(separator: "/").contains("..") || path.contains("\\") { throw .unsafePath(path) }
            switch path {
            case "manifest.json": manifestEntry = entry
            case BundleSignature.fileName: signatureEntry = entry
            default:
                let name = String(path.dropFirst("objects/".count))
                guard path.hasPrefix("objects/"), isObjectName(name) else { throw .unexpectedEntry(path) }
                objectEntries[name] = entry
            }
        }
        guard let manifestEntry else { throw .missingManifest }
        let manifestData = try extract(manifestEntry, from: archive, limit: 4 << 20)
        let manifest: Manifest
        do { manifest = try Manifest.decode(from: manifestData) } catch { throw .badManifest(error.description) }
        var declared: [String: Int] = [:]
        for snapshot in manifest.campaigns.flatMap(\.snapshots) { declared[snapshot.object] = snapshot.bytes }
        for (name, entry) in objectEntries {
            guard let size = declared[name] else { throw .unexpectedEntry("objects/" + name) }
            guard entry.uncompressedSize == UInt64(size) else { throw .sizeMismatch(name, declared: size, entry: Int(entry.uncompressedSize)) }
        }
        // Deflated snapshots are smaller than their bytes; allow the ZIP structure's overhead and no more.
        let expected = declared.values.reduce(0, +) + manifestData.count + 4096
        let allowance = expected + 1024 * (objectEntries.count + 2) + 65_536
        guard archiveSize <= allowance else { throw .tooLarge(archive: archiveSize, declared: expected) }
        let signature = try signatureEntry.map { entry throws(ArchiveProblem) in
            String(decoding: try extract(entry, from: archive, limit: ReadLimits.signatureBytes), as: UTF8.self)
        }
        var objects: [String: Data] = [:]
        for (name, entry) in objectEntries {
            let data = try extract(entry, from: archive, limit: declared[name]!)
            guard sha256Hex(data) == name else { throw .hashMismatch(name) }
            objects[name] = data
        }
        return Contents(manifest: manifestData, signature: signature, objects: objects)
    }

    /// An entry's bytes, refusing to inflate past `limit` whatever its header claims.
    private static func extract(_ entry: Entry, from archive: Archive, limit: Int) throws(ArchiveProblem) -> Data {
        guard entry.uncompressedSize <= UInt64(limit) else { throw .sizeMismatch(entry.path, declared: limit, entry: Int(entry.uncompressedSize)) }
        var data = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                data.append(chunk)
                if data.count > limit { throw ArchiveProblem.sizeMismatch(entry.path, declared: limit, entry: data.count) }
            }
        } catch let problem as ArchiveProblem {
            throw problem
        } catch {
            throw .corruptEntry(entry.path, String(describing: error))
        }
        return data
    }
}

/// Why an archive was refused. Nothing was written.
package enum ArchiveProblem: Error, Equatable, CustomStringConvertible {
    case notAnArchive(String)
    case duplicateEntry(String)
    case symbolicLink(String)
    case unsafePath(String)
    case unexpectedEntry(String)
    case missingManifest
    case badManifest(String)
    case sizeMismatch(String, declared: Int, entry: Int)
    case tooLarge(archive: Int, declared: Int)
    case hashMismatch(String)
    case corruptEntry(String, String)

    package var description: String {
        switch self {
        case .notAnArchive(let detail): return "not a ZIP archive (\(detail))"
        case .duplicateEntry(let path): return "entry \(path) appears twice"
        case .symbolicLink(let path): return "entry \(path) is a symbolic link"
        case .unsafePath(let path): return "entry \(path) points outside the bundle"
        case .unexpectedEntry(let path): return "entry \(path) is not part of a bundle (only manifest.json, manifest.sig and objects the manifest names)"
        case .missingManifest: return "no manifest.json in the archive"
        case .badManifest(let detail): return detail
        case .sizeMismatch(let path, let declared, let entry): return "entry \(path) is \(entry) bytes; the manifest declares \(declared)"
        case .tooLarge(let archive, let declared): return "the archive is \(archive) bytes, far more than the \(declared) its manifest declares"
        case .hashMismatch(let name): return "object \(name) does not hash to its name"
        case .corruptEntry(let path, let detail): return "entry \(path) is damaged (\(detail))"
        }
    }
}
