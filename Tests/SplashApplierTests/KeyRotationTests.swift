// Expectations: issue 38's rules as written. The app pins a root; a season signed by an online key
// holds only with the root's unexpired certificate of that key; a phone that has installed a season
// under certificate version N refuses every season under a lower one (a retired key), whatever its
// serial; a new version starts the serial again, so a serial a leaked key pushed ahead is left
// behind. The deploy's check (scripts/verify-season.sh) is OpenSSL's, not this code's.
import Foundation
@_spi(Testing) import SplashApplier
import SplashCore
import SplashFormat
import SplashFormatWriting
import SplashScenarios
import SplashSimulator
import SplashTestSupport
@_spi(Testing) import SplashUpdater
import Testing

/// A root and the online keys it certifies, made for one test.
struct KeyChain {
    let root = BundleSignature.makeKeyPair()
    var rootKey: Data { try! BundleSignature.publicKey(root.publicKey) }
    var trust: BundleTrust { .pinned(try! PinnedKey(root.publicKey)) }

    /// A new online key and the root's certificate of it, version `version`, expiring `expires`.
    func online(
        version: Int, expires: Date = Date().addingTimeInterval(90 * 86_400)
    ) throws -> (key: (privateKey: String, publicKey: String), certificate: KeyCertificate) {
        let key = BundleSignature.makeKeyPair()
        let certificate = try KeyCertificate.certify(
            key: try BundleSignature.publicKey(key.publicKey), rootPrivateKey: root.privateKey, version: version,
            issued: expires.addingTimeInterval(-100 * 86_400), expires: expires)
        return (key, certificate)
    }

