#!/usr/bin/env python3
"""The workflows' rule for secrets (scripts/lint-workflows.sh runs it): a secret meets only the
project's own code.

    scripts/lint-secrets.py WORKFLOW.yml...

For every step given a secret (a `secrets.` expression other than GITHUB_TOKEN in its `env`,
`with` or `run`, or in its job's or the workflow's `env`):
  - the step runs no package manager (apt-get, apt, pip, npm, brew), no make, no test (swift test,
    .ci/run, the fuzzers): a `run:` naming one is a finding;
  - the step is no `uses:` action: an action is code from elsewhere;
and its job runs no test in any step, runs in a protected `environment:`, and only on the default
branch or a tag (its `if:` says `default_branch`, `refs/heads/` or `refs/tags/`).
Prints one line per finding (file, job, step, rule) and exits 1 when there is any; needs PyYAML.
"""
import re
import sys

import yaml

SECRET = re.compile(r"secrets\.(?!GITHUB_TOKEN\b)[A-Za-z_]|secrets\[|toJSON\(\s*secrets\s*\)")
FORBIDDEN = re.compile(r"(?<![\w./-])(apt-get|apt|pip3?|npm|brew|make)(?![\w-])|swift\s+test|\.ci/run|fuzz")
TESTS = re.compile(r"(?<![\w-])make\s+test|swift\s+test|\.ci/run|fuzz")
BRANCHES = re.compile(r"default_branch|refs/heads/|refs/tags/")


def has_secret(*values):
    return any(SECRET.search(yaml.safe_dump(v) if not isinstance(v, str) else v) for v in values if v)


def lint(path):
    with open(path, encoding="utf-8") as handle:
        workflow = yaml.safe_load(handle) or {}
    findings = []
    for job_name, job in (workflow.get("jobs") or {}).items():
        steps = job.get("steps") or []
        # A reusable workflow's call passes secrets with `secrets:`; `inherit` passes them all.
        inherited = has_secret(workflow.get("env"), job.get("env")) or job.get("secrets") == "inherit" or has_secret(job.get("secrets"))
        given = []
        for index, step in enumerate(steps):
            name = step.get("name") or step.get("uses") or f"step {index + 1}"
            if inherited or has_secret(step.get("env"), step.get("with"), step.get("run")):
                given.append(name)
                if "uses" in step:
                    findings.append(f"{path}: job {job_name}, step \"{name}\": a secret is given to an action ({step['uses']}), code from elsewhere")
                match = FORBIDDEN.search(step.get("run") or "")
                if match:
                    findings.append(f"{path}: job {job_name}, step \"{name}\": a step given a secret runs {match.group(0).strip()}")
        if not given:
            continue
        for index, step in enumerate(steps):
            match = TESTS.search(step.get("run") or "")
            if match:
                name = step.get("name") or f"step {index + 1}"
                findings.append(f"{path}: job {job_name}, step \"{name}\": runs {match.group(0).strip()} in a job that holds a secret")
        if not job.get("environment"):
            findings.append(f"{path}: job {job_name}: holds a secret (in \"{given[0]}\") outside a protected environment: give it `environment:`")
        if not BRANCHES.search(str(job.get("if") or "")):
            findings.append(f"{path}: job {job_name}: holds a secret (in \"{given[0]}\") on every branch: limit its `if:` to the default branch or tags")
    return findings


def main():
    findings = [finding for path in sys.argv[1:] for finding in lint(path)]
    for finding in findings:
        print(f"lint-secrets: {finding}")
    if findings:
        sys.exit(1)
    print(f"lint-secrets: {len(sys.argv) - 1} workflows, no secret meets a package manager, a test or an action")


if __name__ == "__main__":
    main()
