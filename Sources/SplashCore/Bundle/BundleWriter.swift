import Foundation
import SplashFormat

/// Writes a bundle into a staging folder beside its destination and moves it into place only when
/// complete, so a failed build leaves the previous `Output/<name>/` exactly as it was. It holds the
/// output folder's ``TreeLock`` from the start to the end, and replaces only what is missing, an
/// empty folder or a folder that holds a bundle and nothing else
/// (``OutputFile/checkFolder(_:inputs:what:isOwn:)``, ``OutputFile/holdsOnlyABundle(_:)``).
final class BundleWriter {
    let destination: URL
    let staging: URL
    private var committed = false
    private let lock: TreeLock

    /// Resolves the output folder once (``OutputFile/resolve(_:followingLast:)``), takes its lock,
    /// checks the destination (not an input, not inside one, not holding one; missing, empty or a
    /// bundle and nothing else), and prepares `Output/.staging-<name>-<pid>/objects`. Fails, having
    /// written nothing but the output folder itself, when any of that does not hold.
    init(outputRoot given: URL, name: String, inputs: [URL], waiting: (() -> Void)? = nil) throws {
        let fm = FileManager.default
        let outputRoot = try OutputFile.resolve(given.path, followingLast: true)
        destination = outputRoot.appendingPathComponent(name)
        staging = outputRoot.appendingPathComponent(".staging-\(name)-\(getpid())")
        do { lock = try TreeLock(outputRoot, waiting: waiting) } catch let error as TreeLockError { throw error } catch {
            throw BuildError.outputNotWritable(FileSystemError(.write, path: outputRoot.path, cause: error))
        }
        try OutputFile.checkFolder(
            destination, inputs: inputs, what: "an empty folder or a bundle splashgen wrote (manifest.json, manifest.sig and objects/, nothing else)",
            isOwn: OutputFile.holdsOnlyABundle)
        do {
            Self.removeAbandonedStaging(in: outputRoot, name: name)
            try? fm.removeItem(at: staging)
            try fm.createDirectory(at: staging.appendingPathComponent("objects"), withIntermediateDirectories: true)
        } catch {
            throw BuildError.outputNotWritable(FileSystemError(.write, path: outputRoot.path, cause: error))
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(at: staging) }
    }

    /// Adds an object by hard link (falling back to a copy) from a file already written.
    func addObject(at source: URL, hash: String) throws(BuildError) {
        let target = staging.appendingPathComponent("objects").appendingPathComponent(hash)
        guard !FileManager.default.fileExists(atPath: target.path) else { return }
        do {
            do { try FileManager.default.linkItem(at: source, to: target) } catch {
                try FileManager.default.copyItem(at: source, to: target)
            }
        } catch {
            throw .outputNotWritable(FileSystemError(.write, path: target.path, cause: error))
        }
    }

    /// Adds an object from its bytes.
    func addObject(_ data: Data, hash: String) throws(BuildError) {
        do { try data.write(to: staging.appendingPathComponent("objects").appendingPathComponent(hash)) } catch {
            throw .outputNotWritable(FileSystemError(.write, path: staging.path, cause: error))
        }
    }

    /// Writes the manifest, then swaps the staging folder into place.
    func commit(_ manifest: Manifest) throws(BuildError) -> URL {
        try commit(manifestData: manifest.encoded(), signature: nil)
    }

    /// Writes the manifest's bytes (and its signature), then swaps the staging folder into place.
    func commit(manifestData: Data, signature: String?) throws(BuildError) -> URL {
        let fm = FileManager.default
        do {
            try manifestData.write(to: staging.appendingPathComponent("manifest.json"))
            if let signature { try Data(signature.utf8).write(to: staging.appendingPathComponent(BundleSignature.fileName)) }
            if fm.fileExists(atPath: destination.path) {
                // A name no one else has (moveItem refuses one that exists), so nothing of anyone's is removed.
                let old = destination.deletingLastPathComponent()
                    .appendingPathComponent(".old-\(destination.lastPathComponent)-\(getpid())-\(UUID().uuidString)")
                try fm.moveItem(at: destination, to: old)
                do { try fm.moveItem(at: staging, to: destination) } catch {
                    try? fm.moveItem(at: old, to: destination)
                    throw error
                }
                try? fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: staging, to: destination)
            }
        } catch {
            throw .outputNotWritable(FileSystemError(.write, path: destination.path, cause: error))
        }
        committed = true
        return destination
    }

    /// Staging folders of this name left by builds that were killed (their process is gone).
    private static func removeAbandonedStaging(in root: URL, name: String) {
        let prefix = ".staging-\(name)-"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where entry.hasPrefix(prefix) {
            if let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: root.appendingPathComponent(entry))
            }
        }
    }
}

/// Why a build could not produce its bundle.
package enum BuildError: Error, Equatable, CustomStringConvertible {
    /// The output folder could not be created or written.
    case outputNotWritable(FileSystemError)
    /// A snapshot could not be encoded.
    case encodeFailed(String)

    package var description: String {
        switch self {
        case .outputNotWritable(let failure): return "cannot write the output folder \(failure.path): \(failure.reason)"
        case .encodeFailed(let detail): return "encoding failed: \(detail)"
        }
    }
}
