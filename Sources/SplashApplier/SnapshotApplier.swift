import Foundation
import SplashFormat

#if canImport(os)
import os
#endif

/// Swaps an app's cached launch snapshots for a campaign's, keeps the originals, puts them back when
/// the campaign ends, and re-applies after the OS renders the cache anew. Foundation and hashing
/// only, so the same source runs in an iOS app and on Linux. Call it after launch, off the main
/// thread (or through the `async` entry points).
///
/// A run surveys the disk (`CacheSurvey`), plans what each file should hold (`ApplyPlanner`),
/// and carries the plan out journaled (`PlanExecutor`), which verifies every object's bytes as it
/// stages them, before anything else is written (its hash always; its blocks decoded whole once per
/// container, `ApplierState.verified`). Every byte it
/// reads — cache files, state, bundle — is treated as hostile: it never traps, never writes outside
/// the container, never follows a link, and names every problem in its report.
public struct SnapshotApplier: Sendable {
    /// The app's data container (`NSHomeDirectory()` in the app). It must exist.
    public var container: URL
    /// The bundle folder (`manifest.json` + `objects/`); `restore` works without one.
    public var bundle: URL?
    /// `CFBundleShortVersionString`.
    public var appVersion: String
    /// `CFBundleVersion`.
    public var appBuild: String
    /// The running iOS version (decides where the snapshots live and how they may be written).
    public var osVersion: OSVersion
    /// Reads pixels of cached files when they must be classified.
    public var decoder: any SnapshotPixelDecoder
    /// The current time.
    public var clock: @Sendable () -> Date
    /// Which bundles are accepted: those signed by the pinned key (an unsigned or tampered one is
    /// refused and nothing changes), or, by explicit choice, unsigned ones too.
    public var trust: BundleTrust
    /// The app's `UIUserInterfaceStyle`: a light-only or dark-only app needs no guess.
    public var interfaceStyle: InterfaceStyle = .automatic
    /// For an app whose launch screen is the Info.plist `UILaunchScreen` dictionary: its background
    /// colour in each appearance, as the app resolves it (`UIColor(named:)` of its `UIColorName`
    /// in a light and a dark trait collection; `forThisApp(bundle:trust:screenScale:)` does on iOS). The
    /// classifier tells each cached file's appearance by it where the bundle describes a
    /// `UILaunchScreen` app (or there is no bundle); a bundle that describes a storyboard's marker
    /// is read by its marker. Nil: by the bundle's description alone.
    public var launchScreenColors: LaunchScreenColors?
    /// The app's bundle identifier (`Bundle.main.bundleIdentifier`); when nil, the one whose launch
    /// folder the container holds. A bundle for another app is refused.
    public var appBundleID: String?
    /// How long to wait for another applier working on the same container, in seconds: finite,
    /// 0 to ``longestLockWait``, or the run is refused with ``ApplierError/badParameter(_:_:)``.
    public var lockTimeout: TimeInterval = 10
    /// `UIScreen.main.scale`: with it, a screen the bundle lacks is reported in exact points
    /// (``ApplyReport/Screen``); without it, the scale is inferred from the pixels where only one fits.
    public var screenScale: Int?
    /// The longest ``lockTimeout`` may be: an app's launch path never waits longer.
    public static let longestLockWait: TimeInterval = 60
    /// Receives the outcome of every run (`apply`, `restore`, `status`), its report or its error, on
    /// the run's own thread, before the call returns: an app logs what its cache held at this cold
    /// launch (``ApplyReport/heldAtLaunch``) with its own analytics. The library makes no network call
    /// for it. On Apple platforms every outcome also goes to the unified log (`os_log`,
    /// subsystem `splashgen`, category `applier`), at the `info` level.
    public var outcome: (@Sendable (Result<ApplyReport, ApplierError>) -> Void)?
    /// This install's rollout draw, 0 to 9,999 (`Manifest.Campaign.rollsOut(toBucket:)`); nil: the
    /// one drawn at random the first time a bundle had a campaign with a `rollout`, and kept in
    /// `Library/Application Support/splashgen/rollout-draw`. It never leaves the phone: it is no
    /// device identifier, and nothing is sent anywhere.
    public var rolloutDraw: Int?
    /// The phone's first preferred language, a BCP 47 tag (`Locale.preferredLanguages.first`), for
    /// campaigns that `match:` languages; nil: such campaigns are not shown.
    public var language: String?
    /// The phone's region, ISO 3166 (`Locale.current.region`), for campaigns that `match:` regions.
    public var region: String?
    /// `iphone` or `ipad` (`UIDevice.current.userInterfaceIdiom`), for campaigns that `match:` devices.
    public var deviceFamily: String?
    /// Where every change goes (a fault-injecting one in tests); nil: the real one, below the container.
    @_spi(Testing) public var fileSystem: (any ApplierFileSystem)?
    /// The file system every change of a run goes through.
    private var files: any ApplierFileSystem { fileSystem ?? POSIXFileSystem(root: container) }

    /// Makes an applier for one container.
    public init(
        container: URL, bundle: URL?, appVersion: String, appBuild: String, osVersion: OSVersion,
        decoder: any SnapshotPixelDecoder, trust: BundleTrust, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.trust = trust
        self.container = container
        self.bundle = bundle
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.osVersion = osVersion
        self.decoder = decoder
        self.clock = clock
    }

