import Foundation
import SplashFormat
import SplashFormatWriting

/// `splashgen publish`: a bundle as the static tree a CDN or object store serves to phones.
///
/// ```
/// manifest.json, manifest.sig            the whole season, with a serial; signed (revalidate)
/// screens/<W>x<H>.json, .json.sig        one screen's slice of it (portrait pixels), same serial, signed
/// objects/<sha256>                       each object (immutable)
/// objects/<sha256>.deflate               the same as raw DEFLATE, what a phone downloads (immutable)
/// ```
///
/// Objects go in first and manifests last, each file through a temporary sibling and a rename, so a
/// phone never reads a manifest that names an object not yet there; objects of earlier
/// publications stay, for phones that still hold those manifests.
package enum Publisher {
    /// Publishes `bundle` (a folder or archive, every object verified) into the tree at `tree`,
    /// signed with a private key file's text, with serial `serial`, or by default the larger of one
    /// more than the tree holds and `clock` (by default ``clockSerial(environment:now:)``).
    ///
    /// The serial must grow across every publication phones have seen. `clock` makes it grow with
    /// no state kept anywhere: it is the publication's time in seconds since 1970, or the commit's
    /// when `SOURCE_DATE_EPOCH` says so (``clockSerial()``), so CI publishing each commit into a
    /// fresh folder gives each a greater serial than the last, and so does a person publishing by
    /// hand into an empty folder. Publishing into a copy of the live tree still takes one more than
    /// it holds when that is greater.
    ///
    /// The tree is locked (``TreeLock``) from before its serial is read to the last write, so two
    /// publications into one tree at once take turns (`waiting` is called when this one waits) and
    /// the second takes a greater serial than the first.
    ///
    /// The publication holds until `now` + `validFor` (``Manifest/expires``, inside the signature):
    /// phones that fetch nothing newer by then show none of it.
    ///
    /// The tree's path is resolved once (``OutputFile/resolve(_:followingLast:)``) and no link inside
    /// it is followed; every name it would write is checked before the first write, and one that is
    /// a link, or holds what publish did not write (a slice's name not signed with this key for this
    /// app, a folder where a file goes), refuses the whole publication with nothing written.
    package static func publish(
        bundle: URL, to tree: URL, privateKey: String, certificate: KeyCertificate? = nil, serial requested: Int? = nil, clock: Int? = nil,
        validFor: TimeInterval = defaultValidity, now: Date = Date(), readmit: [String] = [], prune: TimeInterval? = nil,
        waiting: (() -> Void)? = nil
    ) throws -> PublishReport {
        let clock = try clock ?? clockSerial()
        let key = try SigningKey(privateKey: privateKey, certificate: certificate)
        let output = try OutputFile.resolve(tree.path, followingLast: true)
        let files = try BundleFiles(bundle)
        var manifest = try Manifest.decode(from: files.manifest)
        try refuseBundleFolders(at: output)
        try OutputFile.refuseInputs(output, inputs: [bundle], replacedWhole: false)
        let lock = try TreeLock(output, waiting: waiting)
        defer { withExtendedLifetime(lock) {} }
        let before = try heldManifest(in: output)
        let history = try history(in: output)
        let serial = try nextSerial(after: before, key: key, requested: requested, clock: clock)
        stamp(&manifest, serial: serial, key: key, expires: now.addingTimeInterval(validFor))
        // What a `--withdraw` pulled from this tree stays out until it is readmitted by name.
        let withdrawn = Set(before?.withdrawn ?? [])
        // Into a fresh folder (CI's), a readmission is only recorded: the deploy checks it against the
        // season online.
        if before != nil, let stray = readmit.first(where: { !withdrawn.contains($0) }) {
            throw PublishError.notWithdrawn(stray, withdrawn: withdrawn.sorted())
        }
        let returning = manifest.campaigns.map(\.id).filter { withdrawn.contains($0) && !readmit.contains($0) }
        if !returning.isEmpty { throw PublishError.withdrawnCampaigns(returning) }
        let stillOut = withdrawn.subtracting(readmit).sorted()
        manifest.withdrawn = stillOut.isEmpty ? nil : stillOut
        manifest.readmitted = readmit.isEmpty ? nil : readmit.sorted()
        let sizes = Set(manifest.campaigns.flatMap(\.snapshots).map(\.sliceScreen))
        try refuseWhatItDidNotWrite(
            in: output, objects: Set(manifest.campaigns.flatMap(\.snapshots).map(\.object)), slices: sizes.map(\.slicePath), app: manifest.app.bundleID,
            root: key.root)

        let fm = FileManager.default
        let objects = output.appendingPathComponent("objects")
        do { try fm.createDirectory(at: objects, withIntermediateDirectories: true) } catch {
            throw PublishError.notWritable(FileSystemError(.write, path: output.path, cause: error))
        }
        var deflated: [String: Int] = [:]
        var report = PublishReport(tree: output, serial: serial, signer: key)
        report.changes = SeasonDiff(from: before, to: manifest).lines
        for snapshot in manifest.campaigns.flatMap(\.snapshots) where deflated[snapshot.object] == nil {
            let data = try files.verifiedObject(snapshot)
            // An object already in the tree is kept only when it is still the object its name says.
            let raw = objects.appendingPathComponent(snapshot.object)
            if readBounded(raw, limit: ReadLimits.snapshotBytes).map({ sha256Hex($0) }) != snapshot.object {
                if fm.fileExists(atPath: raw.path) { report.repairedObjects += 1 }
                try write(data, to: raw)
            }
            // An object's URLs are cached for ever: a .deflate an earlier publication wrote is kept
            // (and its size signed) as long as it inflates to the object; only a damaged one is replaced.
            let packedURL = objects.appendingPathComponent(snapshot.object + ".deflate")
            let packed: Data
            if let earlier = readBounded(packedURL, limit: ReadLimits.snapshotBytes),
                let inflated = try? Deflate.inflate(earlier, expectedSize: snapshot.bytes), sha256Hex(inflated) == snapshot.object
            {
                packed = earlier
            } else {
                if fm.fileExists(atPath: packedURL.path) { report.repairedObjects += 1 }
                packed = try Deflate.compress(data)
                try write(packed, to: packedURL)
            }
            deflated[snapshot.object] = packed.count
            report.objects += 1
            report.rawBytes += data.count
            report.deflatedBytes += packed.count
        }
        // Every other object the tree holds, checked against its name.
        for entry in ((try? fm.contentsOfDirectory(atPath: objects.path)) ?? []).sorted() where isObjectName(entry) && deflated[entry] == nil {
            if readBounded(objects.appendingPathComponent(entry), limit: ReadLimits.snapshotBytes).map({ sha256Hex($0) }) != entry {
                report.damagedObjectsLeft.append(entry)
            }
        }
        for c in manifest.campaigns.indices {
            for s in manifest.campaigns[c].snapshots.indices {
                manifest.campaigns[c].snapshots[s].deflated = deflated[manifest.campaigns[c].snapshots[s].object]
            }
        }

        try writeManifests(manifest, sizes: sizes, to: output, key: key, report: &report)
        try finish(manifest, in: output, history: history, prune: prune, now: now, report: &report)
        return report
    }

    /// After the manifests: the publication recorded, then, with `prune` (a grace period), the
    /// objects no manifest served within it names removed (``prune(_:history:grace:now:)``).
    private static func finish(
        _ manifest: Manifest, in output: URL, history: [Publication], prune grace: TimeInterval?, now: Date, report: inout PublishReport
    ) throws {
        let publication = Publication(
            serial: manifest.serial ?? 0, published: now, objects: Set(manifest.campaigns.flatMap(\.snapshots).map(\.object)).sorted())
        try record(publication, in: output, history: history)
        guard let grace else { return }
        // The publication is out: a prune that cannot be done yet is said, not a failure.
        do { report.pruned = try Self.prune(output, history: history + [publication], grace: grace, now: now) } catch PublishError.cannotPruneYet(let when) {
            report.pruneDeferred = PublishError.cannotPruneYet(when).description
        }
    }

    /// `splashgen publish --withdraw`: the tree's season signed again without the campaigns `names`,
    /// at once, from its own manifest (nothing is rebuilt, no object read or written): one slice per
    /// screen (a screen left with no campaign gets an empty slice, so its phones put their originals
    /// back), then the manifest, with a greater serial and a new expiry. The names are remembered in
    /// the manifest (`withdrawn`), and a later publication into this tree that holds one is refused
    /// until it is readmitted by name. The tree must be signed under the root this key answers to.
    package static func withdraw(
        _ names: [String], in tree: URL, privateKey: String, certificate: KeyCertificate? = nil, clock: Int? = nil,
        validFor: TimeInterval = defaultValidity, now: Date = Date(), prune: TimeInterval? = nil, waiting: (() -> Void)? = nil
    ) throws -> PublishReport {
        let clock = try clock ?? clockSerial()
        let key = try SigningKey(privateKey: privateKey, certificate: certificate)
        let output = try OutputFile.resolve(tree.path, followingLast: true)
        let lock = try TreeLock(output, waiting: waiting)
        defer { withExtendedLifetime(lock) {} }
        guard let before = try heldManifest(in: output) else { throw PublishError.nothingPublished(output.path) }
        let history = try history(in: output)
        let signature = readBounded(output.appendingPathComponent(BundleSignature.fileName), limit: ReadLimits.signatureBytes)
        let data = readBounded(output.appendingPathComponent("manifest.json"), limit: ReadLimits.manifestBytes) ?? Data()
        do { _ = try BundleSignature.check(data, signature: signature.map { String(decoding: $0, as: UTF8.self) }, root: key.root, at: nil) } catch {
            throw PublishError.notOwnTree(output.path, error.description)
        }
        for name in names where !before.campaigns.contains(where: { $0.id == name }) {
            throw PublishError.noSuchCampaign(name, held: before.campaigns.map(\.id))
        }
        var manifest = before
        manifest.campaigns.removeAll { names.contains($0.id) }
        manifest.withdrawn = Set((before.withdrawn ?? []) + names).sorted()
        manifest.readmitted = nil
        stamp(&manifest, serial: try nextSerial(after: before, key: key, requested: nil, clock: clock), key: key, expires: now.addingTimeInterval(validFor))
        let sizes = Set(manifest.campaigns.flatMap(\.snapshots).map(\.sliceScreen))
        try refuseWhatItDidNotWrite(in: output, objects: [], slices: sizes.map(\.slicePath), app: manifest.app.bundleID, root: key.root)
        var report = PublishReport(tree: output, serial: manifest.serial ?? 0, signer: key)
        report.changes = SeasonDiff(from: before, to: manifest).lines
        try writeManifests(manifest, sizes: sizes, to: output, key: key, report: &report)
        try finish(manifest, in: output, history: history, prune: prune, now: now, report: &report)
        return report
    }

    /// What every publication signs into its manifest: its serial, the signing key's certificate,
    /// and its expiry (in whole seconds).
    private static func stamp(_ manifest: inout Manifest, serial: Int, key: SigningKey, expires: Date) {
        manifest.serial = serial
        manifest.certificate = key.certificate
        manifest.expires = Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded(.down))
    }

    /// The serial a publication after `before` takes: `requested`, or the larger of one more than
    /// `before`'s and `clock`. Phones rank seasons by the key certificate's version, then the serial:
    /// under a newer version the serial starts again (so one a leaked key pushed ahead is left behind
    /// with it); under an older one the key is retired, and refused.
    static func nextSerial(after before: Manifest?, key: SigningKey, requested: Int?, clock: Int) throws -> Int {
        let held = before?.serial ?? 0, heldVersion = before?.keyVersion ?? 0
        if key.version < heldVersion { throw PublishError.retiredCertificate(version: key.version, held: heldVersion) }
        let floor = key.version > heldVersion ? 0 : held
        if let requested, requested <= floor { throw PublishError.serialNotGreater(requested: requested, held: floor) }
        guard floor < Int.max else { throw PublishError.serialNotGreater(requested: floor, held: floor) }
        return requested ?? max(floor + 1, clock)
    }

    /// One signed slice per screen of `sizes`, then the whole manifest. A screen an earlier
    /// publication served and this one does not gets a slice with no campaign: its phones restore
    /// their originals rather than keep a withdrawn campaign.
    private static func writeManifests(_ manifest: Manifest, sizes: Set<ScreenSize>, to output: URL, key: SigningKey, report: inout PublishReport) throws {
        let fm = FileManager.default
        let screensFolder = output.appendingPathComponent("screens")
        do { try fm.createDirectory(at: screensFolder, withIntermediateDirectories: true) } catch {
            throw PublishError.notWritable(FileSystemError(.write, path: screensFolder.path, cause: error))
        }
        for size in sizes.sorted(by: { ($0.width, $0.height) < ($1.width, $1.height) }) {
            let path = size.slicePath
            let slice = try ScreenSlice.pixels(width: size.width, height: size.height).apply(to: manifest)
            try writeSigned(
                slice.encoded(), to: output.appendingPathComponent(path), signature: output.appendingPathComponent(path + ".sig"), key: key)
            report.screens += 1
        }
        let served = Set(sizes.map(\.slicePath))
        for entry in ((try? fm.contentsOfDirectory(atPath: screensFolder.path)) ?? []).sorted() where !served.contains("screens/" + entry) {
            guard let screen = ownSlice(entry, in: screensFolder, app: manifest.app.bundleID, root: key.root) else { continue }
            var emptied = manifest
            emptied.campaigns = []
            emptied.screen = screen
            try writeSigned(
                emptied.encoded(), to: screensFolder.appendingPathComponent(entry), signature: screensFolder.appendingPathComponent(entry + ".sig"),
                key: key)
            report.withdrawnScreens += 1
        }
        let whole = manifest.encoded()
        try writeSigned(
            whole, to: output.appendingPathComponent("manifest.json"), signature: output.appendingPathComponent(BundleSignature.fileName),
            key: key)
        report.manifestBytes = whole.count
        report.expires = manifest.expires
    }

    /// The screen of `screens/<entry>` when it is a slice a publication wrote: named `<W>x<H>.json`
    /// (portrait), a manifest of the same app, signed (its `.sig` beside it) under the root the key
    /// publishing now answers to (by that root, or by any key it certified, expired or not). Anything
    /// else in `screens/` is someone else's file, and left alone: nil.
    static func ownSlice(_ entry: String, in folder: URL, app: String, root: Data) -> Manifest.Size? {
        let size = entry.hasSuffix(".json") ? entry.dropLast(5).split(separator: "x", omittingEmptySubsequences: false) : []
        guard size.count == 2, size.allSatisfy({ $0.allSatisfy(\.isASCII) }), let width = Int(size[0]), let height = Int(size[1]), width <= height,
            ScreenSize(width: width, height: height).slicePath == "screens/" + entry,
            let data = readBounded(folder.appendingPathComponent(entry), limit: ReadLimits.manifestBytes),
            let signature = readBounded(folder.appendingPathComponent(entry + ".sig"), limit: ReadLimits.signatureBytes),
            (try? BundleSignature.check(data, signature: String(decoding: signature, as: UTF8.self), root: root, at: nil)) != nil,
            let slice = try? Manifest.decode(from: data), slice.app.bundleID == app
        else { return nil }
        return Manifest.Size(width: width, height: height)
    }

    /// Refuses a tree that is a bundle folder or inside one: a bundle's `manifest.json` has no
    /// serial (a published one always has), and publishing there would rewrite it.
    static func refuseBundleFolders(at output: URL) throws {
        var folder = output.standardizedFileURL
        while true {
            if let data = readBounded(folder.appendingPathComponent("manifest.json"), limit: ReadLimits.manifestBytes),
                let manifest = try? Manifest.decode(from: data), manifest.serial == nil
            {
                throw PublishError.insideBundle(tree: output.path, bundle: folder.path)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return }
            folder = parent
        }
    }

    /// How long a publication holds by default: 14 days (docs/reliability.md, "A pull, and how long it
    /// takes"). An app opened at least once in that time fetches a newer season as long as one is
    /// published at least weekly; a phone that fetches nothing for that long shows its originals.
    package static let defaultValidity: TimeInterval = 14 * 86_400

    /// The serial a publication takes from the clock: `SOURCE_DATE_EPOCH` when it is set (the
    /// reproducible-builds convention; `make bundles` sets it to the commit's time), otherwise now,
    /// in whole seconds since 1970. A `SOURCE_DATE_EPOCH` that is set but empty, or not a whole
    /// number of seconds above 0, is refused: CI meant the commit's time and did not get it, and
    /// the clock's serial would let an old commit's re-run publish an old season that phones take.
    package static func clockSerial(
        environment: [String: String] = ProcessInfo.processInfo.environment, now: Date = Date()
    ) throws(PublishError) -> Int {
        if let text = environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int(text), seconds > 0 else { throw .badSourceDateEpoch(text) }
            return seconds
        }
        return max(1, Int(now.timeIntervalSince1970))
    }

    /// The serial of the manifest already at `output` and the version of the key certificate it
    /// carries; 0 for none.
    package static func heldSerial(in output: URL) throws -> (serial: Int, version: Int) {
        let manifest = try heldManifest(in: output)
        return (manifest?.serial ?? 0, manifest?.keyVersion ?? 0)
    }

    /// The manifest already at `output`, nil when there is none. A tree whose manifest cannot be
    /// read is refused rather than published over.
    package static func heldManifest(in output: URL) throws -> Manifest? {
        let url = output.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = readBounded(url, limit: ReadLimits.manifestBytes) else {
            throw PublishError.unreadableTree(url.path, "not a regular file of at most \(ReadLimits.manifestBytes) bytes")
        }
        do { return try Manifest.decode(from: data) } catch {
            throw PublishError.unreadableTree(url.path, error.description)
        }
    }

    private static func writeSigned(_ data: Data, to url: URL, signature signatureURL: URL, key: SigningKey) throws {
        let signature = try BundleSignature.sign(data, privateKey: key.privateKey)
        try write(data, to: url)
        try write(Data(signature.utf8), to: signatureURL)
    }

    /// Writes through a temporary sibling and a rename: a reader sees the old file or the new one.
    private static func write(_ data: Data, to url: URL) throws {
        do { try data.write(to: url, options: .atomic) } catch {
            throw PublishError.notWritable(FileSystemError(.write, path: url.path, cause: error))
        }
    }
}

