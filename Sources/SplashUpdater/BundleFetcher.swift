import Foundation
@_spi(Testing) import SplashApplier
import SplashFormat

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Brings a published season (`splashgen publish`) to the phone: this screen's signed slice, then
/// only the objects it needs, installed as a bundle folder the applier reads.
///
/// A fetch, in four steps:
/// 1. it takes its folder and the folder's lock (one fetch at a time);
/// 2. it asks for `screens/<W>x<H>.json` with the ETag it holds (a 304 costs next to nothing),
///    checks the signature against the pinned key before reading anything else, and refuses another
///    app's manifest, another screen's, and any serial lower than the one installed (an old
///    campaign replayed);
/// 3. it downloads each missing object as raw DEFLATE into `staging/`, checking its size before and
///    its hash, header and pixel size after inflating;
/// 4. the finished bundle replaces `bundle/` by rename: the applier sees the old bundle or the new
///    one, never a mix. A fetch cut short keeps the objects
/// it verified, and the next one goes on from there. Transport failures, timeouts and 5xx answers
/// are retried a bounded number of times with back-off; nothing else is.
public struct BundleFetcher: Sendable {
    /// The published tree's URL (the folder holding `manifest.json`, `screens/`, `objects/`).
    public var base: URL
    /// Where bundles are kept (in an app: `Library/Application Support/splashgen/downloads`).
    public var folder: URL
    /// The screen's size in pixels (the scene's `screen.bounds.size × scale`: with Display Zoom, the
    /// zoomed one; for an iPhone app on an iPad, the iPhone's it is shown as).
    public var screen: ScreenSize
    /// The appearances the app's cache holds (only `light` for a light-only app).
    public var appearances: Set<Appearance> = [.light, .dark]
    /// The key the app pins; accepting unsigned manifests is the CLI's unverified fetch, which says so.
    public var trust: BundleTrust
    /// The app's bundle identifier; a manifest for another app is refused. Nil takes the manifest's.
    public var bundleID: String?
    /// How many times a request is tried in all (at least 1).
    public var attempts = 3
    /// The wait before the first retry, in seconds; each further one waits twice as long, up to
    /// ``longestBackoff``.
    public var backoff: TimeInterval = 0.5
    /// The longest one request may take, in seconds.
    public var timeout: TimeInterval = 30
    /// The longest the whole fetch may take, in seconds, every request and wait included: past it,
    /// no request is started and the one under way is cut short. The fetch then fails with the
    /// server's last failure, or, when there was none, ``FetchError/timedOut(_:_:)`` naming the
    /// deadline (``FetchError/busy(_:)`` when another fetch held the folder's lock until then).
    public var deadline: TimeInterval = 120
    /// The time a key certificate's expiry is checked against (by default the phone's clock).
    public var clock: @Sendable () -> Date = { Date() }

    /// The longest wait between two tries, however many were made.
    public static let longestBackoff: TimeInterval = 30
    /// The wait after one of `seconds`: twice as long, up to ``longestBackoff``.
    package static func wait(after seconds: TimeInterval) -> TimeInterval { min(seconds * 2, longestBackoff) }

    /// The largest number of seconds ``timeout``, ``deadline`` and ``backoff`` may be set to (a day).
    public static let longestSeconds: TimeInterval = 86_400

    /// What is wrong with the fetcher's numbers, if anything: seconds must be finite, above 0 (the
    /// back-off may be 0) and at most a day; attempts at least 1. ``fetch()`` refuses to start
    /// with such numbers (``FetchError/badParameter(_:_:)``), the command line calls it a usage error.
    public var parameterProblem: FetchError? {
        for (name, value, zeroAllowed) in [("timeout", timeout, false), ("deadline", deadline, false), ("backoff", backoff, true)]
        where !(value.isFinite && (zeroAllowed ? value >= 0 : value > 0) && value <= Self.longestSeconds) {
            let range = zeroAllowed ? "0 to" : "above 0 and at most"
            return .badParameter(name, "must be a number of seconds \(range) \(Int(Self.longestSeconds)); found \(value)")
        }
        if attempts < 1 { return .badParameter("attempts", "must be at least 1; found \(attempts)") }
        return nil
    }

