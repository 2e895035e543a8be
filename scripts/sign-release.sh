#!/usr/bin/env bash
# The release's signing step (bundles.yml, job `sign`): signs the bundles a `test` job built, with
# the online key and the root's certificate of it, and publishes the season as the CDN tree. Runs
# only splashgen (built from this commit, in the same job, before any secret was there) and
# scripts/verify-season.sh: no package manager, no test, no third-party tool but OpenSSL and jq.
#
#   SIGNING_KEY_TEXT=… scripts/sign-release.sh SPLASHGEN UNSIGNED OUT
#
# SIGNING_KEY_TEXT: the online key's private key file text (the SPLASHGEN_SIGNING_KEY secret).
# UNSIGNED: the folder of unsigned bundles (one folder per campaign, and the season's).
# OUT: where the signed archives (<name>.zip) and the tree (cdn/season) go.
# The certificate is keys/online.cert and the root keys/root.pub, both committed (docs/reliability.md,
# "Keys"). Without a certificate, the key signs as the key the apps pin (keys/root.pub is then its
# .pub). The tree is verified against keys/root.pub before the step ends; the serial is the
# commit's time (SOURCE_DATE_EPOCH, scripts/commit-time.sh), or one more than the season online's.
# With SEASON_URL (the season's public URL), the tree starts as a copy of the season online's signed
# files (scripts/fetch-live-slices.sh): the publication then empties the slices of screens it no
# longer serves, and refuses by name a campaign the season online withdrew, unless READMIT (names,
# space-separated) brings it back on purpose.
set -euo pipefail
trap 'echo "sign-release: stopped at line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { echo "usage: SIGNING_KEY_TEXT=… scripts/sign-release.sh SPLASHGEN UNSIGNED OUT" >&2; exit 2; }
splashgen=$1 unsigned=$2 out=$3
[ -n "${SIGNING_KEY_TEXT:-}" ] || { echo "::error::sign-release: SIGNING_KEY_TEXT is empty: set the secret SPLASHGEN_SIGNING_KEY of the release environment" >&2; exit 1; }
[ -f keys/root.pub ] || { echo "::error::sign-release: keys/root.pub is missing: commit the public key the apps pin (docs/reliability.md, \"Keys\")" >&2; exit 1; }

key_dir=$(mktemp -d)
trap 'rm -rf "$key_dir"' EXIT
umask 077
printf '%s\n' "$SIGNING_KEY_TEXT" >"$key_dir/online"
certificate=()
[ -f keys/online.cert ] && certificate=(--certificate keys/online.cert)

mkdir -p "$out"
readmit=()
for name in ${READMIT:-}; do readmit+=(--readmit "$name"); done
if [ -n "${SEASON_URL:-}" ]; then scripts/fetch-live-slices.sh "$SEASON_URL" "$out/cdn/season"; fi
for bundle in "$unsigned"/*/; do
    name=$(basename "$bundle")
    [ "$name" = season ] && continue
    "$splashgen" pack "$bundle" -o "$out/$name.zip" --signing-key "$key_dir/online" ${certificate[@]+"${certificate[@]}"}
    "$splashgen" verify "$out/$name.zip" --public-key keys/root.pub
done
SOURCE_DATE_EPOCH=$(scripts/commit-time.sh) "$splashgen" publish "$unsigned/season" -o "$out/cdn/season" --signing-key "$key_dir/online" \
    ${certificate[@]+"${certificate[@]}"} ${readmit[@]+"${readmit[@]}"}
scripts/verify-season.sh keys/root.pub "$out/cdn/season"