    /// Brings the cache to what the bundle wants now: the campaign in force, or the originals.
    public func apply() throws(ApplierError) -> ApplyReport { try run(.apply) }

    /// `apply()` off the caller's thread, for an app's launch path: on a queue of its own, since
    /// it flushes files and may wait for the lock. Cancelling the task that awaits it, before the run
    /// has changed anything (it is still starting, or waiting for another applier's lock), ends it
    /// with ``ApplierError/cancelled`` and the container as it was; a run that has begun changing the
    /// cache finishes, since it is journaled to end whole.
    public func apply() async throws(ApplierError) -> ApplyReport { try await runCancellable(.apply) }

    /// `restore(fromBackups:)` off the caller's thread, cancellable as `apply()` is.
    public func restore(fromBackups: Bool = false) async throws(ApplierError) -> ApplyReport {
        try await runCancellable(fromBackups ? .restoreFromBackups : .restore)
    }

    /// `status()` off the caller's thread, cancellable as `apply()` is.
    public func status() async throws(ApplierError) -> ApplyReport { try await runCancellable(.status) }

    /// One run on the blocking-work queue, told when the awaiting task is cancelled.
    private func runCancellable(_ mode: Mode) async throws(ApplierError) -> ApplyReport {
        let applier = self
        return try await BlockingWork.run { (cancellation) throws(ApplierError) in try applier.run(mode, cancellation: cancellation) }
    }

    /// Puts every original back, byte for byte. `fromBackups` ignores the state file and rebuilds
    /// the records from what is on disk and the backups (for a damaged or lost state).
    public func restore(fromBackups: Bool = false) throws(ApplierError) -> ApplyReport {
        try run(fromBackups ? .restoreFromBackups : .restore)
    }

    /// What `apply` would do, changing nothing: the plan, not carried out.
    public func status() throws(ApplierError) -> ApplyReport { try run(.status) }

    enum Mode { case apply, restore, restoreFromBackups, status }

    /// One run, in steps:
    /// 1. the parameters are checked, and the container and the bundle's manifest located (its
    ///    bytes hashed, not parsed);
    /// 2. the container's lock is taken (not by `status`), then the cache surveyed, a killed run's
    ///    temporary files removed from the OS's folder;
    /// 3. the launch path: when the state is settled for this key, manifest and time, nothing else
    ///    is read (one state file, one listing, the manifest's hash);
    /// 4. what the bundle wants now: the campaign in force (none when restoring), when that next
    ///    changes, and why the others are not shown;
    /// 5. the records: the saved ones while the key holds, otherwise made anew;
    /// 6. the plan (``ApplyPlanner``), which `status` reports as it is;
    /// 7. the plan carried out, journaled (``PlanExecutor``), and reported.
    private func run(_ mode: Mode, cancellation: Cancellation? = nil) throws(ApplierError) -> ApplyReport {
        var held: [String: String]?
        let result: Result<ApplyReport, ApplierError>
        do throws(ApplierError) {
            var report = try steps(mode, cancellation: cancellation, held: &held)
            if let held {
                for index in report.files.indices { report.files[index].held = held[report.files[index].name] }
                report.heldAtLaunch = ApplyReport.summary(of: Array(held.values))
            }
            result = .success(report)
        } catch {
            result = .failure(error)
        }
        Self.log(result, mode: mode)
        outcome?(result)
        return try result.get()
    }

