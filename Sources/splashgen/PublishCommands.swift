import ArgumentParser
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashUpdater

/// `splashgen publish`.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Write a bundle as the signed static tree a CDN serves: manifest, one slice per screen, objects raw and deflated.",
        discussion: """
            Serve manifest.json, screens/* and their .sig files with a short cache that revalidates \
            (Cache-Control: no-cache, with the ETag a static server sends), and objects/* as immutable \
            (Cache-Control: public, max-age=31536000, immutable). Upload objects/ first and the rest after.
            """)

    @Argument(help: "The bundle folder or archive (none with --withdraw).") var bundle: String?
    @Option(name: [.short, .customLong("output")], help: "The tree to write into (created, or updated in place).") var output: String
    @OptionGroup var key: SigningKeyOption
    @OptionGroup var certificate: CertificateOption
    @Option(
        help: ArgumentHelp(
            "How many days the publication holds: phones that fetch nothing newer by then show none of it (1 to 3660; docs/reliability.md).",
            valueName: "days"))
    var validFor = 14
    @Option(
        help: "The serial to publish (default: one more than the tree at --output holds, so publish into a copy of the live tree); refused when not greater.")
    var serial: Int?
    @Option(
        help: ArgumentHelp(
            "Pull this campaign from the tree's season now: the tree is signed again without it, nothing rebuilt (no bundle); repeatable. The tree remembers it.",
            valueName: "name"))
    var withdraw: [String] = []
    @Option(help: ArgumentHelp("Bring back a campaign the tree withdrew, on purpose; repeatable.", valueName: "name")) var readmit: [String] = []
    @Flag(
        help:
            "Remove the objects no manifest served within the grace period names, and list them in pruned-objects.txt for the CDN (docs/reliability.md).")
    var prune = false
    @Option(help: ArgumentHelp("The grace period of --prune, in hours (default 48, at most 2160: the tree's record keeps 90 days).", valueName: "hours"))
    var grace = 48

    func validate() throws {
        guard key.path != nil else { throw ValidationError("publish needs --signing-key, the private key file from keygen") }
        guard (1...3660).contains(validFor) else { throw ValidationError("--valid-for must be 1 to 3660 days; found \(validFor)") }
        guard (1...2160).contains(grace) else { throw ValidationError("--grace must be 1 to 2160 hours (90 days); found \(grace)") }
        if withdraw.isEmpty {
            guard bundle != nil else { throw ValidationError("give the bundle to publish, or --withdraw NAME to pull a campaign from the tree") }
        } else {
            guard bundle == nil else { throw ValidationError("--withdraw signs the tree's own season again: give no bundle") }
            guard readmit.isEmpty, serial == nil else { throw ValidationError("--withdraw takes neither --readmit nor --serial") }
        }
    }

    func run() throws {
        do {
            let privateKey = try String(contentsOfFile: key.path ?? "", encoding: .utf8)
            let started = ContinuousClock.now
            let report =
                if let bundle {
                    try Publisher.publish(
                        bundle: URL(fileURLWithPath: bundle), to: URL(fileURLWithPath: output),
                        privateKey: privateKey, certificate: certificate.read(), serial: serial, validFor: Double(validFor) * 86_400, readmit: readmit,
                        prune: prune ? Double(grace) * 3_600 : nil, waiting: Console.waiting(for: output))
                } else {
                    try Publisher.withdraw(
                        withdraw, in: URL(fileURLWithPath: output), privateKey: privateKey, certificate: certificate.read(),
                        validFor: Double(validFor) * 86_400, prune: prune ? Double(grace) * 3_600 : nil, waiting: Console.waiting(for: output))
                }
            let emptied = report.withdrawnScreens == 0 ? "" : " (and \(report.withdrawnScreens) emptied)"
            let objects =
                bundle == nil
                ? "objects untouched"
                : "\(report.objects) objects (\(Console.bytes(report.rawBytes)) raw, \(Console.bytes(report.deflatedBytes)) deflated)"
            print(
                "\(output): serial \(report.serial), \(report.screens) screen slices\(emptied), \(objects), manifest \(Console.bytes(report.manifestBytes)); signed with key \(report.signer.keyID)\(CertificateOption.describe(report.signer))"
            )
            for line in report.changes { print("  " + line) }
            if let expires = report.expires { print("  expires \(ScheduleTime.written(expires, in: nil)): publish again before then") }
            if let deferred = report.pruneDeferred { Console.error("\(output): warning: \(deferred)") }
            if let pruned = report.pruned {
                print(
                    "  pruned \(pruned.count) object files no manifest served in the last \(grace) h names (listed in \(Publisher.prunedFile): delete them from the CDN too)"
                )
            }
            if report.repairedObjects > 0 { print("  \(report.repairedObjects) damaged object files written anew") }
            for name in report.damagedObjectsLeft {
                Console.error("\(output): warning: objects/\(name) does not hold what its name says, and this bundle cannot restore it")
            }
            if bundle == nil {
                print(
                    "  withdrawn in \((ContinuousClock.now - started).formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))); deploy screens/ and the manifest now (docs/reliability.md, \"Pull a campaign now\")"
                )
            }
        } catch {
            throw Console.fail(error, context: bundle ?? output)
        }
    }
}

