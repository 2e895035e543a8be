// What an app does with the applier product (SplashApplier) once it has a bundle folder:
// `SnapshotApplier.forThisApp`, an outcome handler, `apply()`, and `status()` and `restore()` (an
// app's kill switch), their reports read. ApplierApp.swift and UpdaterApp.swift both call it.
import Foundation
import SplashApplier

enum ApplierRun {
    static let key = "ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="

    static func run(bundle: URL?, trust: BundleTrust, screenScale: Int, restore: Bool) async throws {
        var applier = try await MainActor.run { try SnapshotApplier.forThisApp(bundle: bundle, trust: trust, screenScale: screenScale) }
        applier.outcome = { result in
            if case .success(let report) = result { print("splashgen: this launch showed \(report.heldAtLaunch ?? "different pictures per file")") }
        }
        let report = restore ? try await applier.restore() : try await applier.apply()
        for problem in report.problems { print("splashgen: \(problem.code.rawValue): \(problem)") }
        print("splashgen: next change \(report.nextChange ?? .distantFuture)")
        let status = try await applier.status()
        print("splashgen: \(status.campaign ?? "no campaign"), complete: \(status.complete)")
    }
}