    /// Makes a fetcher.
    public init(base: URL, folder: URL, screen: ScreenSize, trust: BundleTrust, bundleID: String?) {
        self.base = base
        self.folder = folder
        self.screen = screen
        self.trust = trust
        self.bundleID = bundleID
    }

    /// Where a completed fetch installs its bundle.
    public var installed: URL { folder.appendingPath("bundle") }

    /// The bundle to give the applier: the installed one, or, in the instant between an install's two
    /// renames, the one it replaces; nil before any fetch has completed.
    public var current: URL? {
        [installed, previous].first { exists($0.appendingPath("manifest.json")) }
    }
    private var staging: URL { folder.appendingPath("staging") }
    private var previous: URL { folder.appendingPath("bundle.old") }
    /// The slice's path below `base`.
    public var slicePath: String { screen.slicePath }

    /// Fetches and installs what is new, off the caller's thread.
    /// Cancelling the task that awaits it ends it promptly: a transfer under way is cancelled, a wait
    /// between tries or for another fetch's lock on the folder cut short, and nothing is installed
    /// (``FetchError/cancelled(_:)``); once the install has begun it finishes.
    public func fetch() async throws(FetchError) -> FetchReport {
        let fetcher = self
        let work = Task.detached(priority: .utility) { () -> Result<FetchReport, FetchError> in
            do throws(FetchError) { return .success(try await fetcher.run()) } catch { return .failure(error) }
        }
        let result = await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
        return try result.get()
    }

    /// Throws ``FetchError/cancelled(_:)`` when the fetch's task was cancelled.
    private func checkCancelled() throws(FetchError) {
        if Task.isCancelled { throw .cancelled(folder.path) }
    }

    private func run() async throws(FetchError) -> FetchReport {
        if let parameterProblem { throw parameterProblem }
        var fetcher = self
        fetcher.ends = DispatchTime.now().uptimeNanoseconds + UInt64(deadline * 1e9)
        return try await fetcher.runWithinDeadline()
    }

    /// When the whole fetch must be over, on the monotonic clock (set when it starts).
    private var ends: UInt64 = .max

