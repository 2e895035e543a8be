#!/usr/bin/env bash
# The emergency withdrawal's signing step (withdraw.yml): pulls one campaign from the season online,
# at once, with no rebuild and no test. Fetches the live tree's manifest and screen slices from the
# CDN (public files), signs them again without the campaign (splashgen publish --withdraw, with the
# online key and keys/online.cert), and verifies the result against keys/root.pub. The objects stay
# where they are. Runs only splashgen (built from the commit before the secret was there), curl,
# jq and scripts/verify-season.sh.
#
#   SIGNING_KEY_TEXT=… scripts/withdraw-release.sh SPLASHGEN SEASON-URL CAMPAIGN OUT
#
# OUT receives manifest.json, manifest.sig and screens/: what the deploy uploads (no-cache).
set -euo pipefail
trap 'echo "withdraw-release: stopped at line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
cd "$(dirname "$0")/.."
[ $# -eq 4 ] || { echo "usage: SIGNING_KEY_TEXT=… scripts/withdraw-release.sh SPLASHGEN SEASON-URL CAMPAIGN OUT" >&2; exit 2; }
splashgen=$1 url=${2%/} campaign=$3 out=$4
# A campaign's name as campaign files allow it: letters, digits, '-' and '_' (it becomes an argument).
[[ $campaign =~ ^[A-Za-z0-9][A-Za-z0-9_-]*$ ]] || { echo "::error::withdraw-release: \"$campaign\" is not a campaign name" >&2; exit 1; }
[ -n "${SIGNING_KEY_TEXT:-}" ] || { echo "::error::withdraw-release: SIGNING_KEY_TEXT is empty: set the secret SPLASHGEN_SIGNING_KEY of the release environment" >&2; exit 1; }
[ -f keys/root.pub ] || { echo "::error::withdraw-release: keys/root.pub is missing: commit the public key the apps pin (docs/reliability.md, \"Keys\")" >&2; exit 1; }

key_dir=$(mktemp -d)
trap 'rm -rf "$key_dir"' EXIT
scripts/fetch-live-slices.sh "$url" "$out"
[ -f "$out/manifest.json" ] || { echo "::error::withdraw-release: no season online at $url to withdraw from" >&2; exit 1; }
cp "$out/manifest.json" "$key_dir/online.json"

umask 077
printf '%s\n' "$SIGNING_KEY_TEXT" >"$key_dir/online"
certificate=()
[ -f keys/online.cert ] && certificate=(--certificate keys/online.cert)
"$splashgen" publish -o "$out" --signing-key "$key_dir/online" ${certificate[@]+"${certificate[@]}"} --withdraw "$campaign"
# The objects are not here (they stay on the CDN): the signatures and the rank against the season
# online are checked.
scripts/verify-season.sh --signatures-only keys/root.pub "$out" "$key_dir/online.json"