    /// The steps of one run; `held` is set, once the cache is surveyed, to what each file held
    /// before the run changed anything (``held(in:)``).
    private func steps(_ mode: Mode, cancellation: Cancellation?, held: inout [String: String]?) throws(ApplierError) -> ApplyReport {
        // A cancelled run stops before it writes anything, or while it waits for the lock; once it
        // holds the lock it finishes.
        if cancellation?.isCancelled == true { throw .cancelled }
        // 1.
        try checkParameters()
        let now = clock()
        var target = try locate(opening: mode == .status)
        guard let paths = target.paths else {
            return ApplyReport(
                folder: nil, campaign: nil, nextChange: nil, cacheRegenerated: false, nothingToDo: true, files: [],
                problems: [.init(.noLaunchSnapshots, "no launch folder to look in: no bundle names the app, and the container holds no launch folder")])
        }
        // 2.
        let lock = mode == .status ? nil : try takeLock(paths, cancellation: cancellation)
        defer { withExtendedLifetime(lock) {} }
        var survey = try CacheSurvey(paths: paths)
        held = Self.held(in: survey)
        if mode != .status { try removePartials(&survey) }
        if survey.names.count > CacheSurvey.mostSnapshots {
            // Not the OS's cache: what a run reads, and the state records, stay bounded.
            return ApplyReport(
                folder: paths.folder, campaign: nil, nextChange: nil, cacheRegenerated: false, nothingToDo: true, files: [],
                problems: [
                    .init(
                        .tooManySnapshots,
                        "the launch folder holds \(survey.names.count) snapshot files, more than the \(CacheSurvey.mostSnapshots) an app's launch cache ever holds: nothing is read, changed or recorded; delete the folder for iOS to render it again"
                    )
                ])
        }
        // 3.
        if mode == .apply, survey.folderExists, !survey.editingFolderExists, !survey.clearingFolderExists, let saved = survey.saved,
            saved.isSettled(for: key(survey.names), manifestStamp: target.stamp, at: now)
        {
            return report(
                saved, campaign: saved.campaign, nextChange: saved.nextChange, manifest: nil, regenerated: false, noOp: true,
                actions: [:], notes: [:], problems: [], notShown: saved.notShown ?? [])
        }
        // 4.
        let wish = try wish(
            of: &target, paths: paths, restoring: mode == .restore || mode == .restoreFromBackups, drawing: mode != .status, at: now)
        if mode != .status { try finishInterruptedMoves(&survey) }
        var problems = Self.surveyProblems(survey) + wish.problems
        if wish.campaign != nil, !survey.folderExists || survey.names.isEmpty {
            problems.append(.init(.noLaunchSnapshots, Self.noLaunchSnapshots(in: paths.folder, folderExists: survey.folderExists)))
        }
        guard survey.folderExists else {
            return ApplyReport(
                folder: nil, campaign: wish.campaign?.id, nextChange: wish.nextChange, cacheRegenerated: false, nothingToDo: true, files: [],
                problems: problems, notShown: wish.notShown)
        }
        // 5.
        let found = records(
            survey, manifest: wish.manifest, bundle: try target.open(), cue: cue(wish.manifest), fromBackupsOnly: mode == .restoreFromBackups)
        problems += found.problems
        // With no records before it, this run's own reading of the files tells the OS's renders.
        for (name, record) in found.state.files where held?[name] == "unknown" && record.current == record.original { held?[name] = "original" }
        // With no records to trust and no bundle, a cached file cannot be told from a campaign's
        // picture whose original was lost with the records: none is recorded as an original.
        if wish.restoring, wish.manifest == nil, survey.saved == nil || mode == .restoreFromBackups,
            found.backups.contains(where: { $0.value.path == paths.folder + "/" + $0.key })
        {
            problems.append(
                .init(
                    .cannotTellOriginals,
                    "no records of this applier to trust (its first run, or they were lost) and no bundle: the cached files cannot be told from a campaign's pictures, so none is taken for an original and nothing is changed; restore with the bundle"
                ))
            return ApplyReport(
                folder: paths.folder, campaign: nil, nextChange: nil, cacheRegenerated: false, nothingToDo: true, files: [], problems: problems)
        }
        // 6.
        var plan =
            found.clearFolder
            ? ApplyPlan(state: found.state, clearFolder: true)
            : try ApplyPlanner.plan(
                found.state, campaigns: wish.campaigns, bundle: try target.open(), restoring: wish.restoring,
                verifyingBytes: mode == .status, screenScale: screenScale,
                original: { name in Self.original(of: name, in: found, paths: paths) })
        plan.backups = found.backups
        plan.regenerated = found.rekeyed && survey.saved?.key != found.state.key
        problems += plan.problems
        let removed = Dictionary(
            uniqueKeysWithValues: plan.changes.filter(\.remove).compactMap { change in found.state.files[change.name].map { (change.name, $0) } })
        if mode == .status {
            var actions: [String: ApplyReport.Action] = [:]
            for change in plan.changes { actions[change.name] = .wouldChange }
            if plan.clearFolder { for name in survey.names { actions[name] = .wouldChange } }
            return report(
                plan.state, campaign: wish.campaign?.id, nextChange: wish.nextChange, manifest: wish.manifest, regenerated: plan.regenerated,
                noOp: plan.changes.isEmpty && !plan.regenerated && !plan.clearFolder, actions: actions, notes: plan.notes, problems: problems,
                notShown: plan.notShown(besides: wish.notShown), removed: removed)
        }
        // 7.
        return try carryOut(plan, found: found, survey: survey, target: &target, wish: wish, at: now, problems: problems, removed: removed)
    }

    /// Step 1's checks of what the app set, before anything is read.
    private func checkParameters() throws(ApplierError) {
        guard lockTimeout.isFinite, (0...Self.longestLockWait).contains(lockTimeout) else {
            throw .badParameter("lockTimeout", "must be a number of seconds from 0 to \(Int(Self.longestLockWait)); found \(lockTimeout)")
        }
        if let screenScale, !(1...3).contains(screenScale) {
            throw .badParameter("screenScale", "must be UIScreen.scale: 1, 2 or 3; found \(screenScale)")
        }
    }

    /// Step 2's lock: the support folder made (no link on the way, kept out of the device's
    /// backups), then its lock, waited for at most ``lockTimeout``.
    private func takeLock(_ paths: ApplierPaths, cancellation: Cancellation?) throws(ApplierError) -> ApplierLock {
        try paths.checkNoLinks(ApplierPaths.support)
        try files.makeFolder(paths.url(ApplierPaths.support))
        Self.excludeFromBackup(paths.url(ApplierPaths.support))
        return try ApplierLock(
            at: paths.url(ApplierPaths.support + "/lock"), in: POSIXFileSystem(root: container), timeout: lockTimeout, cancellation: cancellation)
    }

