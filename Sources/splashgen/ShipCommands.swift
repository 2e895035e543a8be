import ArgumentParser
import Foundation
import SplashApplier
import SplashCore
import SplashFormat
import SplashFormatWriting
import SplashImaging

/// `splashgen keygen`.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keygen", abstract: "Make an Ed25519 key pair for signing bundles.")

    @Option(name: [.short, .customLong("output")], help: "The private key file; the public key goes to <file>.pub.")
    var output: String

    func run() throws {
        let pair = BundleSignature.makeKeyPair()
        do {
            let key = try OutputFile.resolve(output)
            let pub = URL(fileURLWithPath: key.path + ".pub")
            for path in [key.path, pub.path] {
                var info = stat()
                guard lstat(path, &info) != 0 else { throw ValidationError("\(path) exists; keygen never overwrites a key (nor its .pub)") }
            }
            try Data(pair.privateKey.utf8).write(to: key, options: .withoutOverwriting)
            chmod(key.path, 0o600)
            try Data(pair.publicKey.utf8).write(to: pub, options: .withoutOverwriting)
            let id = (try? BundleSignature.keyID(BundleSignature.publicKey(pair.publicKey))) ?? "?"
            print(
                "key \(id): private key \(key.path) (keep it secret), public key \(pub.path) (pin it in the app when it is the root; certify it with the root when it signs seasons)"
            )
        } catch let error as ValidationError {
            throw error
        } catch {
            throw Console.fail(error, context: output)
        }
    }
}

/// `splashgen sign`.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sign", abstract: "Sign a bundle's manifest (which pins every object's hash).")

    @Argument(help: "The bundle folder.") var bundle: String
    @OptionGroup var key: SigningKeyOption
    @OptionGroup var certificate: CertificateOption

    func validate() throws {
        guard key.path != nil else { throw ValidationError("sign needs --signing-key, the private key file from keygen") }
    }

    func run() throws {
        do {
            let signer = try BundleTools.sign(
                bundle: URL(fileURLWithPath: bundle), privateKey: String(contentsOfFile: key.path ?? "", encoding: .utf8), certificate: certificate.read())
            print("signed \(bundle)/\(BundleSignature.fileName) with key \(signer.keyID)\(CertificateOption.describe(signer))")
        } catch {
            throw Console.fail(error, context: bundle)
        }
    }
}

/// `splashgen pack`.
struct PackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Write a bundle as a deterministic ZIP, or one screen's slice of it.")

    @Argument(help: "The bundle folder.") var bundle: String
    @Option(name: [.short, .customLong("output")], help: "The archive to write (without it, --device only prints the slice).") var output: String?
    @Option(help: "Only this screen: a device name from the manifest, or a pixel size such as 1179x2556.", completion: .custom(Splashgen.deviceNames))
    var device: String?
    @OptionGroup var key: SigningKeyOption
    /// The first release's spelling of `--signing-key`.
    @Option(help: .hidden) var sign: String?
    @OptionGroup var certificate: CertificateOption

    func validate() throws {
        guard output != nil || device != nil else { throw ValidationError("pack needs -o ARCHIVE, or --device to print a slice") }
        guard certificate.certificate == nil || key.path ?? sign != nil else {
            throw ValidationError("--certificate goes with --signing-key, the key it certifies")
        }
    }

    func run() throws {
        do {
            let privateKey = try (key.path ?? sign).map { try String(contentsOfFile: $0, encoding: .utf8) }
            let inputs = [URL(fileURLWithPath: bundle)]
            let named = try output.map { path throws in try OutputFile.check(OutputFile.resolve(path), example: "bundle.zip", inputs: inputs) }
            let contents = try BundleTools.contents(
                of: URL(fileURLWithPath: bundle), slice: device.map(ScreenSlice.init), privateKey: privateKey, certificate: certificate.read())
            let raw = contents.objects.values.reduce(0) { $0 + $1.count } + contents.manifest.count
            let target = try BundleArchive.write(
                contents, to: named ?? FileManager.default.temporaryDirectory.appendingPathComponent("splashgen-slice-\(UUID().uuidString).zip"), inputs: inputs
            )
            let packed = ((try FileManager.default.attributesOfItem(atPath: target.path)[.size]) as? NSNumber)?.intValue ?? 0
            if output == nil { try? FileManager.default.removeItem(at: target) }
            if let device {
                let manifest = try Manifest.decode(from: contents.manifest)
                print("slice for \(device): manifest \(Console.bytes(contents.manifest.count))\(contents.signature != nil ? " + signature" : "")")
                for snapshot in manifest.campaigns.flatMap(\.snapshots) {
                    print(
                        "  objects/\(snapshot.object)  \(snapshot.pixels.width)x\(snapshot.pixels.height) \(snapshot.orientation.rawValue) \(snapshot.appearance.rawValue)  \(Console.bytes(snapshot.bytes))"
                    )
                }
            }
            print(
                "\(contents.objects.count) objects; \(Console.bytes(raw)) to download as files, \(Console.bytes(packed)) as a ZIP (deflate)"
                    + (output.map { "; wrote \($0)" } ?? ""))
        } catch {
            throw Console.fail(error, context: bundle)
        }
    }
}