/// What `splashgen publish` wrote.
package struct PublishReport: Sendable {
    /// The tree.
    package var tree: URL
    /// The manifest's serial.
    package var serial: Int
    /// The key it is signed with (and its certificate).
    package var signer: SigningKey
    /// Distinct objects.
    package var objects = 0
    /// Their raw and deflated sizes.
    package var rawBytes = 0, deflatedBytes = 0
    /// Screen slices written.
    package var screens = 0
    /// Slices of screens an earlier publication served, written anew with no campaign.
    package var withdrawnScreens = 0
    /// Objects (raw or deflated) the tree held damaged, written anew.
    package var repairedObjects = 0
    /// Objects of earlier publications whose bytes do not match their name; this bundle does not
    /// hold them, so they stay as they are (a phone refuses them by their hash).
    package var damagedObjectsLeft: [String] = []
    /// The whole manifest's size.
    package var manifestBytes = 0
    /// What changed against the season the tree held (``SeasonDiff``), one line each.
    package var changes: [String] = []
    /// With `--prune`: the object files removed (`objects/<sha256>`, `.deflate`), also listed in
    /// ``Publisher/prunedFile``.
    package var pruned: [String]?
    /// With `--prune`, when nothing could be pruned yet: why, and from when it can.
    package var pruneDeferred: String?
    /// When the publication expires.
    package var expires: Date?

    init(tree: URL, serial: Int, signer: SigningKey) {
        (self.tree, self.serial, self.signer) = (tree, serial, signer)
    }
}