    /// Step 2: a killed run's temporary files never stay in the OS's folder, whatever this run does.
    private func removePartials(_ survey: inout CacheSurvey) throws(ApplierError) {
        guard !survey.partials.isEmpty else { return }
        for name in survey.partials { try files.remove(survey.paths.folderURL.appendingPath(name)) }
        try files.syncFolder(survey.paths.folderURL)
        survey.partials = []
    }

    /// What step 4 finds the bundle wants now.
    private struct Wish {
        var manifest: Manifest?
        /// The campaigns in force, highest priority first: each file shows the first with its snapshot.
        var campaigns: [Manifest.Campaign] = []
        var campaign: Manifest.Campaign? { campaigns.first }
        var nextChange: Date?
        var notShown: [ApplyReport.NotShown]
        var restoring: Bool
        /// The season's expiry, when it is past.
        var problems: [ApplyReport.Problem] = []
    }

    /// Step 4: the bundle opened (parsed, its signature checked) and refused when it is another
    /// app's; the campaign in force at `now` for this app version (none when restoring, or once the
    /// season has expired), when that next changes, and why each other campaign is not shown.
    private func wish(of target: inout Target, paths: ApplierPaths, restoring: Bool, drawing: Bool, at now: Date) throws(ApplierError) -> Wish {
        let manifest = try target.open()?.manifest
        if let manifest, manifest.app.bundleID != paths.bundleID {
            throw .badBundle(.otherApp(expected: paths.bundleID, found: manifest.app.bundleID))
        }
        guard !restoring, let manifest else { return Wish(manifest: manifest, notShown: [], restoring: restoring) }
        if let until = manifest.validUntil, until <= now {
            // Nothing of it shows, as at a gap in its schedule; the app's own screen still repairs a
            // black render (it is the app's own look, not a campaign's).
            let when = ScheduleTime.written(until, in: nil)
            return Wish(
                manifest: manifest, campaigns: [], nextChange: nil,
                notShown: manifest.campaigns.map { .init($0.id, .seasonExpired, "its season expired \(when)") }, restoring: false,
                problems: [
                    .init(
                        .seasonExpired,
                        "the season expired \(when) and nothing newer was fetched: no campaign of it is shown, the originals are (a pulled campaign stops here at the latest)"
                    )
                ])
        }
        // Targeting and rollout are decided on the phone: by what it says of itself, and by its own
        // draw (drawn once, when a campaign in force first needs it).
        let phone = Manifest.Match.Phone(language: language, region: region, build: appBuild, os: osVersion, device: deviceFamily)
        // A campaign with art per language shows this phone the art of its language.
        let inForce = manifest.campaigns(inForceAt: now, appVersion: appVersion)
        let matching = inForce.filter { $0.match?.mismatch(phone) == nil }.map { $0.inLanguage(language) }
        let draw = matching.contains { $0.rollout != nil } ? try rolloutDraw(paths, drawing: drawing) : nil
        let campaigns = matching.filter { $0.rollsOut(toBucket: draw) }
        let outside: [ApplyReport.NotShown] = inForce.compactMap { campaign in
            if let mismatch = campaign.match?.mismatch(phone) { return .init(campaign.id, .doesNotMatch, mismatch) }
            guard !campaign.rollsOut(toBucket: draw) else { return nil }
            let share = String(format: "%g", campaign.rollout ?? 100)
            return .init(
                campaign.id, .notInRollout,
                draw == nil
                    ? "rolled out to \(share)% of phones; this phone has not drawn its place yet (apply draws it)"
                    : "rolled out to \(share)% of phones, and this phone's draw is outside them")
        }
        return Wish(
            manifest: manifest, campaigns: campaigns, nextChange: manifest.nextChange(after: now, appVersion: appVersion),
            notShown: outside
                + ApplyPlanner.notShown(manifest, inForce: campaigns.first, at: now, appVersion: appVersion).filter { entry in
                    !outside.contains { $0.campaign == entry.campaign }
                }, restoring: false)
    }

    /// What the survey found wrong: a state that was not trusted.
    private static func surveyProblems(_ survey: CacheSurvey) -> [ApplyReport.Problem] {
        var problems: [ApplyReport.Problem] = []
        if let reason = survey.stateProblem {
            problems.append(.init(.stateRebuilt, "\(reason); the records were rebuilt from the disk and the backups"))
        }
        return problems
    }