/// `splashgen unpack`.
struct UnpackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unpack", abstract: "Unpack a bundle archive, refusing hostile ones before writing anything.")

    @Argument(help: "The archive.") var archive: String
    @Option(
        name: [.short, .customLong("output")],
        help: "The bundle folder to write: new, empty, or a bundle (replaced whole when complete); any other folder is refused.")
    var output: String

    func run() throws {
        do {
            let target = try OutputFile.resolve(output)
            let folder = try BundleTools.unpack(
                URL(fileURLWithPath: archive), outputRoot: target.deletingLastPathComponent(), name: target.lastPathComponent,
                waiting: Console.waiting(for: target.deletingLastPathComponent().path))
            print("unpacked \(archive) into \(folder.path)")
        } catch {
            throw Console.fail(error, context: archive)
        }
    }
}

/// `splashgen verify`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a bundle folder or archive: signature, every hash, every header and pixel size.")

    @Argument(help: "A bundle folder or archive.") var bundle: String
    @OptionGroup var key: PublicKeyOption

    func run() throws {
        let publicKey: Data?
        do { publicKey = try key.path.map { try BundleSignature.publicKey(String(contentsOfFile: $0, encoding: .utf8)) } } catch {
            throw Console.fail(error, context: key.path)
        }
        let report = BundleTools.verify(URL(fileURLWithPath: bundle), publicKey: publicKey)
        guard report.problems.isEmpty else {
            for problem in report.problems { Console.error("\(bundle): error: \(problem)") }
            throw ExitCode.failure
        }
        let signature =
            report.signer.map { "signature valid: \($0.chain)" } ?? (report.signed ? "signed (no --public-key given, signature not checked)" : "not signed")
        print("\(bundle): ok (\(report.kind), \(report.objects) objects verified, \(signature))")
    }
}

/// `splashgen preview`.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw every variant for sign-off, decoded from the real objects: a contact sheet, or a page.",
        discussion: """
            Tiles are labelled with the devices they serve and overlaid with what the phone puts over \
            them: rounded corners, the notch or Dynamic Island, the home indicator, and the parts \
            outside the safe area (tinted). -o page/index.html writes a page and its image folder (with \
            --inline, one file with the images inside, for mailing): the sheet, \
            every snapshot alone, and the manifest's facts.
            """)

    @Argument(help: "A campaign or season YAML (built first, reusing Output/.cache), a bundle folder, or an archive.") var source: String
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The PNG to write, or an .html page (its images go in a <page>-files-<id> folder beside it).", valueName: "file"))
    var output: String
    @Option(help: ArgumentHelp("Only this device's snapshots, at full size.", valueName: "name"), completion: .custom(Splashgen.deviceNames))
    var device: String?
    @Flag(help: "Leave out the safe-area, cutout, home-indicator and corner overlays.") var noOverlays = false
    @Flag(help: "With an .html page: one file with its images inside (for mailing), up to 20 MB, instead of a page and its image folder.")
    var inline = false
    @Option(name: .customLong("output-root"), help: ArgumentHelp("Where a campaign YAML is built.", valueName: "folder")) var outputRoot = "Output"

    func validate() throws {
        // The sheet is PNG and the page HTML: a .jpg name would hold PNG bytes.
        let kind = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard kind == "png" || kind == "html" else {
            throw ValidationError("-o must name a .png sheet or an .html page; found \"\(output)\" (the sheet is written as PNG only)")
        }
        guard !inline || kind == "html" else { throw ValidationError("--inline is for an .html page; -o names a PNG sheet") }
    }

    func run() throws {
        do {
            let catalogue = try DeviceCatalogue.bundled()
            var url = URL(fileURLWithPath: source)
            let target = try OutputFile.check(OutputFile.resolve(output), example: "sheet.png", inputs: [url])
            if ["yaml", "yml"].contains(url.pathExtension) {
                let season = try SeasonLoader(catalogue: catalogue).load(contentsOf: url, displayPath: source)
                let report = try BundleBuilder(outputRoot: URL(fileURLWithPath: outputRoot)).build(
                    season, progress: Console.progress("\(season.name): rendering"), waiting: Console.waiting(for: outputRoot))
                Console.warn(report.warnings)
                url = report.bundle
            }
            let page = URL(fileURLWithPath: output).pathExtension.lowercased() == "html"
            let options = ContactSheet.Options(scale: device == nil ? ContactSheet.scale : 1, overlays: !noOverlays, device: device, pointImages: page)
            let sheet = try ContactSheet.render(
                try BundleFiles(url), font: try TextRenderer.standard(), catalogue: catalogue,
                options: options, progress: Console.progress("decoding objects"))
            if sheet.scale < options.scale {
                Console.error(
                    "\(output): note: the sheet is drawn at \(String(format: "%.3g", sheet.scale)) of the snapshots' size, not \(String(format: "%.3g", options.scale)), to stay under \(ContactSheet.maxSide) px a side"
                )
            }
            if page {
                try PreviewPage.write(sheet, to: target, inputs: [URL(fileURLWithPath: source), url], inline: inline)
                let size = ((try? FileManager.default.attributesOfItem(atPath: target.path)[.size]) as? NSNumber)?.intValue ?? 0
                print(
                    "\(output): \(sheet.tiles.count) snapshots, sheet \(sheet.image.width)x\(sheet.image.height)"
                        + (inline ? "; one file of \(Console.bytes(size)), images inside" : "; the page and its image folder go together"))
            } else {
                do { try OutputFile.write(PNGCodec.encode(sheet.image), to: target, example: "sheet.png", inputs: [URL(fileURLWithPath: source), url]) } catch {
                    throw Console.fail(error, context: output)
                }
                print("\(output): \(sheet.tiles.count) tiles, \(sheet.image.width)x\(sheet.image.height)")
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw Console.fail(error, context: source)
        }
    }
}

