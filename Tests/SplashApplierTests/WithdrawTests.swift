// Expectations: issue 37's pull, as written: `publish --withdraw NAME` signs the live tree again
// without the campaign, with no rebuild; the tree remembers it, and a later publication that brings
// it back is refused by name until it is readmitted; a phone that fetches shows the pulled art at
// most once more (the launch before its app's code runs); the deploy's check refuses a tree that
// brings back what the season online withdrew.
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

@Suite(.serialized) struct WithdrawTests {
    @Test func aWithdrawnCampaignLeavesAtTheNextFetchAndStaysOutUntilReadmitted() throws {
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("season")
        try Season15.publish(Season15.full, to: tree)
        let keys = temporaryFolder("withdraw-keys")
        try Season15.key.privateKey.write(to: keys.appendingPathComponent("key"), atomically: true, encoding: .utf8)
        try Season15.key.publicKey.write(to: keys.appendingPathComponent("key.pub"), atomically: true, encoding: .utf8)
        let url = server.base.appendingPathComponent("season").absoluteString
        let phone = temporaryFolder("withdraw-phone").appendingPathComponent("s")
        let install = try splashgen(
            "sim", "install", "--sandbox", phone.path, "--app-version", "5.2", "--app-build", "100", "--public-key", keys.appendingPathComponent("key.pub").path
        )
        #expect(install.status == 0, "\(install.stderr)")
        let first = try splashgen("sim", "launch", "--sandbox", phone.path, "--from", url, "--now", "2026-11-11T12:00:00+08:00")
        #expect(first.status == 0 && first.stdout.contains("campaign   double11"), "\(first.stdout)\(first.stderr)")

        // Legal says: down now.
        let pull = try splashgen("publish", "-o", tree.path, "--signing-key", keys.appendingPathComponent("key").path, "--withdraw", "double11")
        #expect(
            pull.status == 0 && pull.stdout.contains("  - double11: withdrawn") && pull.stdout.contains("objects untouched"), "\(pull.stdout)\(pull.stderr)")
        let season = try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("manifest.json")))
        #expect(season.campaigns.map(\.id) == ["default", "mourning"] && season.withdrawn == ["double11"])

        // The next launch still shows it (the cache is shown before the app's code runs); its fetch
        // takes the withdrawal, and the launch after shows the app's own screen.
        let once = try splashgen("sim", "launch", "--sandbox", phone.path, "--from", url, "--now", "2026-11-11T13:00:00+08:00")
        #expect(
            once.status == 0 && once.stdout.contains("double11's snapshot (withdrawn)") && once.stdout.contains("campaign   default"),
            "\(once.stdout)\(once.stderr)")
        #expect(once.stdout.contains("held       double11 at this launch, before the run"), "the report names what the cache held: \(once.stdout)")
        let after = try splashgen("sim", "launch", "--sandbox", phone.path, "--from", url, "--now", "2026-11-11T14:00:00+08:00")
        #expect(after.status == 0 && after.stdout.contains("default's snapshot") && !after.stdout.contains("double11's"), "\(after.stdout)\(after.stderr)")

        // A later publication that holds it is refused by name, with nothing written.
        let before = Season15.files(tree)
        #expect(throws: PublishError.withdrawnCampaigns(["double11"])) {
            try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey)
        }
        #expect(Season15.files(tree) == before)
        // Readmitted on purpose: back, and the tree no longer lists it as withdrawn.
        let back = try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey, readmit: ["double11"])
        #expect(back.changes.contains { $0.hasPrefix("+ double11: added (readmitted)") }, "\(back.changes)")
        let readmitted = try Manifest.decode(from: Data(contentsOf: tree.appendingPathComponent("manifest.json")))
        #expect(readmitted.withdrawn == nil && readmitted.readmitted == ["double11"])
        #expect(throws: PublishError.noSuchCampaign("sale", held: ["default", "double11", "mourning"])) {
            try Publisher.withdraw(["sale"], in: tree, privateKey: Season15.key.privateKey)
        }
        #expect(throws: PublishError.self) { try Publisher.withdraw(["double11"], in: tree, privateKey: BundleSignature.makeKeyPair().privateKey) }
    }

    /// `publish --prune`: the object files no manifest served within the grace period names go, and
    /// are listed for the CDN; those of the manifest current at its start stay (a phone may still be
    /// fetching them); a tree whose record does not reach back that far is not pruned.
    @Test func pruneRemovesOnlyObjectsNoManifestServedWithinTheGraceNames() throws {
        let tree = temporaryFolder("prune").appendingPathComponent("season")
        let start = date("2026-11-01T00:00:00Z")
        func objects(_ bundle: Result<URL, any Error>) throws -> Set<String> {
            Set(
                try Manifest.decode(from: Data(contentsOf: try bundle.get().appendingPathComponent("manifest.json"))).campaigns.flatMap(\.snapshots).map(
                    \.object))
        }
        _ = try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey, now: start)
        // Too early: the publication goes out, and the prune is said to wait.
        let early = try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey, now: start, prune: 2 * 86_400)
        #expect(early.pruned == nil && early.pruneDeferred == PublishError.cannotPruneYet("2026-11-03T00:00:00Z").description)
        _ = try Publisher.publish(
            bundle: try Season15.greySale.get(), to: tree, privateKey: Season15.key.privateKey, now: start.addingTimeInterval(3_600))
        let report = try Publisher.publish(
            bundle: try Season15.withoutMourning.get(), to: tree, privateKey: Season15.key.privateKey, now: start.addingTimeInterval(3 * 86_400),
            prune: 2 * 86_400)
        // Served within the last two days: the grey sale (current two days ago) and this publication.
        let needed = try objects(Season15.greySale).union(try objects(Season15.withoutMourning))
        let gone = try objects(Season15.full).subtracting(needed)
        #expect(!gone.isEmpty)
        #expect(Set(report.pruned ?? []) == Set(gone.flatMap { ["objects/\($0)", "objects/\($0).deflate"] }))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: tree.appendingPathComponent("objects").path))
        #expect(left == Set(needed.flatMap { [$0, $0 + ".deflate"] }))
        let listed = try String(contentsOf: tree.appendingPathComponent(Publisher.prunedFile), encoding: .utf8)
        #expect(Set(listed.split(separator: "\n").map(String.init)) == Set(report.pruned ?? []))
    }

    /// `publish` says what changed against the tree's season: a rollout and a match are named.
    @Test func publishSaysWhatChangedAgainstTheTree() throws {
        let tree = temporaryFolder("diff").appendingPathComponent("season")
        _ = try Publisher.publish(bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey)
        let steered = try buildSeason("default.yaml", "double11.yaml", "mourning.yaml") { campaigns in
            campaigns[1].rollout = 10
            campaigns[1].match = Manifest.Match(languages: ["zh-Hans"], regions: ["CN"])
        }
        let report = try Publisher.publish(bundle: steered, to: tree, privateKey: Season15.key.privateKey)
        #expect(report.changes == ["~ double11: rollout every phone → 10%; match every phone → (languages zh-Hans; regions CN)"], "\(report.changes)")
        let again = try Publisher.publish(bundle: steered, to: tree, privateKey: Season15.key.privateKey)
        #expect(again.changes.isEmpty, "\(again.changes)")
    }

    /// CI publishes into a fresh folder, so the deploy checks what the season online withdrew.
    @Test func theDeployRefusesATreeThatBringsBackWhatTheSeasonOnlineWithdrew() throws {
        let root = temporaryFolder("withdraw-deploy")
        try Season15.key.publicKey.write(to: root.appendingPathComponent("key.pub"), atomically: true, encoding: .utf8)
        let online = root.appendingPathComponent("online")
        try Season15.publish(Season15.full, to: online)
        _ = try Publisher.withdraw(["double11"], in: online, privateKey: Season15.key.privateKey)
        func verify(_ tree: URL) throws -> ProcessRun {
            try runProcess(
                Repo.root.appendingPathComponent("scripts/verify-season.sh"),
                [root.appendingPathComponent("key.pub").path, tree.path, online.appendingPathComponent("manifest.json").path])
        }
        // CI's serial is later than the withdrawal's.
        let later = Int(Date().timeIntervalSince1970) + 1_000
        let fresh = root.appendingPathComponent("fresh")
        _ = try Publisher.publish(bundle: try Season15.full.get(), to: fresh, privateKey: Season15.key.privateKey, serial: later)
        let refused = try verify(fresh)
        #expect(refused.status == 1 && refused.stdout.contains("double11 was withdrawn from the season online"), "\(refused.stdout)")
        let readmitting = root.appendingPathComponent("readmitting")
        _ = try Publisher.publish(bundle: try Season15.full.get(), to: readmitting, privateKey: Season15.key.privateKey, serial: later, readmit: ["double11"])
        let passed = try verify(readmitting)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        let without = root.appendingPathComponent("without")
        _ = try Publisher.publish(bundle: try Season15.withoutMourning.get(), to: without, privateKey: Season15.key.privateKey, serial: later)
        #expect(try verify(without).status == 1, "double11 is in it too")
    }

    /// Issue 37's play: eight phones with different habits fetch a season, double11 is withdrawn two
    /// hours into the sale, and every phone launches every two hours until the sale ends. A phone
    /// that fetches shows the pulled art at most once more (its launch before the fetch that drops
    /// it); one that never fetches again shows it until the season's expiry, and not after. The
    /// test prints, per phone, how long the pulled art was shown after the withdrawal.
    @Test func aWithdrawalPlayedAcrossPhonesWithDifferentFetchHabits() async throws {
        let server = try NginxServer()
        let tree = server.root.appendingPathComponent("season")
        let start = date("2026-11-10T20:00:00+08:00"), withdrawal = date("2026-11-10T22:00:00+08:00")
        let expiry = start.addingTimeInterval(86_400)
        _ = try Publisher.publish(
            bundle: try Season15.full.get(), to: tree, privateKey: Season15.key.privateKey, serial: 1, validFor: 86_400, now: start)
        // Hours between fetches (nil: never again after the first).
        let habits: [Int?] = [2, 2, 4, 6, 8, 12, nil, nil]
        var phones: [SandboxSimulator] = []
        for index in habits.indices {
            let sim = SandboxSimulator(root: temporaryFolder("play-phone-\(index)").appendingPathComponent("s"))
            _ = try sim.install(
                launchScreen: Repo.ownStoryboard, version: "5.2", build: "100", device: "iPhone 15", ios: "17.0", pinnedKey: Season15.key.publicKey)
            phones.append(sim)
        }
        var lastFetch = [Date?](repeating: nil, count: phones.count)
        var shownAfter = [Date?](repeating: nil, count: phones.count)
        var withdrawn = false
        var now = start.addingTimeInterval(3_600)
        while now < date("2026-11-12T02:00:00+08:00") {
            if !withdrawn, now >= withdrawal {
                _ = try Publisher.withdraw(["double11"], in: tree, privateKey: Season15.key.privateKey, clock: 2)
                withdrawn = true
            }
            for (index, sim) in phones.enumerated() {
                let due = lastFetch[index].map { last in habits[index].map { now.timeIntervalSince(last) >= Double($0) * 3_600 } ?? false } ?? true
                var fetcher = try sim.fetcher(from: server.base.appendingPathComponent("season"), trust: Season15.trust)
                fetcher.clock = { [now] in now }
                if due {
                    _ = try? await fetcher.fetch()
                    lastFetch[index] = now
                }
                let launch = try sim.launch(bundle: fetcher.current, now: now)
                if withdrawn, launch.showing.hasPrefix("double11's snapshot") { shownAfter[index] = now }
            }
            now.addTimeInterval(2 * 3_600)
        }
        for (index, last) in shownAfter.enumerated() {
            let hours = last.map { String(format: "%.0f h", $0.timeIntervalSince(withdrawal) / 3_600) } ?? "never"
            print(
                "withdrawal play: phone \(index) (fetches \(habits[index].map { "every \($0) h" } ?? "once")): pulled art last shown \(hours) after the withdrawal"
            )
            guard let last else { continue }
            if let hours = habits[index] {
                // At most once more: the launch before the first fetch after the withdrawal.
                #expect(last.timeIntervalSince(withdrawal) <= Double(hours) * 3_600 + 2 * 3_600, "phone \(index)")
            } else {
                #expect(last < expiry.addingTimeInterval(2 * 3_600), "phone \(index): shown at \(last), past the expiry \(expiry) by more than one launch")
            }
        }
        #expect(shownAfter.contains { $0 != nil }, "some phone showed the pulled art after the withdrawal")
    }

}