    /// Step 7: the plan carried out by the journaled executor, the state settled for what the
    /// bundle wants now (and the objects this run checked whole recorded), and the run reported.
    private func carryOut(
        _ plan: ApplyPlan, found: Records, survey: CacheSurvey, target: inout Target, wish: Wish, at now: Date,
        problems: [ApplyReport.Problem], removed: [String: ApplierState.FileRecord]
    ) throws(ApplierError) -> ApplyReport {
        var problems = problems
        var executor = PlanExecutor(paths: survey.paths, fs: files, bundle: try target.open(), moveFolder: osVersion.major < 13)
        let verified = found.verified.union(found.state.verified ?? [])
        executor.verified = verified
        let stamp = target.stamp
        let (final, met) = try executor.run(plan, before: found.state, previousBackup: survey.saved?.backup) { settled in
            settled.campaign = wish.campaign?.id
            settled.settledAt = now
            settled.nextChange = plan.clearFolder ? nil : wish.nextChange
            // A restore did not carry out the manifest's wish: the next apply must not find it settled.
            settled.manifestStamp = plan.clearFolder || wish.restoring ? nil : stamp
            settled.notShown = plan.clearFolder || wish.restoring ? nil : plan.notShown(besides: wish.notShown)
            // What this run checked whole (or found checked), the objects it staged included, as far
            // as the manifest in use names them: a later swap to them need not decode them again.
            let checked = verified.union(plan.changes.compactMap(\.snapshot?.object))
            let named = Set(wish.manifest?.campaigns.flatMap { $0.snapshots.map(\.object) } ?? [])
            let kept = checked.intersection(named).sorted()
            settled.verified = kept.isEmpty ? nil : kept
        }
        problems += met
        if plan.clearFolder {
            let cleared = survey.names.map {
                ApplyReport.File(
                    name: $0, width: 0, height: 0, orientation: .portrait, appearance: nil,
                    decidedBy: .undecodable, devices: nil, showing: "nothing (cleared)", action: .cleared,
                    note: "another library's leftover or an unbacked replacement")
            }
            return ApplyReport(
                folder: survey.paths.folder, campaign: wish.campaign?.id, nextChange: now, cacheRegenerated: false, nothingToDo: false,
                files: cleared, problems: problems, notShown: wish.notShown)
        }
        var actions: [String: ApplyReport.Action] = [:]
        for change in plan.changes where !met.contains(where: { $0.file == change.name }) {
            actions[change.name] = change.remove ? .removed : change.snapshot == nil ? .restored : .replaced
        }
        return report(
            final, campaign: wish.campaign?.id, nextChange: wish.nextChange, manifest: wish.manifest, regenerated: plan.regenerated,
            noOp: false, actions: actions, notes: plan.notes, problems: problems, notShown: plan.notShown(besides: wish.notShown),
            removed: removed.filter { final.files[$0.key] == nil })
    }

    /// This install's rollout draw: ``rolloutDraw`` when the app set it; else the one kept in the
    /// support folder; else, when `drawing`, one drawn now at random and kept (nil for `status`,
    /// which changes nothing). A kept file that does not read is drawn again.
    private func rolloutDraw(_ paths: ApplierPaths, drawing: Bool) throws(ApplierError) -> Int? {
        if let rolloutDraw { return rolloutDraw }
        let url = paths.url(ApplierPaths.support + "/rollout-draw")
        if let data = readBounded(url, limit: 16, within: paths.contained), let kept = Int(String(decoding: data, as: UTF8.self)),
            (0..<Manifest.Campaign.rolloutPlaces).contains(kept)
        {
            return kept
        }
        guard drawing else { return nil }
        let drawn = Self.drawRollout()
        try files.replace(url, with: Data(String(drawn).utf8), durably: true)
        return drawn
    }

    /// A new install's place in every rollout: uniform over 0 to 9,999, from the system's secure
    /// random source.
    package static func drawRollout<G: RandomNumberGenerator>(using generator: inout G) -> Int {
        Int.random(in: 0..<Manifest.Campaign.rolloutPlaces, using: &generator)
    }

    /// ``drawRollout(using:)`` with the system's generator.
    package static func drawRollout() -> Int {
        var generator = SystemRandomNumberGenerator()
        return drawRollout(using: &generator)
    }

    /// What each cached file held when the run began, so at the cold launch that ran it: from this
    /// applier's records of what it last put in each file, which hold only while the cache holds
    /// exactly the recorded files (their names are the state's key, and the OS names every render
    /// anew); `original`, or the campaign's id. A file the records do not know is the OS's new
    /// render (`original`); with no records to trust (a first run, or lost ones), `unknown`, until
    /// the run's own reading of the files (step 5) tells the OS's renders among them.
    static func held(in survey: CacheSurvey) -> [String: String] {
        var held: [String: String] = [:]
        for name in survey.names {
            guard let saved = survey.saved else {
                held[name] = "unknown"
                continue
            }
            guard let record = saved.files[name] else {
                held[name] = "original"
                continue
            }
            // A replacement records its campaign when it is not the one in force (a file shows the
            // highest-priority campaign with its snapshot); otherwise it is the state's.
            held[name] = record.current == record.original ? "original" : record.campaign ?? saved.campaign ?? "unknown"
        }
        return held
    }

    /// The unified log's line for a run's outcome (Apple platforms; nothing elsewhere).
    private static func log(_ result: Result<ApplyReport, ApplierError>, mode: Mode) {
        #if canImport(os)
        // The C-style call takes a static format, so the message needs no OSLogMessage interpolation.
        let log = OSLog(subsystem: "splashgen", category: "applier")
        switch result {
        case .success(let report): os_log("%{public}@", log: log, type: .info, Self.logLine(report, mode: mode) as NSString)
        case .failure(let error): os_log("%{public}@", log: log, type: .error, "\(mode) failed: \(error.description)" as NSString)
        }
        #endif
    }

    /// The unified log's text for a run's report: what the cache held, what is in force, the problems.
    static func logLine(_ report: ApplyReport, mode: Mode) -> String {
        let problems = report.problems.map(\.code.rawValue).joined(separator: ",")
        return "\(mode): held \(report.heldAtLaunch ?? "mixed"), now \(report.campaign ?? "none"), problems [\(problems)]"
    }