/// Why a bundle could not be published.
package enum PublishError: Error, Equatable, CustomStringConvertible {
    /// `--serial` is not above the tree's.
    case serialNotGreater(requested: Int, held: Int)
    /// The tree's manifest cannot be read, so its serial is unknown.
    case unreadableTree(String, String)
    /// A file of the tree cannot be written.
    case notWritable(FileSystemError)
    /// The tree is a bundle folder, or inside one.
    case insideBundle(tree: String, bundle: String)
    /// A name publish writes in the tree is a symbolic link (publish follows none inside its tree).
    case linkInTree(String)
    /// A name publish writes in the tree holds what publish did not write (`found` says what).
    case notWrittenByPublish(String, found: String)
    /// `SOURCE_DATE_EPOCH` is set, but empty or not a positive whole number of seconds.
    case badSourceDateEpoch(String)
    /// The key's certificate is older than the one the tree is published under: its key is retired.
    case retiredCertificate(version: Int, held: Int)
    /// The bundle holds campaigns withdrawn from the tree and not readmitted.
    case withdrawnCampaigns([String])
    /// `--readmit` names a campaign the tree has not withdrawn.
    case notWithdrawn(String, withdrawn: [String])
    /// `--withdraw` names a campaign the tree does not hold.
    case noSuchCampaign(String, held: [String])
    /// `--withdraw` on a folder with no published manifest.
    case nothingPublished(String)
    /// `--withdraw` on a tree whose manifest is not signed under this key's root.
    case notOwnTree(String, String)
    /// `--prune` before the tree's record reaches back a grace period: when it will.
    case cannotPruneYet(String)

    package var description: String {
        switch self {
        case .serialNotGreater(let requested, let held):
            return
                "serial \(requested) is not greater than the \(held) the tree already holds; a phone refuses a serial it has seen (omit --serial to take \(held == Int.max ? "none: the serial is exhausted" : String(held + 1)))"
        case .unreadableTree(let path, let detail): return "the tree's \(path) cannot be read (\(detail)); not publishing over it"
        case .notWritable(let failure): return "cannot write \(failure.path): \(failure.reason)"
        case .insideBundle(let tree, let bundle):
            return tree == bundle
                ? "\(tree) is a bundle folder (its manifest has no serial); publish into a folder of its own"
                : "\(tree) is inside the bundle folder \(bundle); publish into a folder of its own"
        case .linkInTree(let path):
            return
                "\(path) is a symbolic link inside the tree; publish follows no link in its tree (put the folder or file itself there, or publish into another tree)"
        case .notWrittenByPublish(let path, let found):
            return "\(path) is \(found), which publish did not write; refusing to replace it (move it away, or publish into another tree)"
        case .badSourceDateEpoch(let text):
            return (text.isEmpty ? "SOURCE_DATE_EPOCH is set but empty" : "SOURCE_DATE_EPOCH is \"\(text)\", not a whole number of seconds since 1970")
                + "; the serial must be the commit's time (git log -1 --format=%ct), or unset SOURCE_DATE_EPOCH to publish at the clock's time"
        case .withdrawnCampaigns(let names):
            let list = names.joined(separator: ", ")
            return
                "\(list) \(names.count == 1 ? "was" : "were") withdrawn from this tree (publish --withdraw): build the season without \(names.count == 1 ? "it" : "them"), or bring \(names.count == 1 ? "it" : "them") back on purpose with --readmit \(names.joined(separator: " --readmit "))"
        case .notWithdrawn(let name, let withdrawn):
            return "--readmit \(name): the tree has not withdrawn it (withdrawn: \(withdrawn.isEmpty ? "none" : withdrawn.joined(separator: ", ")))"
        case .noSuchCampaign(let name, let held):
            return "--withdraw \(name): the tree's season has no such campaign (it holds \(held.isEmpty ? "none" : held.joined(separator: ", ")))"
        case .cannotPruneYet(let when):
            return
                "nothing pruned: the tree's record of what it served (publications.json) does not reach back the grace period, and an object of an unrecorded publication may be one a phone is fetching; prune from \(when) on"
        case .nothingPublished(let path): return "\(path) holds no published season (manifest.json) to withdraw from"
        case .notOwnTree(let path, let reason):
            return "\(path): the season there is not signed under this key's root (\(reason)); withdraw with the key that publishes it"
        case .retiredCertificate(let version, let held):
            return
                "the tree is published under key certificate version \(held), and this key's is version \(version == 0 ? "0 (none)" : String(version)): phones that installed the tree refuse it as signed by a retired key; publish with the key of the newest certificate (docs/reliability.md, \"Keys\")"
        }
    }
}