/// `--device NAME | --screen WxH`: the screen a fetch is for.
struct ScreenOptions: ParsableArguments {
    @Option(help: "A catalogue device name (a \"… (Display Zoom)\" entry for a zoomed screen).", completion: .custom(Splashgen.deviceNames)) var device: String?
    @Option(help: "The screen's pixel size, e.g. 1179x2556.") var screen: String?

    func validate() throws {
        guard (device == nil) != (screen == nil) else { throw ValidationError("give one of --device NAME or --screen WxH") }
        if let screen, pixels(screen) == nil { throw ValidationError("--screen expects WIDTHxHEIGHT in pixels, e.g. 1179x2556; found \"\(screen)\"") }
    }

    private func pixels(_ text: String) -> Manifest.Size? {
        let parts = text.split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        return Manifest.Size(width: w, height: h)
    }

    /// The screen's pixels, from the catalogue for a device name.
    func size() throws -> Manifest.Size {
        if let screen, let size = pixels(screen) { return size }
        let catalogue = try DeviceCatalogue.bundled()
        guard let name = device, let found = catalogue.device(named: name) else {
            throw ValidationError(catalogue.unknownDeviceMessage(device ?? ""))
        }
        return Manifest.Size(width: found.points.width * found.scale, height: found.points.height * found.scale)
    }
}

/// `splashgen fetch`.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a published season for one screen, as the app's BundleFetcher does, and install it under --into.")

    @Argument(help: "The published tree's URL.") var url: String
    @Option(help: "The folder to keep bundles in; the installed bundle is <folder>/bundle.") var into: String
    @OptionGroup var screen: ScreenOptions
    @OptionGroup var key: PublicKeyOption
    @Option(help: "The app's bundle identifier: another app's manifest is refused.") var bundleId: String?
    @Option(help: "Only these appearances (light, dark).") var appearance: [Appearance] = []
    @Option(help: "Seconds one request may take.") var timeout: Double = 30
    @Option(help: "Tries per request (retrying transport failures, timeouts and 5xx), waits between them doubling up to 30 s.")
    var attempts = 3
    @Option(help: "Seconds the whole fetch may take, every request and wait included.") var deadline: Double = 120

    func validate() throws {
        var numbers = BundleFetcher(
            base: URL(fileURLWithPath: "/"), folder: URL(fileURLWithPath: "/"), screen: .init(width: 1, height: 1), trust: .acceptingUnsignedBundles,
            bundleID: nil)
        (numbers.timeout, numbers.attempts, numbers.deadline) = (timeout, attempts, deadline)
        if let problem = numbers.parameterProblem { throw ValidationError("--\(problem.description)") }
    }

    func run() async throws {
        let report: FetchReport
        do {
            report = try await fetcher().fetch()
        } catch {
            throw Console.fail(error, context: url)
        }
        print(Self.describe(report))
    }

    func fetcher() throws -> BundleFetcher {
        guard let base = URL(string: url), base.scheme == "http" || base.scheme == "https" else {
            throw ValidationError("expected an http or https URL; found \"\(url)\"")
        }
        let trust: BundleTrust
        do { trust = try Splashgen.trust(keyFile: key.path) } catch { throw Console.fail(error, context: key.path) }
        var fetcher = BundleFetcher(base: base, folder: URL(fileURLWithPath: into), screen: try screen.size(), trust: trust, bundleID: bundleId)
        if !appearance.isEmpty { fetcher.appearances = Set(appearance) }
        (fetcher.timeout, fetcher.attempts, fetcher.deadline) = (timeout, attempts, deadline)
        return fetcher
    }

    static func describe(_ report: FetchReport) -> String {
        let what =
            report.notModified
            ? "nothing new (serial \(report.serial.map(String.init) ?? "none"))"
            : "installed serial \(report.serial.map(String.init) ?? "none"): \(report.campaigns.joined(separator: ", "))"
        var lines = [
            "\(report.installed.path): \(what)",
            "  \(report.objectsDownloaded) objects downloaded, \(report.objectsKept) kept; \(report.requests) requests (\(report.retries) retries), \(Console.bytes(report.bytesReceived)) received; \(report.notModified ? "the installed bundle is kept" : report.signer.map { "signature valid: \($0.chain)" } ?? "signature not checked (no --public-key)")",
        ]
        if !report.campaignsWithoutThisScreen.isEmpty {
            lines.append("  warning: no snapshot of this screen in \(report.campaignsWithoutThisScreen.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
