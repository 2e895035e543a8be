// Expectations: issue 38's case as written: inside a Python virtual environment user sites are off,
// `python3 -m site --user-base` exits 1 (Python's site module: 1 when user sites are disabled by the
// user, which PYTHONNOUSERSITE does as a virtual environment does), and scripts/lint-workflows.sh
// ended there with exit 1 and no message. It must lint, and say why whenever it fails.
import Foundation
import SplashTestSupport
import Testing

/// scripts/lint-workflows.sh, which `make test` runs (it needs actionlint, shellcheck and zizmor:
/// `make deps` installs them, so `make test-fast` skips this suite).
@Suite struct LintWorkflowsTests {
    static let script = CommandLineTests.repo.appendingPathComponent("scripts/lint-workflows.sh")

    @Test func theLintRunsWhereUserSitesAreOff() throws {
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["PYTHONNOUSERSITE=1", Self.script.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("lint-workflows: zizmor --offline: no findings"), "\(run.stdout)\(run.stderr)")
        let site = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["PYTHONNOUSERSITE=1", "python3", "-m", "site", "--user-base"])
        #expect(site.status == 1, "the case is the one a virtual environment makes")
    }
}
