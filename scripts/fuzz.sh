#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Sources/splashfuzz) and runs each for a fixed number of inputs
# on a scratch copy of its corpus; fails on any crash, hang or over-limit allocation. `make fuzz`
# runs it, and `make test` after `swift test`.
#
#   scripts/fuzz.sh [TARGET…]        every target when none is named
#
# The targets: atx ktx lzfse lzfse-encode png manifest slice state yaml (Fuzz/Sources/splashfuzz/Targets.swift).
# After lzfse-encode's run, every input of its corpus (the seeds and what libFuzzer added) is run
# once more with SPLASHFUZZ_WRITE set, and scripts/fuzz-lzfse-reference.py has Apple's reference
# LZFSE (pyliblzfse) decode each stream splashgen's encoder wrote and encode the input again: it
# must decode to the input, and be the reference's own stream byte for byte.
#
# Limits, each a libFuzzer flag:
#   -timeout=1            no input may take a second or more (a hang).
#   -malloc_limit_mb=128  no single allocation of 128 MiB or more: twice ReadLimits.snapshotBytes
#                         (64 MiB, the largest file any reader in Sources/SplashFormat/BoundedRead.swift
#                         accepts; manifests are 8 MiB, state files 4 MiB). Fuzz inputs are a few KB,
#                         and the targets inflate at most 4 MiB of blocks, so an allocation this size
#                         is a header or length field taken on trust. Enforced through AddressSanitizer's
#                         allocator hooks, which is why the targets are built with ASan as well.
#   -rss_limit_mb=768     the whole process: 128 MiB above, ASan's quarantine (capped at 64 MiB below),
#                         shadow memory and the Swift runtime; a run of the corpus stays near 300 MiB.
# Leaks are not reported (detect_leaks=0).
#
# Environment:
#   FUZZ_RUNS        inputs per target, the corpus included (default: atx 2000, ktx 1500, lzfse 8000,
#                    lzfse-encode 4000, png 60000, manifest 50000, slice 4000, state 3000, yaml 6000)
#   FUZZ_SEED        libFuzzer's -seed (default 1, so `make test` runs the same inputs every time;
#                    0 lets libFuzzer pick)
#   FUZZ_BUILD_JOBS  swift build -j (default: SwiftPM's, one per core)
#
# A crash's input is kept in .build-fuzz/findings/; copy it to Fuzz/findings/<target>-<what>.bin
# and it is run first on every later run of that target, so it fails until the parser is fixed.
# New inputs libFuzzer finds go to the scratch copy only: Fuzz/corpus/ is never written here.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(atx ktx lzfse lzfse-encode png manifest slice state yaml)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
seed=${FUZZ_SEED:-1}
scratch_path=.build-fuzz
binary=$scratch_path/debug/splashfuzz
findings=$scratch_path/findings

runs_for() {
    if [ -n "${FUZZ_RUNS:-}" ]; then echo "$FUZZ_RUNS"; return; fi
    # About five seconds each on two cores, the build aside: the slow targets (astcenc sampling,
    # a file written and read per input) get fewer inputs.
    case $1 in
    atx) echo 2000 ;;
    ktx) echo 1500 ;;
    lzfse) echo 8000 ;;
    lzfse-encode) echo 4000 ;;
    png) echo 60000 ;;
    manifest) echo 50000 ;;
    slice) echo 4000 ;;
    state) echo 3000 ;;
    yaml) echo 6000 ;;
    esac
}

started=$(date +%s)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
jobs=()
[ -z "${FUZZ_BUILD_JOBS:-}" ] || jobs=(-j "$FUZZ_BUILD_JOBS")
# SPLASHGEN_FUZZ puts the splashfuzz target in Package.swift; its own scratch folder keeps the
# instrumented build apart from .build. SwiftPM passes two sanitizers to swiftc as two -sanitize=
# flags, and swiftc keeps only the last (address: no coverage, so libFuzzer would fuzz blind), hence
# the one joined flag for Swift; C (LibYAML, BoringSSL, the astcenc shim) takes --sanitize as it is.
# The build sees a fixed environment: SwiftPM rebuilds every module when the environment it was
# given changes, so a variable set in one shell and not the next would cost a full build.
if ! env -i PATH="$PATH" HOME="$HOME" SPLASHGEN_FUZZ=1 swift build "${jobs[@]}" --scratch-path "$scratch_path" --product splashfuzz \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address >"$scratch/build.log" 2>&1; then
    grep -v "^\[[0-9]*/[0-9]*\]" "$scratch/build.log"
    echo "fuzz: the build failed"
    exit 1
fi
grep -v "^\[[0-9]*/[0-9]*\]" "$scratch/build.log" || true
built=$(date +%s)
echo "fuzz: built in $((built - started)) s"

mkdir -p "$findings"
# The targets' own scratch files (a container for the state target) go in the scratch folder too.
export TMPDIR=$scratch
# Swift's own crash handler off: libFuzzer and ASan report a trap (a failed precondition) themselves.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=64:allocator_may_return_null=0
failed=()
for target in "${targets[@]}"; do
    [ -d "Fuzz/corpus/$target" ] || { echo "fuzz: no corpus for target '$target'"; exit 2; }
    corpus=$scratch/$target
    cp -R "Fuzz/corpus/$target" "$corpus"
    # Saved findings first: they fail the run until the parser is fixed.
    for finding in Fuzz/findings/"$target"-*; do [ -e "$finding" ] && cp "$finding" "$corpus/"; done
    runs=$(runs_for "$target")
    log=$scratch/$target.log
    t0=$(date +%s)
    if SPLASHFUZZ_TARGET=$target "$binary" -runs="$runs" -seed="$seed" -timeout=1 -malloc_limit_mb=128 \
        -rss_limit_mb=768 -artifact_prefix="$findings/$target-" -print_final_stats=1 "$corpus" >"$log" 2>&1; then
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        edges=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
        echo "fuzz: $target: $runs inputs in $(($(date +%s) - t0)) s (${rate:-?}/s, $edges), no crash"
        if [ "$target" = lzfse-encode ]; then
            written=$scratch/lzfse-written
            mkdir -p "$written"
            find "$corpus" -type f -print0 | SPLASHFUZZ_TARGET=$target SPLASHFUZZ_WRITE=$written xargs -0 "$binary" >"$log.write" 2>&1 \
                && python3 scripts/fuzz-lzfse-reference.py "$corpus" "$written" || failed+=("$target (the reference's check)")
        fi
    else
        failed+=("$target")
        echo "fuzz: $target: FAILED after $(($(date +%s) - t0)) s; libFuzzer's report:"
        grep -E "^==[0-9]+==|ERROR|SUMMARY|Fatal error|Precondition failed|Assertion failed|Test unit written|#[0-9]+ 0x.* in " "$log" | grep -v "compiler-rt/lib" | head -n 30
        echo "fuzz: reproduce with SPLASHFUZZ_TARGET=$target $binary <input> (full log: rerun, or see above)"
    fi
done
echo "fuzz: ${#targets[@]} targets in $(($(date +%s) - started)) s, build included"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]}; inputs in $findings/"
    exit 1
fi