    /// Writes the root's `.pub` into a fresh folder.
    func rootFile() throws -> URL {
        let url = temporaryFolder("root").appendingPathComponent("root.pub")
        try root.publicKey.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

@Suite(.serialized) struct KeyRotationTests {
    /// A manifest `key` signed with `certificate` inside: its bytes and signature text.
    func signed(_ key: String, certificate: KeyCertificate?) throws -> (Data, String) {
        try SigningKey(privateKey: key, certificate: certificate).sign(Self.manifest)
    }

    static let manifest = Manifest(generator: "test", app: .init(bundleID: "com.example.shop"), campaigns: [])

    @Test func aCertifiedKeysSignatureHoldsAndEveryOtherChainIsRefusedByName() throws {
        let chain = KeyChain(), other = KeyChain()
        let (online, certificate) = try chain.online(version: 3)
        let (data, signature) = try signed(online.privateKey, certificate: certificate)
        let signer = try BundleSignature.check(data, signature: signature, root: chain.rootKey, at: Date())
        let onlineID = BundleSignature.keyID(try BundleSignature.publicKey(online.publicKey))
        #expect(signer.version == 3 && signer.keyID == onlineID)
        #expect(signer.chain.contains("signed by key \(onlineID), certified by root \(BundleSignature.keyID(chain.rootKey)) (certificate version 3"))

        // Another root's app: the certificate is not its root's.
        #expect(throws: BundleProblem.certificateNotFromRoot(root: BundleSignature.keyID(other.rootKey))) {
            try BundleSignature.check(data, signature: signature, root: other.rootKey, at: Date())
        }
        // Past the certificate's expiry.
        let expiry = certificate.unverifiedStatement!.expires
        #expect(throws: BundleProblem.certificateExpired(key: onlineID, version: 3, expires: expiry)) {
            try BundleSignature.check(data, signature: signature, root: chain.rootKey, at: expiry)
        }
        // Another key signs, with the certificate of the online key copied in.
        let thief = BundleSignature.makeKeyPair()
        let forged = try BundleSignature.sign(data, privateKey: thief.privateKey)
        #expect(throws: BundleProblem.badSignatureOfCertifiedKey(onlineID)) {
            try BundleSignature.check(data, signature: forged, root: chain.rootKey, at: Date())
        }
        // A statement edited to a higher version, the root's signature kept.
        var statement = certificate.unverifiedStatement!
        statement.version = 99
        let edited = KeyCertificate(statement: try KeyCertificate.encoder.encode(statement).base64EncodedString(), signature: certificate.signature)
        var manifest = Self.manifest
        manifest.certificate = edited
        let editedData = manifest.encoded()
        #expect(throws: BundleProblem.certificateNotFromRoot(root: BundleSignature.keyID(chain.rootKey))) {
            try BundleSignature.check(
                editedData, signature: try BundleSignature.sign(editedData, privateKey: online.privateKey), root: chain.rootKey, at: Date())
        }
        // The root itself may sign (and an app that pins the key CI signs with keeps working).
        let (direct, directSignature) = try signed(chain.root.privateKey, certificate: nil)
        #expect(try BundleSignature.check(direct, signature: directSignature, root: chain.rootKey, at: Date()).version == 0)
        #expect(try BundleSignature.check(data, signature: signature, root: try BundleSignature.publicKey(online.publicKey), at: Date()).certificate == nil)
        // A certificate for another key is refused when signing, by name.
        #expect(throws: SignatureError.self) { try SigningKey(privateKey: thief.privateKey, certificate: certificate) }
    }

    @Test func publishRanksByCertificateVersionAndRefusesARetiredKey() throws {
        let chain = KeyChain()
        let (first, firstCertificate) = try chain.online(version: 1)
        let (second, secondCertificate) = try chain.online(version: 2)
        let tree = temporaryFolder("rotation-tree").appendingPathComponent("season")
        let bundle = try Season15.full.get()
        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: first.privateKey, certificate: firstCertificate, serial: Int.max - 1)
        // Under a new version the serial starts again.
        let report = try Publisher.publish(bundle: bundle, to: tree, privateKey: second.privateKey, certificate: secondCertificate, serial: 5)
        #expect(report.serial == 5)
        let held = try Publisher.heldSerial(in: tree)
        #expect(held.serial == 5 && held.version == 2)
        #expect(throws: PublishError.retiredCertificate(version: 1, held: 2)) {
            try Publisher.publish(bundle: bundle, to: tree, privateKey: first.privateKey, certificate: firstCertificate, serial: 6)
        }
        #expect(throws: PublishError.serialNotGreater(requested: 5, held: 5)) {
            try Publisher.publish(bundle: bundle, to: tree, privateKey: second.privateKey, certificate: secondCertificate, serial: 5)
        }
    }

    @Test func aRetiredKeysSeasonIsRefusedAndASerialItPushedAheadIsLeftBehind() async throws {
        let chain = KeyChain()
        let (first, firstCertificate) = try chain.online(version: 1)
        let (second, secondCertificate) = try chain.online(version: 2)
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("season")
        let bundle = try Season15.full.get()
        var fetcher = Season15.fetcher(server, "season")
        fetcher.trust = chain.trust

        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: first.privateKey, certificate: firstCertificate, serial: 10)
        #expect(try await fetcher.fetch().serial == 10)
        // The online key leaks; its holder publishes far ahead. A phone that has not seen the
        // retirement takes it.
        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: first.privateKey, certificate: firstCertificate, serial: Int.max - 1)
        let leaked = try Season15.slice(in: tree)
        #expect(try await fetcher.fetch().serial == Int.max - 1)
        // The retirement: a new key, certified as version 2, publishing at an ordinary serial.
        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: second.privateKey, certificate: secondCertificate, serial: 11)
        let recovered = try await fetcher.fetch()
        #expect(recovered.installedNew && recovered.serial == 11 && recovered.signer?.version == 2)
        #expect(try String(contentsOf: fetcher.folder.appendingPathComponent("serial"), encoding: .utf8) == "11 2")
        // The leaked key's season served again: refused by name, the new season kept.
        try Season15.serve(leaked, in: tree)
        await #expect(throws: FetchError.retiredKey(version: 1, held: 2)) { try await fetcher.fetch() }
        #expect(try Manifest.decode(from: Data(contentsOf: fetcher.installed.appendingPathComponent("manifest.json"))).keyVersion == 2)
        // And once the certificate has expired, its key's season is refused too.
        // Serial 1200, not 12: nginx's ETag is the file's mtime (whole seconds) and size, and a slice
        // of the same size written in the same second as the installed one would be answered 304.
        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: second.privateKey, certificate: secondCertificate, serial: 1200)
        fetcher.clock = { secondCertificate.unverifiedStatement!.expires }
        await #expect(throws: FetchError.self) { try await fetcher.fetch() }
        fetcher.clock = { Date() }
        let last = try await fetcher.fetch()
        #expect(last.serial == 1200, "\(last)")
    }

    /// Issue 38's rehearsal in the simulator: four phones that pin the root install a season signed
    /// by the first online key; the key is retired while two of them are offline, and a replay of
    /// its season is served to each phone at each step. Every phone ends on the new key, and none
    /// installs the retired key's season once it has seen the retirement.
    @Test func aRotationRehearsedWhileHalfThePhonesAreOffline() throws {
        let chain = KeyChain()
        let (first, firstCertificate) = try chain.online(version: 1)
        let (second, secondCertificate) = try chain.online(version: 2)
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("season")
        let url = server.base.appendingPathComponent("season").absoluteString
        let bundle = try Season15.full.get()
        let rootFile = try chain.rootFile()
        let phones = (0..<4).map { temporaryFolder("rotation-phone-\($0)").appendingPathComponent("s") }
        for phone in phones {
            let install = try splashgen("sim", "install", "--sandbox", phone.path, "--app-version", "5.2", "--app-build", "100", "--public-key", rootFile.path)
            #expect(install.status == 0, "\(install.stderr)")
        }
        func launch(_ phone: URL, online: Bool, day: Int) throws -> ProcessRun {
            try splashgen(
                ["sim", "launch", "--sandbox", phone.path, "--now", "2026-11-\(10 + day)T12:00:00+08:00"] + (online ? ["--from", url] : []))
        }
        func installedVersion(_ phone: URL) throws -> Int {
            let manifest = SandboxSimulator(root: phone).container.appendingPathComponent(
                "Library/Application Support/splashgen/downloads/bundle/manifest.json")
            return try Manifest.decode(from: Data(contentsOf: manifest)).keyVersion
        }

        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: first.privateKey, certificate: firstCertificate, serial: 100)
        let retired = try Season15.slice(in: tree)
        for phone in phones {
            let run = try launch(phone, online: true, day: 1)
            #expect(run.status == 0 && run.stdout.contains("certificate version 1"), "\(run.stdout)\(run.stderr)")
        }
        // The retirement, while phones 2 and 3 are offline.
        _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: second.privateKey, certificate: secondCertificate, serial: 50)
        let current = try Season15.slice(in: tree)
        for (index, phone) in phones.enumerated() {
            let run = try launch(phone, online: index < 2, day: 2)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(try installedVersion(phone) == (index < 2 ? 2 : 1))
        }
        // The retired key's season replayed: the phones that saw the retirement refuse it.
        try Season15.serve(retired, in: tree)
        for phone in phones.prefix(2) {
            let run = try launch(phone, online: true, day: 3)
            #expect(run.status == 3 && run.stderr.contains("signed by a retired key, refused"), "\(run.stdout)\(run.stderr)")
            #expect(try installedVersion(phone) == 2)
        }
        // The offline phones come back to the current season, then meet the replay too.
        try Season15.serve(current, in: tree)
        for phone in phones.suffix(2) {
            let run = try launch(phone, online: true, day: 4)
            #expect(run.status == 0 && run.stdout.contains("certificate version 2"), "\(run.stdout)\(run.stderr)")
        }
        try Season15.serve(retired, in: tree)
        for phone in phones {
            let run = try launch(phone, online: true, day: 5)
            #expect(run.status == 3 && run.stderr.contains("signed by a retired key, refused"), "\(run.stdout)\(run.stderr)")
            #expect(try installedVersion(phone) == 2, "every phone ends on the new key")
        }
    }

    /// The deploy's verification step (deploy-example.yml runs scripts/verify-season.sh against the
    /// committed root key before its first upload): a tree signed by anything but an unexpired
    /// online key the root certified fails it, by name, and so does one ranked below the season online.
    @Test func theDeploysVerificationRefusesATreeNotSignedByTheCertifiedOnlineKey() throws {
        let chain = KeyChain()
        let rootFile = try chain.rootFile()
        let bundle = try Season15.full.get()
        func tree(_ key: String, _ certificate: KeyCertificate?, serial: Int = 7) throws -> URL {
            let tree = temporaryFolder("deploy-tree").appendingPathComponent("season")
            _ = try Publisher.publish(bundle: bundle, to: tree, privateKey: key, certificate: certificate, serial: serial)
            return tree
        }
        func verify(_ tree: URL, online: URL? = nil) throws -> ProcessRun {
            try runProcess(Repo.root.appendingPathComponent("scripts/verify-season.sh"), [rootFile.path, tree.path] + (online.map { [$0.path] } ?? []))
        }
        let (online, certificate) = try chain.online(version: 2)
        let good = try tree(online.privateKey, certificate)
        let passed = try verify(good)
        #expect(passed.status == 0 && passed.stdout.contains("certificate version 2"), "\(passed.stdout)\(passed.stderr)")

        let throwaway = try verify(try tree(BundleSignature.makeKeyPair().privateKey, nil))
        #expect(throwaway.status == 1 && throwaway.stdout.contains("manifest.json: the signature does not verify with the root key"), "\(throwaway.stdout)")
        let foreign = try KeyChain().online(version: 2)
        let otherRoot = try verify(try tree(foreign.key.privateKey, foreign.certificate))
        #expect(otherRoot.status == 1, "\(otherRoot.stdout)")
        let (stale, staleCertificate) = try chain.online(version: 1, expires: Date().addingTimeInterval(-60))
        let expired = try verify(try tree(stale.privateKey, staleCertificate))
        #expect(expired.status == 1 && expired.stdout.contains("expired at"), "\(expired.stdout)")
        // One slice tampered with: named.
        let tampered = try tree(online.privateKey, certificate)
        let slice = tampered.appendingPathComponent("screens/1179x2556.json")
        try (try Data(contentsOf: slice) + Data(" ".utf8)).write(to: slice)
        let named = try verify(tampered)
        #expect(named.status == 1 && named.stdout.contains("screens/1179x2556.json: the signature does not verify with key"), "\(named.stdout)")
        // Ranked below the season online: a retired key's tree over its successor's.
        let (older, olderCertificate) = try chain.online(version: 1)
        let retired = try verify(try tree(older.privateKey, olderCertificate, serial: 9), online: good.appendingPathComponent("manifest.json"))
        #expect(retired.status == 1 && retired.stdout.contains("a retired key"), "\(retired.stdout)")

        // The deploy runs the check before its first upload.
        let workflow = try String(contentsOf: Repo.root.appendingPathComponent(".github/workflows/deploy-example.yml"), encoding: .utf8)
        let check = try #require(workflow.range(of: "repository/scripts/verify-season.sh repository/keys/root.pub \"$TREE\"\n"))
        let upload = try #require(workflow.range(of: "1. Upload the objects"))
        #expect(check.lowerBound < upload.lowerBound)
    }

    /// The release's signing step as bundles.yml runs it (scripts/sign-release.sh, in a copy of the
    /// repository's layout with a root and a certificate committed): every campaign packed and the
    /// season published under the online key, and the tree verified against the root.
    @Test func theSigningStepSignsPublishesAndVerifiesUnderTheRoot() throws {
        let chain = KeyChain()
        let (online, certificate) = try chain.online(version: 3)
        let repository = temporaryFolder("release").appendingPathComponent("repository")
        for script in ["sign-release.sh", "verify-season.sh", "commit-time.sh", "fetch-live-slices.sh"] {
            try FileManager.default.createDirectory(at: repository.appendingPathComponent("scripts"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Repo.root.appendingPathComponent("scripts/" + script), to: repository.appendingPathComponent("scripts/" + script))
        }
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("keys"), withIntermediateDirectories: true)
        try chain.root.publicKey.write(to: repository.appendingPathComponent("keys/root.pub"), atomically: true, encoding: .utf8)
        try certificate.fileText.write(to: repository.appendingPathComponent("keys/online.cert"), atomically: true, encoding: .utf8)
        let unsigned = repository.deletingLastPathComponent().appendingPathComponent("unsigned")
        try FileManager.default.createDirectory(at: unsigned, withIntermediateDirectories: true)
        for name in ["season", "default"] { try FileManager.default.copyItem(at: try Season15.full.get(), to: unsigned.appendingPathComponent(name)) }
        let signed = repository.deletingLastPathComponent().appendingPathComponent("signed")
        let splashgen = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("splashgen")
        let run = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "SIGNING_KEY_TEXT=\(online.privateKey)", "SOURCE_DATE_EPOCH=1000", "bash", repository.appendingPathComponent("scripts/sign-release.sh").path,
                splashgen.path, unsigned.path, signed.path,
            ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("default.zip: ok (archive") && run.stdout.contains("certificate version 3"), "\(run.stdout)")
        #expect(run.stdout.contains("verify-season: \(signed.path)/cdn/season: serial 1000, signed by key"), "\(run.stdout)")
        #expect(!run.stdout.contains(online.privateKey) && !run.stderr.contains(online.privateKey), "the key is never printed")

        // With the season online (SEASON_URL), the publication starts from its signed files: a
        // campaign it withdrew is refused by name, unless READMIT brings it back.
        let server = try NginxServer()
        let live = server.root.appendingPathComponent("season")
        _ = try Publisher.publish(bundle: try Season15.full.get(), to: live, privateKey: online.privateKey, certificate: certificate)
        _ = try Publisher.withdraw(["double11"], in: live, privateKey: online.privateKey, certificate: certificate)
        func sign(_ settings: [String]) throws -> ProcessRun {
            let out = temporaryFolder("signed")
            return try runProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "SIGNING_KEY_TEXT=\(online.privateKey)", "SOURCE_DATE_EPOCH=1000",
                    "SEASON_URL=\(server.base.appendingPathComponent("season").absoluteString)",
                ]
                    + settings + ["bash", repository.appendingPathComponent("scripts/sign-release.sh").path, splashgen.path, unsigned.path, out.path])
        }
        let refused = try sign([])
        #expect(refused.status != 0 && refused.stderr.contains("double11 was withdrawn from this tree"), "\(refused.stdout)\(refused.stderr)")
        let readmitted = try sign(["READMIT=double11"])
        #expect(readmitted.status == 0 && readmitted.stdout.contains("+ double11: added (readmitted)"), "\(readmitted.stdout)\(readmitted.stderr)")
    }

    /// The commands a team runs: keygen prints each key's id, certify writes the certificate (and
    /// never over a file), sign puts it in the manifest, and verify names the chain it checked.
    @Test func theCommandsCertifySignAndNameTheChain() throws {
        let folder = temporaryFolder("certify")
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let root = try splashgen("keygen", "-o", path("root"))
        let online = try splashgen("keygen", "-o", path("online"))
        #expect(root.status == 0 && online.status == 0)
        let rootID = BundleSignature.keyID(try BundleSignature.publicKey(String(contentsOfFile: path("root.pub"), encoding: .utf8)))
        let onlineID = BundleSignature.keyID(try BundleSignature.publicKey(String(contentsOfFile: path("online.pub"), encoding: .utf8)))
        #expect(root.stdout.hasPrefix("key \(rootID): "), "\(root.stdout)")
        let certify = [
            "certify", "--root", path("root"), "--public-key", path("online.pub"), "--certificate-version", "4", "--valid-for", "30", "-o", path("online.cert"),
        ]
        let made = try splashgen(certify)
        #expect(made.status == 0 && made.stdout.contains("key \(onlineID) certified by root \(rootID) as version 4"), "\(made.stdout)\(made.stderr)")
        let again = try splashgen(certify)
        #expect(again.status != 0 && again.stderr.contains("never overwrites"), "\(again.stderr)")
        let zero = try splashgen(["certify", "--root", path("root"), "--public-key", path("online.pub"), "--certificate-version", "0", "-o", path("zero.cert")])
        #expect(zero.status == 64 && zero.stderr.contains("--certificate-version must be 1 or more"), "\(zero.stderr)")

        let bundle = folder.appendingPathComponent("bundle")
        try FileManager.default.copyItem(at: try Season15.full.get(), to: bundle)
        let signed = try splashgen("sign", bundle.path, "--signing-key", path("online"), "--certificate", path("online.cert"))
        #expect(
            signed.status == 0 && signed.stdout.contains("with key \(onlineID), certificate version 4 of root \(rootID)"), "\(signed.stdout)\(signed.stderr)")
        let verified = try splashgen("verify", bundle.path, "--public-key", path("root.pub"))
        #expect(
            verified.status == 0 && verified.stdout.contains("signature valid: signed by key \(onlineID), certified by root \(rootID) (certificate version 4"),
            "\(verified.stdout)\(verified.stderr)")
        // The certificate names another key than the one signing: refused, by name.
        let wrong = try splashgen("sign", bundle.path, "--signing-key", path("root"), "--certificate", path("online.cert"))
        #expect(wrong.status == 1 && wrong.stderr.contains("the certificate certifies key \(onlineID), not this private key's \(rootID)"), "\(wrong.stderr)")
    }

}
