#!/usr/bin/env bash
# Copies the season online's signed files into a folder: manifest.json, manifest.sig, and every
# screen slice with its .sig (the screens its manifest serves). Public files, read with curl; no
# object is copied. sign-release.sh seeds its tree with them, so that its publication empties the
# slices of screens the new season no longer serves and keeps what the season online withdrew;
# withdraw-release.sh signs them again without a campaign.
#
#   scripts/fetch-live-slices.sh SEASON-URL FOLDER
#
# Exits 0 with nothing copied, and says so, when the URL serves no manifest yet (HTTP 404): a first
# publication. Any other failure stops it.
set -euo pipefail
trap 'echo "fetch-live-slices: stopped at line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
[ $# -eq 2 ] || { echo "usage: scripts/fetch-live-slices.sh SEASON-URL FOLDER" >&2; exit 2; }
url=${1%/} folder=$2
mkdir -p "$folder/screens"
status=$(curl --silent --show-error --location -o "$folder/manifest.json" -w '%{http_code}' "$url/manifest.json")
if [ "$status" = 404 ]; then
    rm -f "$folder/manifest.json"
    echo "fetch-live-slices: no season online at $url yet"
    exit 0
fi
[ "$status" = 200 ] || { echo "::error::fetch-live-slices: $url/manifest.json answered HTTP $status" >&2; exit 1; }
curl --fail --silent --show-error --location -o "$folder/manifest.sig" "$url/manifest.sig"
screens=$(jq -r '[.campaigns[].snapshots[].pixels | [([.width, .height] | min), ([.width, .height] | max)] | "\(.[0])x\(.[1])"] | unique[]' "$folder/manifest.json")
count=0
while IFS= read -r screen; do
    [ -n "$screen" ] || continue
    for file in "screens/$screen.json" "screens/$screen.json.sig"; do
        curl --fail --silent --show-error --location -o "$folder/$file" "$url/$file"
    done
    count=$((count + 1))
done <<<"$screens"
echo "fetch-live-slices: serial $(jq -r '.serial' "$folder/manifest.json") and $count screen slices from $url"
