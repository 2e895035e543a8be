// Expectations: issue 37's rollout, as written: each install draws its place once and keeps it, on
// the phone only; `rollout: 10` reaches 10% ± 2 of 2,000 phones, raising it to 20% keeps every one of
// them, 0% reaches none; a phone outside the rollout shows the next campaign in force, or the
// originals; bad input is an error at file:line:col. The 2,000 phones draw from a seeded generator
// (the applier's own draw, with SplitMix64 as its generator), so the count does not vary by run.
import Foundation
@_spi(UnsignedBundles) import SplashApplier
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

@Suite struct RolloutTests {
    func campaign(_ id: String, rollout: Double?) -> Manifest.Campaign {
        Manifest.Campaign(
            id: id, schedule: .init(start: Date(timeIntervalSince1970: 0), end: nil), grey: false, encoding: .atx, snapshots: [], rollout: rollout)
    }

    @Test func tenPercentReachesTenPercentOf2000PhonesAndTwentyKeepsEveryOne() {
        var generator = SplitMix64(state: 2026)
        let phones = (0..<2000).map { _ in SnapshotApplier.drawRollout(using: &generator) }
        func reached(_ rollout: Double, _ id: String = "double11") -> Set<Int> {
            Set(phones.indices.filter { campaign(id, rollout: rollout).rollsOut(toBucket: phones[$0]) })
        }
        let ten = reached(10), twenty = reached(20)
        #expect((160...240).contains(ten.count), "10% of 2,000 is 200 ± 40; reached \(ten.count)")
        #expect((360...440).contains(twenty.count), "20% of 2,000 is 400 ± 40; reached \(twenty.count)")
        #expect(ten.isSubset(of: twenty), "raising the share only adds phones")
        #expect(reached(0).isEmpty && reached(100).count == 2000)
        #expect(campaign("double11", rollout: nil).rollsOut(toBucket: nil), "no rollout: every phone, drawn or not")
        #expect(!campaign("double11", rollout: 50).rollsOut(toBucket: nil), "a rollout needs a draw")
        // Another campaign at 10% reaches other phones: about a tenth of these, not the same ones.
        let other = reached(10, "spring-sale")
        #expect(other != ten && ten.intersection(other).count < ten.count / 2, "\(ten.intersection(other).count) in both")
        print("rollout: 10% reached \(ten.count) of 2,000 phones, 20% \(twenty.count) (every one of the 10% among them); 0% none")
    }

    /// The app's applier on a fresh copy of an installed iPhone 15, during the sale.
    func applier(_ bundle: URL, draw: Int?) throws -> (SandboxSimulator, SnapshotApplier) {
        let sim = try sandbox(Installed.iPhone15)
        let model = try sim.model()
        var applier = SnapshotApplier(
            container: sim.container, bundle: bundle, appVersion: model.version, appBuild: model.build,
            osVersion: OSVersion(model.ios)!, decoder: SnapshotDecoder(), trust: .acceptingUnsignedBundles,
            clock: { date("2026-11-11T09:00:00+08:00") })
        applier.rolloutDraw = draw
        return (sim, applier)
    }

    @Test func aPhoneOutsideTheRolloutShowsTheNextCampaignAndKeepsItsDraw() throws {
        let bundle = try buildSeason("default.yaml", "double11.yaml") { campaigns in
            campaigns[1].rollout = 10
        }
        let manifest = try Manifest.decode(from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(manifest.schema == 4, "an earlier SplashApplier refuses a rollout rather than show it to every phone")
        let double11 = try #require(manifest.campaigns.first { $0.id == "double11" })
        let inside = (0..<10_000).first { double11.rollsOut(toBucket: $0) }!
        let outside = (0..<10_000).first { !double11.rollsOut(toBucket: $0) }!
        for (draw, expected) in [(inside, "double11"), (outside, "default")] {
            let report = try applier(bundle, draw: draw).1.apply()
            #expect(report.files.allSatisfy { $0.showing == expected }, "draw \(draw): \(report.files.map(\.showing))")
            if expected == "default" { #expect(report.notShown.contains { $0.campaign == "double11" && $0.reason == .notInRollout }) }
        }
        // A phone with no fixed draw draws once, keeps it in its support folder, and the next run reads it.
        let (sim, applier) = try applier(bundle, draw: nil)
        let status = try applier.status()
        #expect(status.notShown.contains { $0.campaign == "double11" && $0.message.contains("has not drawn its place yet") })
        let kept = sim.container.appendingPathComponent("Library/Application Support/splashgen/rollout-draw")
        #expect(!FileManager.default.fileExists(atPath: kept.path), "status changes nothing")
        _ = try applier.apply()
        let draw = try #require(Int(String(contentsOf: kept, encoding: .utf8)))
        let again = try applier.apply()
        #expect(try Int(String(contentsOf: kept, encoding: .utf8)) == draw)
        #expect(again.files.allSatisfy { $0.showing == (double11.rollsOut(toBucket: draw) ? "double11" : "default") })
    }

    @Test(arguments: [
        ("rollout: 150", "rollout: expected a number from 0 to 100; found 150"),
        ("rollout: ten", "rollout: expected a number; found \"ten\""),
        ("rollout: 10.125", "rollout: a percentage in hundredths at most (each phone draws one of 10,000 places); found 10.125"),
        ("rollout: 10\nown_screen: true", "rollout: the app's own screen (own_screen: true) is shown to every phone"),
    ])
    func aBadRolloutIsAnErrorAtItsPlace(_ line: String, _ message: String) throws {
        let folder = temporaryFolder("rollout-yaml")
        try FileManager.default.copyItem(at: Repo.root.appendingPathComponent("campaigns/art"), to: folder.appendingPathComponent("art"))
        let text = try String(contentsOf: Repo.campaign("double11.yaml"), encoding: .utf8).replacingOccurrences(of: "\npriority:", with: "\n\(line)\npriority:")
        let file = folder.appendingPathComponent("sale.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let row = text.components(separatedBy: "\n").firstIndex { $0.hasPrefix("rollout:") }! + 1
        #expect {
            try CampaignLoader(catalogue: DeviceCatalogue.bundled()).load(contentsOf: file, displayPath: "sale.yaml")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("sale.yaml:\(row):10: error: \(message)")
        }
    }
}