    /// The state key of this app version and build with these cached file names.
    private func key(_ names: [String]) -> ApplierState.Key {
        CacheSurvey.key(version: appVersion, build: appBuild, names: names)
    }

    /// Where the run works: the container checked, the manifest's bytes and hash read (not parsed),
    /// the app's bundle identifier and its paths. The bundle is opened (parsed, signature checked)
    /// only when the run needs it.
    private func locate(opening: Bool) throws(ApplierError) -> Target {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .noContainer(container.path)
        }
        var target = Target(bundle: bundle, trustedKey: trust.key)
        if let bundle {
            switch readBoundedFile(bundle.appendingPath("manifest.json"), limit: ReadLimits.manifestBytes) {
            case .success(let data): target.stamp = sha256Hex(data)
            case .failure(let refusal): throw .badBundle(.manifest(refusal))
            }
        }
        // Whose launch folder: the app's own identifier, or the one folder the container holds.
        let installed = appBundleID ?? installedBundleID()
        if installed == nil || opening { _ = try target.open() }
        guard let bundleID = installed ?? target.opened?.manifest.app.bundleID ?? ApplierState.savedBundleID(in: container) else {
            // No folder found: a link on the way to the launch folders or the applier's own is named,
            // as every run with a bundle names it, never taken for "not launched yet".
            try ApplierPaths.checkNoLinks((osVersion.snapshotFolder(bundleID: "x.y") as NSString).deletingLastPathComponent, in: container)
            try ApplierPaths.checkNoLinks(ApplierPaths.support, in: container)
            return target
        }
        target.paths = try ApplierPaths(container: container, bundleID: bundleID, os: osVersion)
        return target
    }

    /// The bundle and paths of one run.
    private struct Target {
        let bundle: URL?
        let trustedKey: Data?
        var stamp: String?
        var paths: ApplierPaths?
        var opened: SnapshotBundle?

        /// The bundle, parsed and (with a pinned key) its signature and key certificate checked, once.
        /// A certificate's expiry is not checked here: past it, the season has expired, and the run
        /// shows none of it rather than refusing to run (``Manifest/validUntil``).
        mutating func open() throws(ApplierError) -> SnapshotBundle? {
            guard let bundle else { return nil }
            if let opened { return opened }
            do { opened = try SnapshotBundle(root: bundle, trustedKey: trustedKey, at: nil) } catch { throw .badBundle(error) }
            return opened
        }
    }

    /// A killed run's leftovers: a folder moved out before iOS 13 comes back without the run's
    /// temporary files (or, when the OS made a new one meanwhile, the stale copy goes); a clearing is
    /// finished.
    private func finishInterruptedMoves(_ survey: inout CacheSurvey) throws(ApplierError) {
        let paths = survey.paths
        guard survey.editingFolderExists || survey.clearingFolderExists else { return }
        if survey.editingFolderExists {
            if survey.folderExists {
                try files.remove(paths.url(paths.editingFolder))
            } else {
                // The killed run's temporary files go while the folder is out of place (before iOS 13
                // nothing may be written in it in place), so none comes back with it.
                let editing = paths.url(paths.editingFolder)
                for entry in paths.contained.listing(editing) where entry.hasSuffix(ApplierFileSystemPartial.suffix) {
                    try files.remove(editing.appendingPath(entry))
                }
                try files.rename(editing, to: paths.folderURL)
                try files.syncFolder(paths.folderURL.deletingLastPathComponent())
            }
        }
        if survey.clearingFolderExists { try files.remove(paths.url(paths.clearingFolder)) }
        survey = try CacheSurvey(paths: paths)
    }

    /// The records a plan starts from, with what must be backed up and what was found wrong.
    private struct Records {
        var state: ApplierState
        var backups: [String: BackupSource] = [:]
        var clearFolder = false
        var rekeyed = false
        var problems: [ApplyReport.Problem] = []
        /// The bundle objects the rekey checked whole, and that passed.
        var verified: Set<String> = []
    }

    /// What tells the app's renders light from dark. The bundle says which kind of launch screen
    /// the app has: a storyboard's marker, or a `UILaunchScreen` background, whose colours the app
    /// resolves itself (``launchScreenColors``) before the bundle's. Without a bundle, the app's own
    /// colours if it has some; else nil. (An Info.plist may hold both keys; which one the OS draws
    /// is disputed, docs/ios-launch-cache.md §10, so the campaign's description decides.)
    private func cue(_ manifest: Manifest?) -> AppearanceCue? {
        let own = launchScreenColors.map { AppearanceCue.background(light: $0.light, dark: $0.dark) }
        guard let manifest else { return own }
        if manifest.app.marker != nil { return manifest.app.appearanceCue }
        return own ?? manifest.app.appearanceCue
    }

    /// Why there is nothing to replace: the launch folder `folder` is missing, or holds no file named
    /// as a launch snapshot. The app is running, so it has been launched: the OS has not cached its
    /// launch screen yet, or does not for this app (docs/ios-integration.md, "Proof on an iOS
    /// Simulator"), or has stopped after repeated failures (docs/ios-launch-cache.md §9).
    static func noLaunchSnapshots(in folder: String, folderExists: Bool) -> String {
        (folderExists ? "no launch snapshot in \(folder) (the folder holds no file named as one)" : "no launch snapshots: \(folder) does not exist")
            + ": the OS has not cached this app's launch screen yet (it may write it just after a launch), does not cache it for this app, or has stopped rendering it until the app is updated (after repeated failures); nothing is replaced"
    }

    /// The saved records while the key holds (interrupted changes settled by reading the files, and
    /// records of unknown appearance classified again now that a cue is at hand); otherwise new
    /// ones: classified anew, carried over, rebuilt from backups, or leftovers.
    private func records(
        _ survey: CacheSurvey, manifest: Manifest?, bundle: SnapshotBundle?, cue: AppearanceCue?, fromBackupsOnly: Bool
    ) -> Records {
        let classifier = SnapshotClassifier(decoder: decoder, cue: cue, interfaceStyle: interfaceStyle)
        let key = key(survey.names)
        if !fromBackupsOnly, let saved = survey.saved, saved.key == key, saved.files.count == survey.names.count,
            survey.names.allSatisfy({ saved.files[$0] != nil })
        {
            var state = saved
            state.folderMoved = nil  // any move was finished or undone before the records are read
            for (name, record) in saved.files where record.pending != nil {
                if let data = survey.paths.read(survey.paths.folderURL.appendingPath(name)) {
                    state.files[name]?.current = sha256Hex(data)
                }
                state.files[name]?.pending = nil
            }
            var records = Records(state: state)
            if cue != nil { classifyAgain(&records, paths: survey.paths, classifier: classifier) }
            return records
        }
        // Each object is checked whole once in the run, however many files look for its picture.
        var checked: [String: Data?] = [:]
        let found = survey.rekey(
            key: key, manifest: manifest, classifier: classifier, fromBackupsOnly: fromBackupsOnly,
            object: { snapshot in
                if let known = checked[snapshot.object] { return known }
                let data = try? bundle?.verifiedObject(snapshot)
                checked[snapshot.object] = data
                return data
            })
        var records = Records(state: found.state, backups: found.originals, rekeyed: true)
        records.verified = Set(checked.compactMap { $0.value == nil ? nil : $0.key })
        tellBlackRenders(&records, survey: survey, bundle: bundle)
        for name in found.lostOriginals {
            records.problems.append(.init(.originalLost, file: name, "holds a replacement whose backed-up original is missing or damaged"))
        }
        for name in found.unreadable {
            records.problems.append(
                .init(.undecodable, file: name, "cannot be read (larger than \(ReadLimits.snapshotBytes) bytes, or not a regular file); left as it is"))
        }
        for name in found.campaignPictures.keys.sorted() {
            guard let campaign = found.campaignPictures[name] else { continue }
            records.problems.append(
                .init(
                    .originalLost, file: name,
                    "holds \(campaign)'s picture, and neither this applier's records nor a backup of its original survive: it is never taken for an original; the folder is cleared so the OS renders the originals again at the next launch"
                ))
        }
        let others = found.leftovers.filter { found.campaignPictures[$0] == nil }
        if !found.leftovers.isEmpty { records.clearFolder = true }
        if !others.isEmpty {
            records.problems.append(
                .init(
                    .leftoversCleared,
                    "\(others.count) file(s) hold another library's leftovers (\(others.joined(separator: ", "))), not the OS's render: the folder is cleared so the OS renders clean originals at the next launch, and the campaign applies on the run after"
                ))
        }
        return records
    }

    /// Records of unknown appearance (rebuilt without a bundle, so without the app's marker: a
    /// `restore --from-backups`, or a lost state rebuilt by a restore) classified again from their
    /// originals, as a fresh render is, once a bundle gives the marker. A file still undecided stays
    /// as it was, and is reported by the plan.
    private func classifyAgain(_ records: inout Records, paths: ApplierPaths, classifier: SnapshotClassifier) {
        // Unknown, and guessed: a guess is read again once a cue is at hand, which may overturn it.
        let unknown = records.state.files.filter {
            ($0.value.appearance == nil || $0.value.decidedBy == .luminance) && ![.undecodable, .samePicture].contains($0.value.decidedBy)
        }.keys.sorted()
        guard !unknown.isEmpty else { return }
        // Read one at a time, as a fresh render's files are.
        var results = classifier.classify(unknown) { Self.original(of: unknown[$0], in: records, paths: paths) }
        classifier.settleGuesses(&results)
        for (name, found) in results where found.appearance != nil || found.decidedBy == .samePicture {
            records.state.files[name]?.appearance = found.appearance
            records.state.files[name]?.decidedBy = found.decidedBy
        }
    }

    /// Each original the OS has just rendered (about to be backed up from the cache), told against
    /// the app's own screen for this app version as the bundle draws it, with its image views
    /// (`BlackRender`): a black render is recorded and reported; one that cannot be told is
    /// reported as undecided and kept as a good original. Nothing is told without such a reference,
    /// or for a file whose size or appearance the bundle's own screen lacks.
    private func tellBlackRenders(_ records: inout Records, survey: CacheSurvey, bundle: SnapshotBundle?) {
        guard let bundle, let own = bundle.manifest.ownScreen(forAppVersion: records.state.key.version) else { return }
        for name in records.backups.keys.sorted() where records.backups[name]?.path == survey.paths.folder + "/" + name {
            guard var record = records.state.files[name], let snapshot = ApplyPlanner.snapshot(of: record, in: own),
                let reference = try? decoder.decode(bundle.verifiedObject(snapshot, width: record.width, height: record.height)),
                let data = survey.paths.read(survey.paths.folderURL.appendingPath(name), holding: record.original),
                let image = try? decoder.decode(data)
            else { continue }
            let verdict: BlackRender.Verdict =
                snapshot.imageViews.map { BlackRender.verdict(of: image, reference: reference, imageViews: $0) }
                ?? .undecided("the bundle does not say where \(own.id)'s image views are (an earlier splashgen built it): build it again")
            switch verdict {
            case .good: continue
            case .undecided(let why):
                records.problems.append(
                    .init(.blackRenderUndecided, file: name, "not told good or black against \(own.id), the app's own screen: \(why); kept as the original"))
            case .black, .white:
                record.blackRender = true
                records.state.files[name] = record
                records.problems.append(
                    .init(
                        .originalBlackRender, file: name,
                        "the OS rendered this launch image with its image views solid \(verdict == .black ? "black" : "white") where \(own.id), the app's own screen, draws them; it is backed up, and never put back"
                    ))
            }
        }
    }

    /// The bytes of `name`'s original, where the records say it is (to be backed up from the cache or
    /// an earlier key's backup, or in this key's backup) or in the cached file itself while it holds
    /// it, when they hash to the record's original.
    private static func original(of name: String, in records: Records, paths: ApplierPaths) -> Data? {
        guard let record = records.state.files[name] else { return nil }
        let places = [records.backups[name]?.path, records.state.backup + "/" + name, record.current == record.original ? paths.folder + "/" + name : nil]
        for case let path? in places {
            if let data = paths.read(paths.url(path), holding: record.original) { return data }
        }
        return nil
    }

    /// The bundle identifier whose launch folder the container holds, when exactly one does.
    private func installedBundleID() -> String? {
        let root = container.appendingPath((osVersion.snapshotFolder(bundleID: "x.y") as NSString).deletingLastPathComponent)
        let suffix = osVersion.major >= 13 ? " - {DEFAULT GROUP}" : ""
        let ids = ContainedFolder(container).listing(root).compactMap { entry -> String? in
            guard entry.hasSuffix(suffix), !entry.hasSuffix(".splashgen-editing"), !entry.hasSuffix(".splashgen-clearing") else { return nil }
            let id = String(entry.dropLast(suffix.count))
            return ApplierPaths.isBundleIdentifier(id) ? id : nil
        }
        return ids.count == 1 ? ids[0] : nil
    }

    /// Marks a folder as not to be backed up to iCloud or a computer: backups and bundles can be
    /// made again (docs/ios-launch-cache.md §9).
    package static func excludeFromBackup(_ url: URL) {
        #if canImport(Darwin)
        var folder = url
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? folder.setResourceValues(values)
        #endif
    }

    private func report(
        _ state: ApplierState, campaign: String?, nextChange: Date?, manifest: Manifest?, regenerated: Bool,
        noOp: Bool, actions: [String: ApplyReport.Action], notes: [String: String],
        problems: [ApplyReport.Problem], notShown: [ApplyReport.NotShown], removed: [String: ApplierState.FileRecord] = [:]
    ) -> ApplyReport {
        let snapshots = manifest?.campaigns.flatMap(\.snapshots) ?? []
        let files = Set(state.files.keys).union(removed.keys).sorted().compactMap { name -> ApplyReport.File? in
            guard let record = state.files[name] ?? removed[name] else { return nil }
            // Campaigns may share an object: the one in force names it first. A record rebuilt without
            // its object may still hold one as it is (its container the object's own).
            let object = record.object ?? record.current
            let holders = manifest?.campaigns.filter { $0.snapshots.contains { $0.object == object } } ?? []
            let showing =
                state.files[name] == nil
                ? "nothing (removed: iOS renders it again)"
                : record.current == record.original
                    ? "original"
                    : (record.campaign ?? holders.first { $0.id == campaign }?.id ?? holders.first?.id ?? state.campaign ?? "replacement")
            // The bundle's snapshot of this exact size knows its orientation where the shape does not
            // (an iPad's side-layout window is taller than wide in landscape, docs/ios-launch-cache.md §1).
            let same = snapshots.first { $0.pixels == ScreenSize(width: record.width, height: record.height) }
            return ApplyReport.File(
                name: name, width: record.width, height: record.height, orientation: same?.orientation ?? record.orientation,
                appearance: record.appearance, decidedBy: record.decidedBy, devices: same?.devices,
                showing: showing, action: actions[name] ?? (notes[name] != nil ? .leftAlone : .unchanged), note: notes[name])
        }
        return ApplyReport(
            folder: state.folder, campaign: campaign, nextChange: nextChange, cacheRegenerated: regenerated,
            nothingToDo: noOp, files: files, problems: problems, notShown: notShown)
    }
}
