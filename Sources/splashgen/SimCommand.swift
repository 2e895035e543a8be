import ArgumentParser
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashSimulator

/// `splashgen sim`: the sandbox simulator.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Simulate what iOS does to an app's launch cache, on a sandbox folder.",
        subcommands: [Install.self, Update.self, Launch.self, Restore.self, SetState.self, LanguageChange.self, Purge.self])

    struct Sandbox: ParsableArguments {
        @Option(help: "The sandbox folder (springboard.json + container/).")
        var sandbox: String

        var simulator: SandboxSimulator { SandboxSimulator(root: URL(fileURLWithPath: sandbox)) }

        func describe(_ model: SpringBoardModel) -> String {
            let files = model.variants.sorted { $0.key < $1.key }.map {
                "  \($0.key)  \($0.value.orientation.rawValue) \($0.value.appearance.rawValue)\($0.value.window == .side ? " (side-layout window)" : "")"
            }
            return
                ([
                    "\(model.bundleID) \(model.version) (\(model.build)) on \(model.device), iOS \(model.ios); now \(model.orientation.rawValue), \(model.appearance.rawValue)\(model.blackRender ? "; black-render bug on" : "")"
                ] + files).joined(separator: "\n")
        }

        func run(_ body: (SandboxSimulator) throws -> SpringBoardModel) throws {
            do { print(describe(try body(simulator))) } catch { throw Console.fail(error) }
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Install the app afresh and cache its launch screen.")
        @OptionGroup var sandbox: Sandbox
        @Option(
            help:
                "The app's launch screen as a JSON stand-in (docs/ios-integration.md): one for LaunchScreen.storyboard, or one for the Info.plist UILaunchScreen dictionary with its asset colours and images (splashgen ships launch-screen/UILaunchScreen.json beside its default; default: the app's own storyboard screen, as campaigns/default.yaml draws it)."
        )
        var launchScreen: String?
        @OptionGroup var app: AppVersionOptions
        @Option(help: "A catalogue device name.", completion: .custom(Splashgen.deviceNames)) var device = "iPhone 15"
        @Option(
            help:
                "The iOS version: 13 and later cache ATX files (LZFSE), 12 and earlier plain KTX in Library/Caches, light only.")
        var ios = "17.0"
        @Option(
            help:
                "Cache in this container instead of the iOS version's own (atx, ktx, apple-compressed-ktx): the field holds KTX files on current phones too.")
        var cacheFormat: CacheFormat?
        @Flag(help: "Install on the device's Display Zoom screen (smaller points, same scale).") var zoomed = false
        @Flag(help: "Reproduce the black launch screen: image views render solid black.") var blackRender = false
        @Option(help: "Leave another library's leftovers: the cache holds PNG renders of this storyboard stand-in (JSON) in its .ktx names.")
        var leftovers: String?
        @Option(help: "The app's UIUserInterfaceStyle: light or dark (the OS renders only that style; the app's applier is told), or auto.")
        var interfaceStyle: InterfaceStyleArgument = .auto
        @OptionGroup var key: PublicKeyOption
        @Option(help: "The app's place in every rollout, 0 to 9999 (default: the app draws its own at random, as on a phone).")
        var rolloutDraw: Int?
        @Option(help: "The phone's first preferred language, a BCP 47 tag such as zh-Hans-CN (for campaigns that match languages).")
        var language: String?
        @Option(help: "The phone's region, ISO 3166, such as CN (for campaigns that match regions).") var region: String?
        @Flag(help: "On an iPad: the app requires full screen (UIRequiresFullScreen), so the OS caches no side-layout window for it.")
        var requiresFullScreen = false
        @Flag(help: "On an iPad: the app is iPhone-only, so the OS caches, and the app reads, an iPhone's screen (docs/ios-launch-cache.md §1).")
        var iphoneOnly = false

        func run() throws {
            let pinned: String?
            do { pinned = try key.path.map { try String(contentsOfFile: $0, encoding: .utf8) } } catch { throw Console.fail(error) }
            try sandbox.run {
                try $0.install(
                    launchScreen: try launchScreen.map { URL(fileURLWithPath: $0) } ?? SandboxSimulator.defaultLaunchScreen, version: app.version ?? "1.0",
                    build: app.build ?? "1",
                    device: device, ios: ios, zoomed: zoomed, blackRender: blackRender,
                    leftovers: leftovers.map { URL(fileURLWithPath: $0) }, interfaceStyle: interfaceStyle.style, cacheFormat: cacheFormat,
                    pinnedKey: pinned, rolloutDraw: rolloutDraw, language: language, region: region, requiresFullScreen: requiresFullScreen,
                    iphoneOnly: iphoneOnly)
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Update or reinstall the app: the OS renders the launch cache anew.")
        @OptionGroup var sandbox: Sandbox
        @OptionGroup var app: AppVersionOptions
        @Flag(inversion: .prefixedNo, help: "Whether the OS's render shows image views black.") var blackRender: Bool?

        func validate() throws { _ = try app.required() }
        func run() throws {
            let (version, build) = try app.required()
            try sandbox.run { try $0.update(version: version, build: build, blackRender: blackRender) }
        }
    }

    struct Launch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Launch the app: show the cached launch image, then run the applier (after fetching, with --from).")
        @OptionGroup var sandbox: Sandbox
        @Option(help: "The bundle the app's applier uses (default: the one its fetcher installed, if any, as an app offline does).") var bundle: String?
        @Option(help: "A published tree's URL: the app fetches it into its container first, then applies what is installed.") var from: String?
        @OptionGroup var key: PublicKeyOption
        @Option(help: "The current time, ISO 8601 with offset (default: now).") var now: String?
        @Option(help: "Write what the user saw to this PNG.") var screenshot: String?
        @Flag(help: "Do not run the app's code.") var noApp = false

        func validate() throws {
            if from != nil, bundle != nil { throw ValidationError("give --bundle or --from, not both") }
            if let from, URL(string: from)?.scheme?.hasPrefix("http") != true {
                throw ValidationError("--from expects an http or https URL; found \"\(from)\"")
            }
        }

        func run() async throws {
            var bundle = self.bundle.map { URL(fileURLWithPath: $0) }
            var fetchFailure: (any Error)?
            // The app's one trust, for its fetch and for its applier (a 304 included).
            let trust: BundleTrust
            do { trust = try key.path.map { try Splashgen.trust(keyFile: $0) } ?? sandbox.simulator.appTrust() } catch { throw Console.fail(error) }
            let date = try launchTime()
            if bundle == nil, from == nil {
                // Offline, the app applies what its fetcher installed before.
                bundle = try? sandbox.simulator.fetcher(from: URL(fileURLWithPath: "/"), trust: trust).current
            }
            if let from, let base = URL(string: from) {
                // As the app does: fetch what is new, then apply whatever bundle is installed.
                do {
                    var fetcher = try sandbox.simulator.fetcher(from: base, trust: trust)
                    fetcher.clock = { date }
                    do { print("app fetched:\n" + FetchCommand.describe(try await fetcher.fetch())) } catch { fetchFailure = error }
                    bundle = fetcher.current
                } catch {
                    throw Console.fail(error)
                }
                if let fetchFailure { _ = Console.fail(fetchFailure, context: "the app's fetch (the installed bundle, if any, is applied)") }
            }
            try launch(bundle: bundle, trust: trust, at: date)
            // The launch went as far as it could without the refused fetch: done, with a problem listed.
            if fetchFailure != nil { throw ExitCode(3) }
        }

        /// `--now`, or the clock's time.
        func launchTime() throws -> Date {
            guard let now else { return Date() }
            switch ScheduleTime.parse(now) {
            case .success(let parsed): return parsed
            case .failure(let problem): throw ValidationError("--now: \(problem); found \"\(now)\"")
            }
        }

        func launch(bundle: URL?, trust: BundleTrust, at date: Date) throws {
            var appReport: ApplyReport?
            do {
                let result = try sandbox.simulator.launch(
                    bundle: bundle, now: date, runApp: !noApp,
                    screenshot: try screenshot.map { path throws in try OutputFile.check(OutputFile.resolve(path), example: "screen.png") }, trust: trust)
                if let reason = result.regenerated { print("the OS rendered the launch screen again: \(reason)") }
                print(
                    "showed \(result.file) (\(result.variant.orientation.rawValue), \(result.variant.appearance.rawValue)): \(result.showing), sha256 \(result.contentHash.prefix(12))"
                )
                if let screenshot { print("screenshot \(screenshot)") }
                if let report = result.appReport {
                    print("app ran the applier:\n" + ReportText.text(report, bundle: bundle, device: try? sandbox.simulator.model().device))
                }
                appReport = result.appReport
                if !result.refusedWrites.isEmpty {
                    throw SimulatorError.rejected(
                        "iOS \(try sandbox.simulator.model().ios) refused the app's writes inside the launch folder in place (undone): "
                            + result.refusedWrites.joined(separator: ", "))
                }
            } catch {
                throw Console.fail(error)
            }
            // The app's run follows the one exit-code rule: 3 when its report lists problems.
            if let appReport { try ApplierExitCodes.check(appReport) }
        }
    }

    struct SetState: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change the interface style or the orientation.")
        @OptionGroup var sandbox: Sandbox
        @Option(help: "light or dark.") var appearance: Appearance?
        @Option(help: "portrait or landscape.") var orientation: Orientation?

        func run() throws { try sandbox.run { try $0.set(appearance: appearance, orientation: orientation) } }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the app's restore: the originals back (the sandbox knows the app's version, build and screen).",
            discussion: ApplierExitCodes.discussion)
        @OptionGroup var sandbox: Sandbox
        @Option(help: "The bundle the app uses (it tells the campaign's pictures when the applier's records are lost).") var bundle: String?
        @Flag(help: "Rebuild the records from the backups alone, ignoring the state file.") var fromBackups = false
        @Flag(help: "Print the report as JSON.") var json = false

        func run() throws {
            let report: ApplyReport
            do {
                let result = try sandbox.simulator.restore(bundle: bundle.map { URL(fileURLWithPath: $0) }, fromBackups: fromBackups)
                if !result.refusedWrites.isEmpty {
                    throw SimulatorError.rejected(
                        "iOS \(try sandbox.simulator.model().ios) refused the app's writes inside the launch folder in place (undone): "
                            + result.refusedWrites.joined(separator: ", "))
                }
                report = result.report
            } catch {
                throw Console.fail(error)
            }
            print(
                json ? ReportText.json(report) : "app ran the applier's restore:\n" + ReportText.text(report, bundle: bundle.map { URL(fileURLWithPath: $0) }))
            try ApplierExitCodes.check(report)
        }
    }

    struct LanguageChange: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "language-change", abstract: "Change the system language: only the current variant comes back.")
        @OptionGroup var sandbox: Sandbox
        func run() throws { try sandbox.run { try $0.languageChange() } }
    }

    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Storage pressure: the OS deletes the cached launch images.")
        @OptionGroup var sandbox: Sandbox
        func run() throws { try sandbox.run { try $0.purge() } }
    }
}

extension Appearance: ExpressibleByArgument {}
extension Orientation: ExpressibleByArgument {}

extension CacheFormat: ExpressibleByArgument {}
