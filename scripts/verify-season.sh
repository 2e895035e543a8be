#!/usr/bin/env bash
# Verifies a published season tree (splashgen publish) against the root key the apps pin, as a
# phone would, before a deploy uploads anything. Independent of splashgen's own code: OpenSSL
# checks the Ed25519 signatures, jq reads the JSON, sha256sum the objects. The deploy workflow
# (deploy-example.yml) runs it with the root key committed in the repository.
#
#   scripts/verify-season.sh [--signatures-only] ROOT.pub TREE [ONLINE-MANIFEST]
#
# It checks that manifest.json and every screens/*.json:
#   - has its signature file (manifest.sig, <slice>.sig);
#   - is signed by the root itself, or by the online key its "certificate" names, where that
#     certificate is signed by the root (over the domain line and the statement's bytes), is of
#     this root, and has not expired;
#   - is under the same certificate as the whole manifest (one key signs one publication);
# and that every object the manifest names is in objects/, hashing to its name, with its .deflate
# (not with --signatures-only: a withdrawal's tree of manifests, whose objects stay on the CDN).
# With ONLINE-MANIFEST (the manifest.json the CDN serves now), it also refuses a tree ranked below
# it: a lower certificate version (a retired key), or the same version and a lower serial; and one
# that brings back a campaign the season online withdrew (publish --withdraw) without readmitting it.
# Exits 0 and prints the chain when all holds; otherwise prints each failure (as a GitHub error
# annotation) and exits 1. Needs bash, openssl (3.0 or later), jq, sha256sum, base64, xxd.
set -euo pipefail
trap 'echo "verify-season: stopped at line $LINENO: $BASH_COMMAND exited $?" >&2' ERR

objects_too=1
if [ "${1:-}" = --signatures-only ]; then
    objects_too=0
    shift
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: scripts/verify-season.sh [--signatures-only] ROOT.pub TREE [ONLINE-MANIFEST]" >&2
    exit 2
fi
root_file=$1 tree=$2 online=${3:-}
for tool in openssl jq sha256sum base64 xxd; do
    command -v "$tool" >/dev/null 2>&1 || { echo "verify-season: $tool is missing (apt-get install openssl jq coreutils xxd)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
    echo "::error::verify-season: $*"
    failures=$((failures + 1))
}

