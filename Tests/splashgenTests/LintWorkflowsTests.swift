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

    /// Issue 38: no step given a secret runs apt-get, pip or the tests, and a job holding one is
    /// protected and limited to the default branch or tags. The rule passes the workflows as they
    /// are, and fails the release job as it was (the signing key in the step that ran .ci/run, on
    /// every branch, with no environment), naming each break.
    @Test func noStepGivenASecretRunsAPackageManagerOrTheTests() throws {
        let rule = CommandLineTests.repo.appendingPathComponent("scripts/lint-secrets.py")
        let workflows = try FileManager.default.contentsOfDirectory(atPath: CommandLineTests.repo.appendingPathComponent(".github/workflows").path)
            .filter { $0.hasSuffix(".yml") }.map { CommandLineTests.repo.appendingPathComponent(".github/workflows/" + $0).path }
        let now = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", rule.path] + workflows)
        #expect(now.status == 0, "\(now.stdout)\(now.stderr)")

        let planted = temporaryFolder("lint-secrets").appendingPathComponent("bundles.yml")
        try """
        name: bundles
        on: push
        jobs:
          bundles:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1
              - name: Test, sign, publish
                env:
                  SIGNING_KEY_TEXT: ${{ secrets.SPLASHGEN_SIGNING_KEY }}
                run: |
                  apt-get install -y jq
                  bash .ci/run
              - uses: example/upload@3d3c42e5aac5ba805825da76410c181273ba90b1
                with:
                  token: ${{ secrets.UPLOAD_TOKEN }}
        """.write(to: planted, atomically: true, encoding: .utf8)
        let old = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", rule.path, planted.path])
        #expect(old.status == 1)
        for finding in [
            "job bundles, step \"Test, sign, publish\": a step given a secret runs apt-get",
            "job bundles, step \"Test, sign, publish\": runs .ci/run in a job that holds a secret",
            "job bundles, step \"example/upload@3d3c42e5aac5ba805825da76410c181273ba90b1\": a secret is given to an action",
            "job bundles: holds a secret (in \"Test, sign, publish\") outside a protected environment",
            "job bundles: holds a secret (in \"Test, sign, publish\") on every branch",
        ] {
            #expect(old.stdout.contains(finding), "\(finding)\n\(old.stdout)")
        }
    }
}