    /// Seconds left before ``deadline``.
    private var secondsLeft: TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= ends ? 0 : Double(ends - now) / 1e9
    }

    private func runWithinDeadline() async throws(FetchError) -> FetchReport {
        // 1.
        let lock = try await takeFolder()
        defer { withExtendedLifetime(lock) {} }
        let fetcher = self
        try await BlockingWork.run { () throws(FetchError) in try fetcher.prepareFolder() }
        var report = FetchReport(installed: installed)
        // 2.
        let slice = try await newSlice(report: &report)
        report.serial = slice.serial
        // 3.
        let needed = try objects(of: slice.manifest)
        if needed.isEmpty, !slice.manifest.campaigns.isEmpty { report.campaignsWithoutThisScreen = slice.manifest.campaigns.map(\.id) }
        let installedObjects = installed.appendingPath("objects")
        let allInstalled = await BlockingWork.run { needed.values.allSatisfy { fetcher.sizeOf(installedObjects.appendingPath($0.object)) == $0.bytes } }
        if slice.unchanged, allInstalled {
            if slice.etag != slice.held?.etag { try await writeFile(Data((slice.etag ?? "").utf8), to: installed.appendingPath("etag")) }
            report.notModified = true
            return report
        }
        try await stage(needed, report: &report)
        // 4.
        try await complete(slice, keeping: needed)
        report.campaigns = slice.manifest.campaigns.map(\.id)
        report.installedNew = true
        return report
    }

    /// Step 1: the folder, made if need be (it is the app's to name; everything below it is reached
    /// from it, no link followed), and its lock: one fetch at a time per folder (the app's launch
    /// and a background refresh may overlap).
    private func takeFolder() async throws(FetchError) -> ApplierLock {
        let folder = folder
        try await BlockingWork.run { () throws(FetchError) in
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw .fileSystem(FileSystemError(.makeFolder, path: folder.path, cause: error))
            }
            var info = stat()
            if lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { throw .symbolicLink(folder.path) }
        }
        let (lockURL, timeout, root) = (folder.appendingPath("lock"), min(timeout, secondsLeft), folder)
        do throws(ApplierError) {
            // Waited for no longer than the fetch's deadline allows, and no longer once cancelled.
            return try await BlockingWork.run { (cancellation) throws(ApplierError) in
                try ApplierLock(at: lockURL, in: POSIXFileSystem(root: root), timeout: timeout, cancellation: cancellation)
            }
        } catch {
            // Busy only when another fetch holds it; a lock that cannot be made or taken says why.
            throw FetchError(error, .lock, lockURL, in: folder)
        }
    }

    /// What step 2 found: the slice's manifest and bytes, its ETag and signature, the bundle held
    /// before (when it is this app's, for this screen and these appearances), and whether the slice
    /// is that bundle's.
    private struct Slice {
        var manifest: Manifest, body: Data, etag: String?, signature: String?, serial: Int
        /// Its key certificate's version (0 without one) and serial: what phones rank seasons by.
        var rank: Rank { Rank(version: manifest.keyVersion, serial: serial) }
        var held: Held?
        var unchanged: Bool
    }

    /// Step 2: this screen's slice, signature checked, and refused unless it is this app's, signed
    /// for this screen, published (a serial), and not ranked below the highest rank ever installed
    /// here (kept outside `bundle/`, so a bundle deleted or damaged does not open the door to an
    /// older manifest). The rank is the key certificate's version, then the serial: a season under
    /// an older certificate is signed by a retired key, whatever its serial.
    private func newSlice(report: inout FetchReport) async throws(FetchError) -> Slice {
        // The installed manifest (up to 8 MiB) is read and decoded on the queue for blocking work.
        let fetcher = self
        let (held, highWater) = await BlockingWork.run { (fetcher.heldBundle(), fetcher.highWater()) }
        let heldRank = held.flatMap {
            $0.manifest.app.bundleID == bundleID || bundleID == nil ? Rank(version: $0.manifest.keyVersion, serial: $0.manifest.serial ?? 0) : nil
        }
        let floor = max(highWater, heldRank ?? Rank(version: 0, serial: 0))
        // Revalidated only when it is this app's slice for this screen and these appearances.
        let current = held.flatMap { $0.fetchedFor == fetchedFor && (bundleID == nil || $0.manifest.app.bundleID == bundleID) ? $0 : nil }
        try checkCancelled()
        let (body, etag, signatureText) = try await slice(revalidating: current, report: &report)
        let manifest = try await BlockingWork.run { () throws(FetchError) -> Manifest in
            do throws(ManifestError) { return try Manifest.decode(from: body) } catch {
                switch error {
                case .newerSchema(let found, let supported): throw .badBundle(.newerSchema(found: found, supported: supported))
                case .malformed(let detail): throw .badBundle(.malformedManifest(detail))
                }
            }
        }
        if let bundleID, manifest.app.bundleID != bundleID { throw .badBundle(.otherApp(expected: bundleID, found: manifest.app.bundleID)) }
        // Signed for this screen, inside the signature: another screen's valid slice served here
        // would install a bundle with nothing for this screen, and the phone would lose its campaign.
        let portrait = screen.portrait
        guard manifest.screen == portrait else {
            let found = manifest.screen.map { "\($0.width)x\($0.height)" } ?? "no one screen (a whole manifest)"
            throw .badBundle(.otherScreen(expected: "\(portrait.width)x\(portrait.height)", found: found))
        }
        guard let serial = manifest.serial else { throw .notPublished }
        // A season past its expiry (a stale CDN, a replay) would show nothing: the one installed stays.
        if let until = manifest.validUntil, until <= clock() { throw .expired(until) }
        let unchanged = current.map { $0.data == body } ?? false
        let rank = Rank(version: manifest.keyVersion, serial: serial)
        if rank.version < floor.version { throw .retiredKey(version: rank.version, held: floor.version) }
        if rank < floor || (rank == floor && current != nil && !unchanged) { throw .replayed(serial: serial, held: floor.serial) }
        return Slice(manifest: manifest, body: body, etag: etag, signature: signatureText, serial: serial, held: current, unchanged: unchanged)
    }

    /// Step 3's list: the objects this screen needs (its size either way round, and the windows of it
    /// an iPad caches, docs/ios-launch-cache.md §1; the appearances the app has), by name; a name
    /// becomes a path and a URL, so only a SHA-256 in hex is one.
    private func objects(of manifest: Manifest) throws(FetchError) -> [String: Manifest.Snapshot] {
        var needed: [String: Manifest.Snapshot] = [:]
        for snapshot in manifest.campaigns.flatMap(\.snapshots)
        where appearances.contains(snapshot.appearance) && snapshot.sliceScreen == screen.portrait {
            guard isObjectName(snapshot.object) else { throw .badBundle(.notAnObjectName(snapshot.object)) }
            needed[snapshot.object] = snapshot
        }
        return needed
    }

    /// Step 3: each needed object in `staging/objects`: kept from staging or the installed bundle
    /// when it verifies, downloaded as DEFLATE otherwise (its size checked before, its hash, header
    /// and pixel size after inflating). The reads, hashes and decodes run on the library's own
    /// queue, never the cooperative pool; only the downloads are awaited here.
    private func stage(_ needed: [String: Manifest.Snapshot], report: inout FetchReport) async throws(FetchError) {
        let stagedObjects = staging.appendingPath("objects"), installedObjects = installed.appendingPath("objects")
        let fetcher = self
        try await BlockingWork.run { () throws(FetchError) in
            try fetcher.makeFolder(stagedObjects)
            try fetcher.refuseLink(stagedObjects)
        }
        let contained = contained
        for name in needed.keys.sorted() {
            guard let snapshot = needed[name] else { continue }
            try checkCancelled()
            let target = stagedObjects.appendingPath(name)
            let installedObject = installedObjects.appendingPath(name)
            let kept = await BlockingWork.run { () -> (staged: Bool, installed: Data?) in
                if SnapshotBundle.check(snapshot, data: readBounded(target, limit: snapshot.bytes, within: contained)) == nil { return (true, nil) }
                let data = readBounded(installedObject, limit: snapshot.bytes, within: contained)
                return (false, data.flatMap { SnapshotBundle.check(snapshot, data: $0) == nil ? $0 : nil })
            }
            if kept.staged || kept.installed != nil {
                if let data = kept.installed { try await writeFile(data, to: target) }
                report.objectsKept += 1
                continue
            }
            guard let deflated = snapshot.deflated else { throw .notPublished }
            let path = "objects/\(name).deflate"
            let response = try await get(path, limit: deflated, etag: nil, report: &report)
            guard response.status == 200 else { throw .httpStatus(url(path).absoluteString, response.status) }
            guard response.body.count == deflated else {
                throw .badObject(name, "\(response.body.count) bytes arrived; the manifest says \(deflated)")
            }
            let body = response.body
            let data = try await BlockingWork.run { () throws(FetchError) -> Data in
                let data: Data
                do throws(DeflateError) { data = try Deflate.inflate(body, expectedSize: snapshot.bytes) } catch { throw .badObject(name, error.description) }
                if let problem = SnapshotBundle.check(snapshot, data: data) { throw .badBundle(problem) }
                return data
            }
            try await writeFile(data, to: target)
            report.objectsDownloaded += 1
        }
    }

    /// Step 4: only what this bundle names stays staged; the signature, ETag and what it was fetched
    /// for go in, the manifest last; the staging folder replaces the bundle (the last point a
    /// cancellation stops it: from the install on, it finishes); then the serial is recorded.
    private func complete(_ slice: Slice, keeping needed: [String: Manifest.Snapshot]) async throws(FetchError) {
        let stagedObjects = staging.appendingPath("objects")
        let fetcher = self
        try await BlockingWork.run { () throws(FetchError) in
            for entry in fetcher.contained.listing(stagedObjects)
            where needed[entry] == nil && (isObjectName(entry) || entry.hasSuffix(".partial")) {
                try fetcher.remove(stagedObjects.appendingPath(entry))
            }
        }
        if let signature = slice.signature { try await writeFile(Data(signature.utf8), to: staging.appendingPath(BundleSignature.fileName)) }
        try await writeFile(Data((slice.etag ?? "").utf8), to: staging.appendingPath("etag"))
        try await writeFile(Data(fetchedFor.utf8), to: staging.appendingPath("fetched-for"))
        try await writeFile(slice.body, to: staging.appendingPath("manifest.json"))
        try checkCancelled()
        try await BlockingWork.run { () throws(FetchError) in try fetcher.install() }
        // After the install: a failed one must not make its own serial look replayed. A kill in between
        // leaves the installed bundle's rank, which counts too.
        if slice.rank > highWater() { try await writeFile(Data(slice.rank.text.utf8), to: folder.appendingPath("serial")) }
    }

    /// What a bundle was fetched for: the slice and the appearances. Another screen (Display Zoom
    /// turned on or off) or other appearances is fetched anew rather than revalidated.
    private var fetchedFor: String { slicePath + " " + appearances.map(\.rawValue).sorted().joined(separator: ",") }

    /// The slice's bytes, ETag and signature: the installed ones when the server answers 304 to
    /// `current`'s ETag, otherwise downloaded, the signature checked before anything else reads them.
    /// A signature that does not verify is fetched once more with its slice (a publication may have
    /// landed between the two requests).
    private func slice(revalidating current: Held?, report: inout FetchReport) async throws(FetchError) -> (Data, String?, String?) {
        var again = true
        while true {
            let slice = try await get(slicePath, limit: ReadLimits.manifestBytes, etag: current?.etag, report: &report)
            if slice.status == 304, let current { return (current.data, current.etag, current.signature) }
            guard slice.status == 200 else { throw .httpStatus(url(slicePath).absoluteString, slice.status) }
            guard let trustedKey = trust.key else { return (slice.body, slice.etag, nil) }
            let signature = try await get(slicePath + ".sig", limit: ReadLimits.signatureBytes, etag: nil, report: &report)
            guard signature.status == 200 else { throw .httpStatus(url(slicePath + ".sig").absoluteString, signature.status) }
            let text = String(decoding: signature.body, as: UTF8.self)
            do throws(BundleProblem) {
                report.signer = try BundleSignature.check(slice.body, signature: text, root: trustedKey, at: clock())
            } catch {
                if again { again = false; continue }
                throw .badBundle(error)
            }
            return (slice.body, slice.etag, text)
        }
    }

    /// An installed bundle as the fetcher reads it.
    private struct Held: Sendable {
        var manifest: Manifest
        var data: Data
        var etag: String?
        var signature: String?
        var fetchedFor: String
    }

    /// The installed bundle, when one is installed and its manifest reads.
    private func heldBundle() -> Held? {
        guard let data = readBounded(installed.appendingPath("manifest.json"), limit: ReadLimits.manifestBytes, within: contained),
            let manifest = try? Manifest.decode(from: data)
        else { return nil }
        func text(_ name: String) -> String? {
            readBounded(installed.appendingPath(name), limit: 4096, within: contained).map { String(decoding: $0, as: UTF8.self) }.flatMap {
                $0.isEmpty ? nil : $0
            }
        }
        return Held(manifest: manifest, data: data, etag: text("etag"), signature: text(BundleSignature.fileName), fetchedFor: text("fetched-for") ?? "")
    }

    /// The highest rank installed here so far (0 and 0 before the first).
    private func highWater() -> Rank {
        readBounded(folder.appendingPath("serial"), limit: 64, within: contained).flatMap { Rank(String(decoding: $0, as: UTF8.self)) }
            ?? Rank(version: 0, serial: 0)
    }

    /// How seasons are ordered on a phone: by the version of the key certificate they carry, then by
    /// serial. Kept in the folder's `serial` file as `<serial>` (no certificate, as before
    /// certificates existed) or `<serial> <version>`.
    struct Rank: Comparable, Sendable {
        var version: Int, serial: Int

        static func < (a: Rank, b: Rank) -> Bool { (a.version, a.serial) < (b.version, b.serial) }

        init(version: Int, serial: Int) { (self.version, self.serial) = (version, serial) }

        init?(_ text: String) {
            let parts = text.split(separator: " ").map { Int($0) }
            guard (1...2).contains(parts.count), let serial = parts[0], let version = parts.count == 2 ? parts[1] : 0 else { return nil }
            (self.version, self.serial) = (version, serial)
        }

        var text: String { version == 0 ? String(serial) : "\(serial) \(version)" }
    }

    /// Finishes an install a kill interrupted between its two renames, and refuses links where the
    /// fetcher reads, writes or deletes. The folder is excluded from iCloud backup: it can be fetched again.
    private func prepareFolder() throws(FetchError) {
        SnapshotApplier.excludeFromBackup(folder)
        // The serial kept beside bundle/ too: a link there would read as no serial, and let an old
        // manifest back in.
        for url in [installed, previous, staging, folder.appendingPath("serial")] { try refuseLink(url) }
        if !exists(installed), exists(previous) { try rename(previous, to: installed) }
        if exists(previous) { try remove(previous) }
        if let info = status(staging), info.st_mode & S_IFMT != S_IFDIR { try remove(staging) }
        for url in [installed.appendingPath("objects"), staging.appendingPath("objects")] { try refuseLink(url) }
    }

    /// `staging/` becomes `bundle/`: the old bundle is renamed aside, the new one renamed in, the old
    /// one removed. A kill between the renames is finished by ``prepareFolder()``.
    private func install() throws(FetchError) {
        try syncFolder(staging.appendingPath("objects"))
        try syncFolder(staging)
        if exists(installed) { try rename(installed, to: previous) }
        do { try rename(staging, to: installed) } catch {
            try? rename(previous, to: installed)
            throw error
        }
        try syncFolder(folder)
        try remove(previous)
    }

    /// Throws when `url`, or a folder between the fetcher's folder and it, is a symbolic link: the
    /// fetcher follows none.
    private func refuseLink(_ url: URL) throws(FetchError) {
        let info: stat?
        do { info = try contained.status(of: url) } catch {
            throw FetchError(POSIXFileSystem.applierError(error, root: folder), .open, url, in: folder)
        }
        if let info, info.st_mode & S_IFMT == S_IFLNK { throw .symbolicLink(url.path) }
    }

    /// What is at `url`, links not followed (nil when nothing is, or it cannot be reached).
    private func status(_ url: URL) -> stat? { contained.statusIfReachable(url) }

    private func exists(_ url: URL) -> Bool { status(url) != nil }

    /// The size of a regular file (links not followed), or nil.
    private func sizeOf(_ url: URL) -> Int? {
        status(url).flatMap { $0.st_mode & S_IFMT == S_IFREG ? Int($0.st_size) : nil }
    }

    private func remove(_ url: URL) throws(FetchError) {
        do throws(ApplierError) { try files.remove(url) } catch { throw FetchError(error, .remove, url, in: folder) }
    }

    private func rename(_ source: URL, to target: URL) throws(FetchError) {
        do throws(ApplierError) { try files.rename(source, to: target) } catch { throw FetchError(error, .rename, source, in: folder) }
    }

    private func get(_ path: String, limit: Int, etag: String?, report: inout FetchReport) async throws(FetchError) -> BoundedGET.Response {
        var wait = backoff
        var last: FetchError = .transport(url(path).absoluteString, "not tried")
        for attempt in 1...max(1, attempts) {
            // When the deadline ends the fetch, the last failure stands, or, before any, the deadline.
            let deadlinePassed = attempt > 1 ? last : .timedOut(url(path).absoluteString, deadline)
            if attempt > 1 {
                // A wait that would end past the deadline is not started.
                guard wait < secondsLeft else { throw deadlinePassed }
                do { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) } catch { throw .cancelled(folder.path) }
                wait = Self.wait(after: wait)
                report.retries += 1
            }
            try checkCancelled()
            let allowed = min(timeout, secondsLeft)
            guard allowed > 0 else { throw deadlinePassed }
            report.requests += 1
            switch await BoundedGET.get(url(path), limit: limit, etag: etag, timeout: allowed, progress: progress) {
            case .failure(.timedOut) where allowed < timeout:
                // The deadline, not the server, ended this try.
                throw deadlinePassed
            case .success(let response):
                report.bytesReceived += response.bodyBytes
                return response
            case .failure(let error) where error.isTransient:
                last = error
            case .failure(.cancelled):
                throw .cancelled(folder.path)
            case .failure(let error):
                throw error
            }
        }
        throw last
    }

    private func url(_ path: String) -> URL {
        base.absoluteString.hasSuffix("/")
            ? base.appendingPathComponent(path) : URL(string: base.absoluteString + "/" + path) ?? base.appendingPathComponent(path)
    }

    private func makeFolder(_ url: URL) throws(FetchError) {
        do throws(ApplierError) { try files.makeFolder(url) } catch { throw FetchError(error, .makeFolder, url, in: folder) }
    }

    /// Writes `data` beside `url`, flushes it (`F_FULLFSYNC` on Apple platforms), and renames it
    /// into place: the applier's own durable write, on the queue for blocking work.
    private func writeFile(_ data: Data, to url: URL) async throws(FetchError) {
        let (files, folder) = (files, folder)
        try await BlockingWork.run { () throws(FetchError) in
            do throws(ApplierError) { try files.replace(url, with: data) } catch { throw FetchError(error, .write, url, in: folder) }
        }
    }

    private func syncFolder(_ url: URL) throws(FetchError) {
        do throws(ApplierError) { try files.syncFolder(url) } catch { throw FetchError(error, .syncFolder, url, in: folder) }
    }

    /// Hears of each part of a response body as it arrives: the URL and the body's bytes so far
    /// (tests cut a transfer off mid-body with it, when it is known to be under way).
    @_spi(Testing) public typealias Progress = @Sendable (URL, Int) -> Void
    @_spi(Testing) public var progress: Progress?

    /// Every change below ``folder``, reached from it one folder descriptor at a time (a
    /// fault-injecting one in tests); nil: the real one.
    @_spi(Testing) public var fileSystem: (any ApplierFileSystem)?
    private var files: any ApplierFileSystem { fileSystem ?? POSIXFileSystem(root: folder) }
    /// Every read below ``folder``, reached the same way.
    private var contained: ContainedFolder { ContainedFolder(folder) }
}