# An Ed25519 public key as a PEM file for OpenSSL: the fixed SubjectPublicKeyInfo prefix, then the
# 32 raw bytes. $1: the raw key in base64; $2: the file to write. Fails on anything but 32 bytes.
pem_of() {
    local raw
    raw=$(printf '%s' "$1" | base64 -d 2>/dev/null | xxd -p -c 64) || return 1
    [ ${#raw} -eq 64 ] || return 1
    {
        echo "-----BEGIN PUBLIC KEY-----"
        printf '302a300506032b6570032100%s' "$raw" | xxd -r -p | base64
        echo "-----END PUBLIC KEY-----"
    } >"$2"
}

# A key's id as splashgen prints it: the first 16 hex digits of SHA-256 over its raw bytes.
key_id() { printf '%s' "$1" | base64 -d | sha256sum | cut -c1-16; }

# Whether the signature file $3 ("ed25519 BASE64") verifies over the file $2 with the PEM key $1.
holds() {
    local sig
    sig=$(awk 'NR == 1 && NF == 2 && $1 == "ed25519" { print $2 }' "$3")
    [ -n "$sig" ] || return 1
    printf '%s' "$sig" | base64 -d >"$work/sig" 2>/dev/null || return 1
    openssl pkeyutl -verify -pubin -inkey "$1" -rawin -in "$2" -sigfile "$work/sig" >/dev/null 2>&1
}

[ -f "$root_file" ] || { echo "::error::verify-season: $root_file is missing: commit the public key the apps pin (docs/reliability.md, \"Keys\")"; exit 1; }
date -u -d 2000-01-01T00:00:00Z +%s >/dev/null 2>&1 || { echo "verify-season: needs GNU date (date -d)" >&2; exit 2; }
root=$(awk 'NF == 2 && $1 == "ed25519-public" { print $2 } NF == 1 { print $1 }' "$root_file" | head -n 1)
pem_of "$root" "$work/root.pem" || { echo "::error::verify-season: $root_file is not an ed25519 public key file (ed25519-public BASE64)"; exit 1; }
root_id=$(key_id "$root")
[ -f "$tree/manifest.json" ] || { echo "::error::verify-season: $tree has no manifest.json: not a tree written by splashgen publish"; exit 1; }

now=$(date -u +%s)
whole_statement=""
chain=""
# Checks one signed JSON file of the tree ($1, relative to it) and its signature ($2).
check_signed() {
    local file=$tree/$1 signature=$tree/$2 statement key expires
    if [ ! -f "$signature" ]; then
        fail "$1: no $2: the tree is not signed"
        return
    fi
    statement=$(jq -r '.certificate.statement // ""' "$file" 2>/dev/null) || { fail "$1: not JSON"; return; }
    if [ "$1" = manifest.json ]; then whole_statement=$statement; elif [ "$statement" != "$whole_statement" ]; then
        fail "$1: signed under another key certificate than manifest.json"
        return
    fi
    if holds "$work/root.pem" "$file" "$signature"; then
        if [ "$1" = manifest.json ]; then chain="signed by the root $root_id itself"; fi
        return 0
    fi
    if [ -z "$statement" ]; then
        fail "$1: the signature does not verify with the root key $root_id, and the manifest carries no key certificate"
        return
    fi
    # The certificate: the root signs the domain line, then the statement's bytes.
    printf 'splashgen online-key certificate 1\n' >"$work/certified"
    printf '%s' "$statement" | base64 -d >>"$work/certified" 2>/dev/null || { fail "$1: the certificate's statement is not base64"; return; }
    jq -r '.certificate.signature' "$file" >"$work/certificate.sig"
    if ! holds "$work/root.pem" "$work/certified" "$work/certificate.sig"; then
        fail "$1: its key certificate is not signed by the root key $root_id"
        return
    fi
    printf '%s' "$statement" | base64 -d >"$work/statement.json"
    if [ "$(jq -r '.kind' "$work/statement.json")" != splashgen-online-key ] || [ "$(jq -r '.root' "$work/statement.json")" != "$root" ]; then
        fail "$1: its key certificate is not one of an online key by root $root_id"
        return
    fi
    key=$(jq -r '.key' "$work/statement.json")
    expires=$(jq -r '.expires' "$work/statement.json")
    if [ "$(date -u -d "$expires" +%s)" -le "$now" ]; then
        fail "$1: the certificate of key $(key_id "$key") expired at $expires"
        return
    fi
    pem_of "$key" "$work/online.pem" || { fail "$1: the certified key is not an ed25519 public key"; return; }
    if ! holds "$work/online.pem" "$file" "$signature"; then
        fail "$1: the signature does not verify with key $(key_id "$key"), which its certificate names"
        return
    fi
    if [ "$1" = manifest.json ]; then
        chain="signed by key $(key_id "$key"), certified by root $root_id (certificate version $(jq -r '.version' "$work/statement.json"), until $expires)"
    fi
    return 0
}

check_signed manifest.json manifest.sig
slices=0
if [ -d "$tree/screens" ]; then
    while IFS= read -r -d '' slice; do
        name=screens/$(basename "$slice")
        check_signed "$name" "$name.sig"
        slices=$((slices + 1))
    done < <(find "$tree/screens" -maxdepth 1 -type f -name '*.json' -print0 | sort -z)
fi

objects=0
names=$(jq -r '.campaigns[].snapshots[].object' "$tree/manifest.json" | sort -u) || { fail "manifest.json: its campaigns do not read"; names=""; }
if [ "$objects_too" = 1 ]; then while IFS= read -r object; do
    [ -n "$object" ] || continue
    case $object in
    *[!0-9a-f]* | "") fail "manifest.json names \"$object\", not a SHA-256 object name"; continue ;;
    esac
    [ ${#object} -eq 64 ] || { fail "manifest.json names \"$object\", not a SHA-256 object name"; continue; }
    if [ ! -f "$tree/objects/$object" ]; then
        fail "objects/$object is missing"
    elif [ "$(sha256sum <"$tree/objects/$object" | cut -c1-64)" != "$object" ]; then
        fail "objects/$object does not hash to its name"
    elif [ ! -f "$tree/objects/$object.deflate" ]; then
        fail "objects/$object.deflate is missing"
    fi
    objects=$((objects + 1))
done <<<"$names"; fi

serial=$(jq -r '.serial // 0' "$tree/manifest.json")
version=$(printf '%s' "$whole_statement" | base64 -d 2>/dev/null | jq -r '.version // 0' 2>/dev/null || echo 0)
version=${version:-0}
case $serial$version in *[!0-9]*) fail "manifest.json: its serial or certificate version is not a number"; serial=0 version=0 ;; esac
# A season past its expiry would show nothing: an old run's tree, deployed by mistake.
expires=$(jq -r '.expires // ""' "$tree/manifest.json")
if [ -z "$expires" ]; then
    fail "manifest.json has no expiry: not a tree written by this splashgen's publish"
elif [ "$(date -u -d "$expires" +%s)" -le "$now" ]; then
    fail "the season expired at $expires: publish it again"
fi
if [ -n "$online" ] && [ -f "$online" ]; then
    online_serial=$(jq -r '.serial // 0' "$online")
    online_version=$(jq -r '.certificate.statement // ""' "$online" | base64 -d 2>/dev/null | jq -r '.version // 0' 2>/dev/null || echo 0)
    online_version=${online_version:-0}
    case $online_serial$online_version in *[!0-9]*) fail "the manifest online: its serial or certificate version is not a number"; online_serial=0 online_version=0 ;; esac
    if [ "$version" -lt "$online_version" ]; then
        fail "the season online is signed under key certificate version $online_version, this tree under $version: a retired key, which phones refuse"
    elif [ "$version" -eq "$online_version" ] && [ "$serial" -lt "$online_serial" ]; then
        fail "the season online has serial $online_serial, newer than this tree's $serial"
    fi
    # A campaign pulled online (publish --withdraw) comes back only when this tree readmits it.
    while IFS= read -r name; do
        [ -n "$name" ] || continue
        if jq -e --arg name "$name" '[.campaigns[].id] | index($name)' "$tree/manifest.json" >/dev/null &&
            ! jq -e --arg name "$name" '(.readmitted // []) | index($name)' "$tree/manifest.json" >/dev/null; then
            fail "$name was withdrawn from the season online (publish --withdraw) and this tree brings it back: build the season without it, or publish with --readmit $name"
        fi
    done < <(jq -r '(.withdrawn // [])[]' "$online")
fi

if [ "$failures" -gt 0 ]; then
    echo "verify-season: $tree does not verify against root $root_id ($failures failures): not deploying it" >&2
    exit 1
fi
checked="$objects objects verified"
[ "$objects_too" = 1 ] || checked="objects not checked (--signatures-only)"
echo "verify-season: $tree: serial $serial, $chain; manifest and $slices slices signed, $checked"
