import Foundation
import SplashFormat
import SplashFormatWriting

/// What happens to a finished bundle: sign it, slice it for one screen, pack it, unpack it, verify it.
package enum BundleTools {
    /// Writes `manifest.sig` into a bundle folder, signed with a private key file's text. With the
    /// root's `certificate` of that key, the certificate goes into `manifest.json` first (the
    /// manifest is written anew only when the certificate it carries changes).
    @discardableResult
    package static func sign(bundle: URL, privateKey: String, certificate: KeyCertificate? = nil) throws -> SigningKey {
        let opened = try SnapshotBundle(root: bundle)
        let key = try SigningKey(privateKey: privateKey, certificate: certificate)
        let signed = try key.sign(opened.manifest, bytes: opened.manifestData)
        if signed.manifest != opened.manifestData { try signed.manifest.write(to: bundle.appendingPathComponent("manifest.json"), options: .atomic) }
        try Data(signed.signature.utf8).write(to: bundle.appendingPathComponent(BundleSignature.fileName), options: .atomic)
        return key
    }

    /// The archive contents of a bundle, every object verified; cut down to one screen when `slice`
    /// is given, and (re)signed when `privateKey` is (with `certificate`, as ``sign(bundle:privateKey:certificate:)``).
    /// A slice's manifest is new, so it must be signed anew; an unsliced bundle keeps its `manifest.sig`.
    package static func contents(
        of bundle: URL, slice: ScreenSlice? = nil, privateKey: String? = nil, certificate: KeyCertificate? = nil
    ) throws -> BundleArchive.Contents {
        let opened = try SnapshotBundle(root: bundle)
        var manifest = opened.manifest
        var manifestData = opened.manifestData
        var signature = readBounded(bundle.appendingPathComponent(BundleSignature.fileName), limit: ReadLimits.signatureBytes, within: ContainedFolder(bundle))
            .map { String(decoding: $0, as: UTF8.self) }
        if let slice {
            manifest = try slice.apply(to: manifest)
            manifestData = manifest.encoded()
            signature = nil
        }
        if let privateKey {
            (manifestData, signature) = try SigningKey(privateKey: privateKey, certificate: certificate).sign(manifest, bytes: manifestData)
            manifest = try Manifest.decode(from: manifestData)
        }
        var objects: [String: Data] = [:]
        for snapshot in manifest.campaigns.flatMap(\.snapshots) where objects[snapshot.object] == nil {
            objects[snapshot.object] = try opened.verifiedObject(snapshot)
        }
        return BundleArchive.Contents(manifest: manifestData, signature: signature, objects: objects)
    }

    /// Unpacks an archive into `outputRoot/<name>/`, checked entry by entry before anything is
    /// written and moved into place only when whole.
    /// An archive whose objects are not exactly the manifest's, each whole, is refused: `unpack`
    /// never writes a bundle that `verify` would refuse.
    package static func unpack(_ archive: URL, outputRoot: URL, name: String, waiting: (() -> Void)? = nil) throws -> URL {
        let contents = try BundleArchive.read(archive)
        let manifest = try Manifest.decode(from: contents.manifest)
        let problems = objectProblems(manifest, names: Array(contents.objects.keys)) { SnapshotBundle.check($0, data: contents.objects[$0.object]) }.problems
        if !problems.isEmpty { throw IncompleteArchive(problems: problems) }
        // Locked and checked before anything is written: a folder unpack did not make is never replaced.
        let writer = try BundleWriter(outputRoot: outputRoot, name: name, inputs: [archive], waiting: waiting)
        for (hash, data) in contents.objects { try writer.addObject(data, hash: hash) }
        return try writer.commit(manifestData: contents.manifest, signature: contents.signature)
    }

    /// Every problem of a bundle folder or archive: structure, signature and key certificate (when a
    /// key, the pinned root, is given; the certificate unexpired at `now`),
    /// every object's presence, size, hash, header and pixel size. A folder's objects are read one
    /// at a time.
    package static func verify(_ url: URL, publicKey: Data?, at now: Date = Date()) -> VerifyReport {
        var report = VerifyReport()
        let files: BundleFiles
        do { files = try BundleFiles(url) } catch {
            report.problems.append(String(describing: error))
            return report
        }
        report.kind = files.isArchive ? "archive" : "folder"
        report.signed = files.signature != nil
        if let publicKey {
            do { report.signer = try BundleSignature.check(files.manifest, signature: files.signature, root: publicKey, at: now) } catch {
                report.problems.append(error.description)
            }
        }
        let manifest: Manifest
        do { manifest = try Manifest.decode(from: files.manifest) } catch {
            report.problems.append(error.description)
            return report
        }
        let objects = objectProblems(manifest, names: files.objectNames, problem: files.problem(of:))
        report.objects = objects.count
        report.problems += objects.problems
        return report
    }

    /// What is wrong with the objects a bundle holds (`names`, each checked by `problem`, one at a
    /// time) for `manifest`: each object it names missing or failing its check, and each held but
    /// not named. Returns how many objects the manifest names, too.
    static func objectProblems(
        _ manifest: Manifest, names: [String], problem: (Manifest.Snapshot) -> BundleProblem?
    ) -> (count: Int, problems: [String]) {
        var named: Set<String> = []
        var problems: [String] = []
        for snapshot in manifest.campaigns.flatMap(\.snapshots) where named.insert(snapshot.object).inserted {
            if let problem = problem(snapshot) { problems.append(problem.description) }
        }
        for extra in Set(names).subtracting(named).sorted() {
            problems.append("objects/\(extra) is not named by the manifest")
        }
        return (named.count, problems)
    }

    /// Why an archive was not unpacked: what is wrong with its objects.
    package struct IncompleteArchive: Error, Equatable, CustomStringConvertible {
        package var problems: [String]
        package init(problems: [String]) { self.problems = problems }
        package var description: String { "the archive's objects are not the manifest's: " + problems.joined(separator: "; ") }
    }
}

/// What `splashgen verify` found.
package struct VerifyReport: Sendable {
    /// `folder` or `archive`.
    package var kind = "folder"
    /// Distinct objects the manifest names.
    package var objects = 0
    /// Whether a `manifest.sig` is present.
    package var signed = false
    /// Who signed it, when it was checked against a key and holds.
    package var signer: BundleSignature.Signer?
    /// Whether it was checked against a key and holds.
    package var signatureChecked: Bool { signer != nil }
    /// Everything wrong, one line each; empty when the bundle is sound.
    package var problems: [String] = []
}
