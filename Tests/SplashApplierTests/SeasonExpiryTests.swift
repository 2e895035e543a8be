// Expectations: issue 37's bound, as written: every published manifest carries a signed expiry; a
// phone that fetches nothing newer before it stops showing any campaign of it and puts the originals
// back, with a named problem; a fetcher refuses a season served past its expiry. The dates are the
// campaigns' own (campaigns/double11.yaml: 2026-11-10T20:00+08:00 to 2026-11-12T02:00+08:00;
// default.yaml: from 2026-01-01, no end).
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

@Suite(.serialized) struct SeasonExpiryTests {
    /// Published 2026-11-10T00:00:00Z for three days: it expires 2026-11-13T00:00:00Z.
    static let published = ScheduleTime.date("2026-11-10T00:00:00Z")!
    static let expiry = ScheduleTime.date("2026-11-13T00:00:00Z")!

    func publish(to tree: URL, serial: Int = 1) throws {
        _ = try Publisher.publish(
            bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey, serial: serial, validFor: 3 * 86_400, now: Self.published)
    }

    @Test func aPhoneThatNeverFetchesAgainStopsShowingTheSeasonOnceItExpires() throws {
        let server = try NginxServer()
        try publish(to: server.root.appendingPathComponent("season"))
        let keyFile = temporaryFolder("key").appendingPathComponent("key.pub")
        try Season15.key.publicKey.write(to: keyFile, atomically: true, encoding: .utf8)
        let phone = temporaryFolder("expiry-phone").appendingPathComponent("s")
        let install = try splashgen("sim", "install", "--sandbox", phone.path, "--app-version", "5.2", "--app-build", "100", "--public-key", keyFile.path)
        #expect(install.status == 0, "\(install.stderr)")

        let fetched = try splashgen(
            "sim", "launch", "--sandbox", phone.path, "--from", server.base.appendingPathComponent("season").absoluteString, "--now",
            "2026-11-11T12:00:00+08:00")
        #expect(fetched.status == 0 && fetched.stdout.contains("double11"), "\(fetched.stdout)\(fetched.stderr)")
        // Offline from here on: the sale ends, the app's own screen is in force, then the season expires.
        let before = try splashgen("sim", "launch", "--sandbox", phone.path, "--now", "2026-11-12T23:00:00+08:00")
        #expect(before.status == 0 && before.stdout.contains("showed") && before.stdout.contains("default"), "\(before.stdout)\(before.stderr)")
        // The launch after the expiry still shows what the cache held (the cache is shown before any
        // app code runs); the app's run then puts the originals back, and the next launch shows them.
        let expiring = try splashgen("sim", "launch", "--sandbox", phone.path, "--now", "2026-11-13T09:00:00+08:00")
        #expect(expiring.status == 3, "a named problem: \(expiring.stdout)\(expiring.stderr)")
        #expect(expiring.stdout.contains("showed") && expiring.stdout.contains("default's snapshot"), "\(expiring.stdout)")
        #expect(expiring.stdout.contains("problem season-expired: the season expired 2026-11-13T00:00:00Z"), "\(expiring.stdout)")
        #expect(expiring.stdout.contains("restored, showing original"), "\(expiring.stdout)")
        let after = try splashgen("sim", "launch", "--sandbox", phone.path, "--now", "2026-11-13T10:00:00+08:00")
        #expect(after.status == 0 && after.stdout.contains("the OS's render"), "\(after.stdout)\(after.stderr)")
    }

    @Test func aSeasonServedPastItsExpiryIsRefusedAndTheInstalledOneKept() async throws {
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("season")
        try publish(to: tree)
        var fetcher = Season15.fetcher(server, "season")
        fetcher.clock = { ScheduleTime.date("2026-11-11T00:00:00Z")! }
        #expect(try await fetcher.fetch().serial == 1)
        try publish(to: tree, serial: 2)
        fetcher.clock = { Self.expiry }
        await #expect(throws: FetchError.expired(Self.expiry)) { try await fetcher.fetch() }
        #expect(try Manifest.decode(from: Data(contentsOf: fetcher.installed.appendingPathComponent("manifest.json"))).serial == 1)
        let manifest = try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("manifest.json")))
        #expect(manifest.expires == Self.expiry && manifest.validUntil == Self.expiry)
    }

}