/// What a fetch did.
public struct FetchReport: Codable, Equatable, Sendable {
    /// The bundle folder to give the applier.
    public var installed: URL
    /// The serial now installed (nil when nothing is).
    public var serial: Int?
    /// The server had nothing new (a 304, or the same serial).
    public var notModified = false
    /// A new bundle was installed.
    public var installedNew = false
    /// The signature was checked against a pinned key.
    public var signatureChecked: Bool { signer != nil }
    /// Who signed the slice (the key, and the root's certificate of it), when a pinned key checked it.
    package var signer: BundleSignature.Signer?
    /// The campaigns of the installed slice.
    public var campaigns: [String] = []
    /// Campaigns with no snapshot for this screen (every one, when the slice holds none).
    public var campaignsWithoutThisScreen: [String] = []
    /// Objects downloaded, and kept from an earlier fetch or the installed bundle.
    public var objectsDownloaded = 0, objectsKept = 0
    /// HTTP requests made, retries among them, and body bytes received.
    public var requests = 0, retries = 0, bytesReceived = 0

    init(installed: URL) {
        self.installed = installed
    }
}

/// Why a fetch did not install a bundle. Whatever it is, the installed bundle is as it was.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The connection failed or closed early.
    case transport(String, String)
    /// The request took longer than allowed.
    case timedOut(String, TimeInterval)
    /// The server answered with a status other than 200 or 304.
    case httpStatus(String, Int)
    /// The server sent more than the manifest allows.
    case tooLarge(String, Int)
    /// The manifest or an object failed a check (signature, app, schema, hash, header, pixel size).
    case badBundle(BundleProblem)
    /// A downloaded object's bytes do not inflate as stated.
    case badObject(String, String)
    /// The manifest's serial is lower than the installed one's (or equal with other bytes): a replay.
    case replayed(serial: Int, held: Int)
    /// The slice's key certificate is older than one a season installed here carried: it is signed
    /// by a retired key.
    case retiredKey(version: Int, held: Int)
    /// The season served expired at this date (its `expires`, or its key certificate's): the server
    /// has not been published to since.
    case expired(Date)
    /// The manifest was not written by `splashgen publish` (no serial or no deflated sizes).
    case notPublished
    /// A local file operation failed: which, on what path, and the system's error number.
    case fileSystem(FileSystemError)
    /// A path below the fetcher's folder (or the folder itself) is a symbolic link: none is followed.
    case symbolicLink(String)
    /// A number the fetcher was given cannot be used (``BundleFetcher/parameterProblem``).
    case badParameter(String, String)
    /// Another fetch into the same folder held it for longer than the timeout, or than the deadline
    /// left (and only that: a lock that cannot be taken for another reason is ``fileSystem(_:)`` or
    /// ``symbolicLink(_:)``).
    case busy(String)
    /// The task awaiting the fetch was cancelled before the install: the installed bundle is as it
    /// was (objects already verified stay staged for the next fetch).
    case cancelled(String)

    /// The file system's failure under the fetcher's `folder`, in `operation` on `url`, as the
    /// fetcher's error: the cause kept as it is (a path named once), a link as a link, busy only
    /// when another holds the lock.
    init(_ error: ApplierError, _ operation: FileSystemError.Operation, _ url: URL, in folder: URL) {
        switch error {
        case .fileSystem(let failure): self = .fileSystem(failure)
        case .symbolicLink(let path): self = .symbolicLink(folder.appendingPath(path).path)
        case .busy: self = .busy(folder.path)
        case .cancelled: self = .cancelled(folder.path)
        case .badBundle(let problem): self = .badBundle(problem)
        case .noContainer, .badParameter: self = .fileSystem(FileSystemError(operation, path: url.path, cause: error))
        }
    }

    /// Whether trying again may help.
    var isTransient: Bool {
        switch self {
        case .transport, .timedOut: return true
        case .httpStatus(_, let status): return (500...599).contains(status)
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .transport(let url, let detail): return "\(url): \(detail)"
        case .timedOut(let url, let seconds): return "\(url): no complete answer within \(seconds) s"
        case .httpStatus(let url, let status): return "\(url): HTTP \(status)\(status == 404 ? " (is this screen in the season? was it published there?)" : "")"
        case .tooLarge(let url, let limit): return "\(url): more than the \(limit) bytes allowed"
        case .badBundle(let problem): return "bad bundle: \(problem)"
        case .badObject(let name, let detail): return "object \(name): \(detail)"
        case .cancelled(let folder): return "\(folder): the fetch was cancelled before it installed anything; the installed bundle is as it was"
        case .replayed(let serial, let held): return "the server offers serial \(serial) but serial \(held) is installed: an older manifest replayed, refused"
        case .expired(let date):
            return
                "the season served expired at \(ScheduleTime.written(date, in: nil)): nothing newer has been published (publish again, within --valid-for days), refused"
        case .retiredKey(let version, let held):
            return
                "the server offers a season signed under key certificate version \(version), but one under version \(held) is installed here: signed by a retired key, refused"
        case .badParameter(let name, let reason): return "\(name) \(reason)"
        case .notPublished: return "the manifest was not written by splashgen publish (no serial or no deflated sizes)"
        case .fileSystem(let error): return error.description
        case .symbolicLink(let path): return "\(path): is a symbolic link; the fetcher follows none"
        case .busy(let path): return "another fetch into \(path) is under way"
        }
    }
}

extension InterfaceStyle {
    /// The appearances the OS caches for an app of this style (iOS 13 and later): what to fetch.
    public var appearances: Set<Appearance> {
        switch self {
        case .light: return [.light]
        case .dark: return [.dark]
        case .automatic: return [.light, .dark]
        }
    }
}