/// `--certificate FILE`: the root's certificate of the online key a command signs with.
struct CertificateOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The root's certificate of --signing-key (from certify): it goes inside the manifest, so apps that pin the root accept the signature.",
            valueName: "file"))
    var certificate: String?

    /// The certificate, read; nil without the option.
    func read() throws -> KeyCertificate? {
        guard let certificate else { return nil }
        do { return try KeyCertificate.read(String(contentsOfFile: certificate, encoding: .utf8)) } catch {
            throw Console.fail(error, context: certificate)
        }
    }

    /// `, certificate version N of root R, until DATE` for a signer with a certificate.
    static func describe(_ signer: SigningKey) -> String {
        guard let statement = signer.certificate?.unverifiedStatement else { return "" }
        return ", certificate version \(statement.version) of root \(statement.rootID), until \(statement.expires.formatted(.iso8601))"
    }
}

/// `splashgen certify`.
struct CertifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certify",
        abstract: "Certify an online signing key with the root key apps pin: a new version retires every key an older one certified.",
        discussion: """
            Run it where the root's private key lives (offline), and give CI the online key and this \
            certificate. Each certificate needs a version above every earlier one: a phone that has \
            installed a season under version N refuses every season signed under a lower one \
            (docs/reliability.md, "Keys").
            """)

    @Option(help: ArgumentHelp("The root's private key file (from keygen).", valueName: "file")) var root: String
    @OptionGroup var key: PublicKeyOption
    @Option(
        name: .customLong("certificate-version"),
        help: ArgumentHelp("The certificate's version: above every certificate this root made before.", valueName: "n"))
    var version: Int
    @Option(help: ArgumentHelp("How long the certificate holds, in days (at most 3660).", valueName: "days")) var validFor = 365
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The certificate file to write (never overwritten).", valueName: "file"))
    var output: String

    func validate() throws {
        guard key.path != nil else { throw ValidationError("certify needs --public-key, the online key's public key file (KEY.pub from keygen)") }
        guard version >= 1 else { throw ValidationError("--certificate-version must be 1 or more; found \(version)") }
        guard (1...3660).contains(validFor) else { throw ValidationError("--valid-for must be 1 to 3660 days; found \(validFor)") }
    }

    func run() throws {
        do {
            let online = try BundleSignature.publicKey(String(contentsOfFile: key.path ?? "", encoding: .utf8))
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let certificate = try KeyCertificate.certify(
                key: online, rootPrivateKey: String(contentsOfFile: root, encoding: .utf8), version: version, issued: now,
                expires: now.addingTimeInterval(Double(validFor) * 86_400))
            let target = try OutputFile.resolve(output)
            var info = stat()
            guard lstat(target.path, &info) != 0 else { throw ValidationError("\(target.path) exists; certify never overwrites a file") }
            try Data(certificate.fileText.utf8).write(to: target, options: .withoutOverwriting)
            let statement = certificate.unverifiedStatement
            print(
                "\(target.path): key \(BundleSignature.keyID(online)) certified by root \(statement?.rootID ?? "?") as version \(version), until \(statement?.expires.formatted(.iso8601) ?? "?")"
            )
        } catch let error as ValidationError {
            throw error
        } catch {
            throw Console.fail(error, context: output)
        }
    }
}
