#!/usr/bin/env bash
# Writes Fuzz/corpus/<target>/ anew: seeds copied from the tests' fixtures, and made by splashgen's
# own CLI where no fixture exists (a cached ATX and KTX, a built and a published manifest, a signed
# screen slice, the applier's state.json). Run it by hand after a format changes, review, commit:
#   swift build && Fuzz/make-corpus.sh
# The slice seeds are signed with Fuzz/slice-key, a throwaway key that only the fuzz target pins
# (Fuzz/Sources/splashfuzz/Targets.swift); it signs nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
splashgen=${SPLASHGEN:-.build/debug/splashgen}
corpus=Fuzz/corpus
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rm -rf "$corpus"
mkdir -p "$corpus"/{atx,ktx,lzfse,lzfse-encode,png,manifest,slice,state,yaml}

snapshots=Tests/SplashCoreTests/Fixtures/snapshots
for name in atx-lzfs atx-raw launch-lzfs launch-astc-rows launch-astc-wide launch-black-1179x2556 launch-white-1179x2556; do
    cp "$snapshots/$name.ktx" "$corpus/atx/$name"
done
cp "$snapshots/ktx-apple.ktx" "$snapshots/ktx-plain.ktx" "$corpus/ktx/"
cp Tests/SplashFormatTests/Fixtures/lzfse/{empty,random,astc-like}.lzfse "$corpus/lzfse/"
# The encoder's inputs: one of each path (stored, LZVN, bvx2), ASTC-like blocks cut to 12 KiB.
cp Tests/SplashFormatTests/Fixtures/lzfse/{empty,tiny,small-text,random,v2-text}.bin "$corpus/lzfse-encode/"
head -c 12288 Tests/SplashFormatTests/Fixtures/lzfse/astc-like.bin >"$corpus/lzfse-encode/astc-like-12k.bin"
cp Tests/SplashCoreTests/Fixtures/png/*.png "$snapshots"/{scene,tiles,pad}.png Tests/SplashCoreTests/Fixtures/campaigns/logo.png "$corpus/png/"
cp Tests/splashgenTests/Goldens/good-manifest.json Tests/SplashFormatTests/Fixtures/lzfse/manifest.json "$corpus/manifest/"
for file in Tests/SplashCoreTests/Fixtures/campaigns/*.yaml Tests/SplashCoreTests/Fixtures/seasons/*.yaml campaigns/*.yaml; do
    cp "$file" "$corpus/yaml/$(basename "$(dirname "$file")")-$(basename "$file")"
done

# What the OS caches (the simulator's model of iOS 17 and 15) and the state the applier keeps.
"$splashgen" build Tests/SplashCoreTests/Fixtures/campaigns/good.yaml -o "$scratch/out" >/dev/null
for ios in 17.0 15.0; do
    sandbox="$scratch/sim-$ios"
    "$splashgen" sim install --sandbox "$sandbox" --ios "$ios" \
        --launch-screen Tests/SplashScenarios/Fixtures/storyboards/navy-light-only.json >/dev/null
    kind=$([ "$ios" = 17.0 ] && echo atx || echo ktx)
    find "$sandbox/container" -name '*.ktx' | sort | head -n 1 | while read -r file; do cp "$file" "$corpus/$kind/sim-ios$ios"; done
    "$splashgen" apply --container "$sandbox/container" --bundle "$scratch/out/good" --ios "$ios" \
        --app-version 5.0 --app-build 1 --now 2026-11-11T00:00:00+08:00 >/dev/null || true
    cp "$sandbox/container/Library/Application Support/splashgen/state.json" "$corpus/state/sim-ios$ios.json"
done

# A published manifest (the built one is the golden above), and each published screen slice as
# "<signature line>\n<slice>".
"$splashgen" publish "$scratch/out/good" -o "$scratch/cdn" --signing-key Fuzz/slice-key --serial 7 >/dev/null
cp "$scratch/cdn/manifest.json" "$corpus/manifest/published.json"
for slice in "$scratch"/cdn/screens/*.json; do
    { cat "$slice.sig"; cat "$slice"; } >"$corpus/slice/$(basename "$slice" .json)"
done
du -sh "$corpus"
