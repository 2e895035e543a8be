#!/usr/bin/env bash
# ios-check (issue 16): type-check the code that runs inside iOS apps, on Linux, against the public
# iOS SDK stubs (headers and .swiftinterface files, e.g. iPhoneOS16.5.sdk from github.com/theos/sdks):
#
#   SplashFormat    Sources/SplashFormat (every .swift, LZFSE/ included)
#   SplashFormatWriting  Sources/SplashFormatWriting: the generator's keys, signing and DEFLATE
#                   (CryptoKit and Compression here), imports SplashFormat; in no product an app links
#   SplashImaging   Sources/SplashImaging/Shared and /Apple: the generator's Apple backend (ImageIO,
#                   vImage, Core Text, AppleTextureEncoder), imports SplashFormat; it type-checks
#                   for iOS because it uses only API that macOS 13 and iOS 15 both have
#   SplashApplier   Sources/SplashApplier, imports SplashFormat
#   SimulatorOSCodecs  Sources/SplashSimulator/OSCodecs.swift and OSCodecs+Apple.swift, the simulated
#                   OS's own codecs on Apple platforms (with scripts/ios-check/simulator's stand-in
#                   for SimulatorError): macOS code, checked against the iOS SDK's same frameworks
#   AppIntegration  Examples/AppIntegration/Sources/AppIntegration, the README's app code
#   SplashDemo      Examples/SplashDemo/SplashDemo, the demo app's Swift, which its three shapes
#                   share, but for SplashDemoApp.swift (the SwiftUI `@main` of the scene-based
#                   shapes: the 16.5 SDK's SwiftUI interface does not load in Swift 6.3). Checked
#                   without SPLASHDEMO_APPDELEGATE, as the scene-based shapes (a) and (b) build them
#   SplashDemoAppDelegate  the same files and SplashDemoApp.swift with -D SPLASHDEMO_APPDELEGATE, as
#                   the app-delegate shape (c) builds them: `@main` on WindowAppDelegate, and
#                   SplashDemoApp.swift compiled to nothing
#
# for arm64-apple-ios<MIN>, MIN being the `.iOS(...)` of Package.swift's `platforms:`.
#
#   make ios-check IOS_SDK=path/to/iPhoneOS16.5.sdk     scripts/ios-check.sh [--self-test | --size]
#
# Without IOS_SDK it says it skipped and exits 0. Otherwise it prints one line per module, the errors
# as file:line:col: error: message, and a summary; it exits 1 when there are errors. Full compiler
# output: .build-ios-check/arm64-apple-ios<MIN>/logs/<module>.log. --self-test proves the check
# bites: it must reject scripts/ios-check/self-test/Planted.swift (a wrong argument label; iOS 16
# API at iOS 15), accept the same valid code (Clean.swift) at iOS 16, accept the generator's Apple
# backend as it is and reject a copy of it with one planted type error. Also read from the
# environment: SWIFTC (default: swiftc on PATH), IOS_CHECK_ROOT (check another checkout, e.g. a
# `git archive` of an older commit; default: this one).
#
# How, and why each piece is needed (Swift 6.x for Linux; checked with 6.3.1 and the 16.5 SDK):
#
# 1. Each module is one `swiftc -emit-module -wmo -parse-as-library -swift-version 6 -target
#    arm64-apple-ios<MIN> -sdk SDK -module-name M <files>`, into .build-ios-check/<triple>/modules,
#    which the next module gets as `-I`. -emit-module type-checks every function body and also runs
#    SILGen and the mandatory SIL diagnostics, so it reports what -typecheck cannot (a constant used
#    before it is initialized, a missing return). `-experimental-allow-module-with-compiler-errors` makes
#    it write the module even when M has errors, so AppIntegration is still checked when
#    SplashApplier is not clean (its own errors may then be knock-on errors). That flag also makes
#    swiftc exit 0, so errors are counted from the log (scripts/ios-check/support.py).
#    SplashFormat needs no swift-crypto or zlib here: it imports Crypto and CSystemZlib only where
#    CryptoKit and Compression cannot be imported, and on iOS they come from the SDK.
# 2. A resource dir of our own, .build-ios-check/res: the toolchain's clang builtin headers
#    (`clang`) and SwiftShims (`shims`), linked, and nothing else. The toolchain's own resource dir
#    has Linux module maps for `dispatch` and `os` that would shadow the SDK's headers.
# 3. API notes (res/apinotes, from scripts/ios-check/apinotes): Xcode's toolchain carries
#    Dispatch.apinotes and os.apinotes, which give the C types of libdispatch and os_log their
#    Swift names; the SDK stubs and the Linux toolchain do not (only std.apinotes), and without
#    them the SDK's Dispatch.swiftinterface fails: "no type named 'DispatchQueue' in module
#    'Dispatch'", and `DispatchGroup()` is "unavailable in Swift" (os.apinotes does the same for
#    `import os` / Logger, which splashgen's code does not use today).
# 4. The standard library: the SDK's usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface
#    is Swift 5.8, older than typed throws. scripts/ios-check/patch-stdlib.py writes a copy with the
#    Swift 6 declarations the code uses (typed-throws withUnsafe(Mutable)BufferPointer on Array,
#    ArraySlice, ContiguousArray; `Result.get() throws(Failure)`; `_willThrowTyped`, without which
#    SILGen crashes on the first typed `throw`) to res/iphoneos/Swift.swiftmodule/, where the
#    compiler looks before the SDK. Likewise scripts/ios-check/patch-dispatch.py gives a copy of the
#    Dispatch overlay the Sendable conformances that Xcode 16+ SDKs (the ones Swift 6 mode builds
#    with) declare and the 16.5 SDK lacks: without them `static let queue = DispatchQueue(...)` is
#    reported "not concurrency-safe", which Xcode accepts. (Other SDK types that became Sendable
#    after iOS 16.5, e.g. os.Logger, are not patched; splashgen's code does not use them.) The SDK
#    itself is never written to.
# 5. Cache: building Swift, Foundation, ... from their interfaces takes ~40 s the first time; they
#    are kept in .build-ios-check/module-cache (-module-cache-path), so later runs take a few
#    seconds. res/ and the cache are rebuilt when the compiler, the SDK, the patch scripts or the
#    API notes change (.build-ios-check/stamp).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
ROOT=${IOS_CHECK_ROOT:-$REPO}          # the checkout to check (default: this one)
OUT=$REPO/.build-ios-check             # scratch, git-ignored by .build*/
SWIFTC=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
SUPPORT=$HERE/ios-check/support.py

if [ -z "${IOS_SDK:-}" ]; then
    echo "ios-check: skipped: no iOS SDK (set IOS_SDK=path/to/iPhoneOS16.5.sdk)"
    exit 0
fi
SDK=$(cd "$IOS_SDK" 2>/dev/null && pwd) || { echo "ios-check: IOS_SDK=$IOS_SDK is not a folder" >&2; exit 2; }
SDK_STDLIB=$SDK/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface
SDK_DISPATCH=$SDK/usr/lib/swift/Dispatch.swiftmodule/arm64-apple-ios.swiftinterface
[ -f "$SDK_STDLIB" ] || { echo "ios-check: $SDK has no usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface" >&2; exit 2; }

# Facts 2-5: the resource dir and the module cache, made again only when what they come from changes.
prepare() {
    local toolchain stamp
    toolchain=$("$SWIFTC" -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeResourcePath"])')
    stamp=$({ "$SWIFTC" --version; echo "$toolchain $SDK"; cksum "$SDK_STDLIB" "$SDK_DISPATCH"; cat "$HERE"/ios-check/*.py "$HERE"/ios-check/apinotes/*.apinotes; } 2>&1 | sha256sum)
    [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$stamp" ] && return
    rm -rf "$OUT/res" "$OUT/module-cache" "$OUT/stamp"
    mkdir -p "$OUT/res/apinotes" "$OUT/res/iphoneos/Swift.swiftmodule" "$OUT/res/iphoneos/Dispatch.swiftmodule" "$OUT/module-cache"
    ln -s "$(readlink -f "$toolchain/clang")" "$OUT/res/clang"
    ln -s "$(readlink -f "$toolchain/shims")" "$OUT/res/shims"
    cp "$HERE"/ios-check/apinotes/*.apinotes "$OUT/res/apinotes/"
    python3 "$HERE/ios-check/patch-stdlib.py" "$SDK_STDLIB" "$OUT/res/iphoneos/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
    python3 "$HERE/ios-check/patch-dispatch.py" "$SDK_DISPATCH" "$OUT/res/iphoneos/Dispatch.swiftmodule/arm64-apple-ios.swiftinterface"
    echo "$stamp" >"$OUT/stamp"
}

# check MIN WORK MODULE[+CONDITION]=PATH[,PATH]...: fact 1, for each module in order (PATH: a folder
# or one file, relative to ROOT; CONDITION: a compilation condition it is checked with, -D). Prints a
# line per module, its errors and a summary; returns 1 when there are errors.
check() {
    local min=$1 work=$2 triple="arm64-apple-ios$1" total=0 names=() spec name path rc result count warnings
    shift 2
    rm -rf "$work/modules" && mkdir -p "$work/modules" "$work/logs"
    for spec in "$@"; do
        name=${spec%%=*} path=${spec#*=}
        local conditions=()
        if [[ $name == *+* ]]; then conditions=(-D "${name#*+}") name=${name%%+*}; fi
        names+=("$name")
        local files=() log="$work/logs/$name.log"
        local paths=()
        IFS=, read -ra paths <<<"$path"
        mapfile -t files < <(cd "$ROOT" && find "${paths[@]}" -name '*.swift' | LC_ALL=C sort)
        rc=0
        # This package's modules see each other's `package` names; an app (the examples) does not.
        local package=(-package-name splashgen)
        case "$name" in App* | SplashDemo*) package=() ;; esac
        (cd "$ROOT" && "$SWIFTC" -emit-module -emit-module-path "$work/modules/$name.swiftmodule" "${package[@]}" \
            -wmo -parse-as-library -swift-version 6 -target "$triple" -sdk "$SDK" \
            -resource-dir "$OUT/res" -module-cache-path "$OUT/module-cache" -I "$work/modules" \
            -diagnostic-style=llvm -no-color-diagnostics -Xfrontend -experimental-allow-module-with-compiler-errors \
            "${conditions[@]}" -module-name "$name" "${files[@]}") >"$log" 2>&1 || rc=$?
        mapfile -t result < <(python3 "$SUPPORT" errors "$log")
        read -r count warnings <<<"${result[-1]}"
        unset 'result[-1]'
        if [ "$rc" != 0 ] && { [ "$count" = 0 ] || grep -q '^Stack dump' "$log"; }; then
            result+=("$path: error: swiftc exited with status $rc (crashed?), see $log")
            count=$((count + 1))
        fi
        total=$((total + count))
        local note="${#files[@]} file$([ "${#files[@]}" = 1 ] || echo s)"
        [ "$warnings" = 0 ] || note="$note, $warnings warning$([ "$warnings" = 1 ] || echo s)"
        if [ "$count" = 0 ]; then
            echo "ios-check: $name: ok ($note)"
        else
            echo "ios-check: $name: $count error$([ "$count" = 1 ] || echo s) ($note; log: ${log#"$REPO"/})"
            printf '%s\n' "${result[@]}"
        fi
    done
    local list
    list=$(IFS=,; echo "${names[*]}" | sed 's/,/, /g')
    echo "ios-check: $total error$([ "$total" = 1 ] || echo s) in $list at $triple"
    [ "$total" = 0 ]
}

# --self-test: the check must fail on the planted errors and pass clean code (see the header).
self_test() {
    local dir=$OUT/self-test src=scripts/ios-check/self-test failures=0 out
    mkdir -p "$dir"
    # expect NAME MODULES MIN STATUS [PATTERN...]: run the check on MODULES (MODULE=PATH specs joined
    # by +), compare its status, and grep its output for each PATTERN, an extended regex (a leading !
    # means it must not match).
    expect() {
        local name=$1 modules=$2 min=$3 want=$4 got=0 pattern ok=1 specs=()
        shift 4
        IFS=+ read -ra specs <<<"$modules"
        out=$(ROOT=$REPO check "$min" "$dir/$name" "${specs[@]}") || got=1
        [ "$got" = "$want" ] || ok=0
        for pattern in "$@"; do
            if [ "${pattern:0:1}" = "!" ]; then grep -qE -- "${pattern:1}" <<<"$out" && ok=0
            else grep -qE -- "$pattern" <<<"$out" || ok=0; fi
        done
        if [ "$ok" = 1 ]; then
            echo "ios-check self-test: $name: ok ($(tail -n 1 <<<"$out" | sed 's/^ios-check: //'))"
        else
            echo "ios-check self-test: $name: WRONG, the check printed:"
            sed 's/^/    /' <<<"$out"
            failures=$((failures + 1))
        fi
    }
    local base="SelfTestBase=$src/Base.swift"
    local label="Planted\.swift:[0-9]+:[0-9]+: error: incorrect argument label in call \(have 'from:', expected 'in:'\)"
    local clock="[A-Za-z]+\.swift:[0-9]+:[0-9]+: error: 'ContinuousClock' is only available in iOS 16\.0 or newer"
    local sleep="[A-Za-z]+\.swift:[0-9]+:[0-9]+: error: 'sleep\(for:\)' is only available in iOS 16\.0 or newer"
    expect planted-at-ios15 "$base+SelfTest=$src/Planted.swift" 15.0 1 "$label" "$clock" "$sleep" "SelfTestBase: ok"
    expect planted-at-ios16 "$base+SelfTest=$src/Planted.swift" 16.0 1 "$label" "!only available in iOS" "SelfTestBase: ok" "^ios-check: 1 error in SelfTestBase, SelfTest at arm64-apple-ios16\.0$"
    expect clean-at-ios15 "$base+SelfTest=$src/Clean.swift" 15.0 1 "$clock" "$sleep" "!incorrect argument label" "SelfTestBase: ok"
    expect clean-at-ios16 "$base+SelfTest=$src/Clean.swift" 16.0 0 "SelfTestBase: ok" "SelfTest: ok" "^ios-check: 0 errors in SelfTestBase, SelfTest at arm64-apple-ios16\.0$"
    # The generator's Apple backend, as it is and with one planted mistake: an AppleTextureEncoder
    # constant's raw value passed where libate's enum type is wanted (Swift imports its OS_ENUMs as
    # types of their own), which only a check against the SDK can see.
    local imaging=$dir/imaging-planted
    rm -rf "$imaging" && mkdir -p "$imaging" && cp -R "$REPO/Sources/SplashImaging/Shared" "$REPO/Sources/SplashImaging/Apple" "$imaging/"
    sed 's/at_block_format_astc_4x4_ldr,/at_block_format_astc_4x4_ldr.rawValue,/' "$REPO/Sources/SplashImaging/Apple/ASTCCodec.swift" >"$imaging/Apple/ASTCCodec.swift"
    local format="SplashFormat=Sources/SplashFormat"
    local wrongType="ASTCCodec\.swift:[0-9]+:[0-9]+: error: cannot convert value of type 'UInt' to expected argument type 'at_block_format_t'"
    expect imaging-as-it-is "$format+SplashImaging=Sources/SplashImaging/Shared,Sources/SplashImaging/Apple" 15.0 0 "SplashImaging: ok" "^ios-check: 0 errors in SplashFormat, SplashImaging at arm64-apple-ios15\.0$"
    expect imaging-planted "$format+SplashImaging=$imaging/Shared,$imaging/Apple" 15.0 1 "$wrongType" "SplashFormat: ok" "^ios-check: 1 error in SplashFormat, SplashImaging at arm64-apple-ios15\.0$"
    # The boundary an app sees: in an app module (no -package-name), every reach into SplashFormat's
    # `package` names or the applier's SPIs is an error, and the curated names are not.
    local product="SplashFormat=Sources/SplashFormat+SplashApplier=Sources/SplashApplier"
    local hidden="AppReach\.swift:[0-9]+:[0-9]+: error:"
    expect app-reach "$product+AppReach=$src/AppReach.swift" 15.0 1 "$hidden cannot find 'LZFSE' in scope" "$hidden cannot find 'KTXFile' in scope" \
        "$hidden cannot find 'BundleSignature' in scope" "$hidden cannot find 'ContainedFolder' in scope" \
        "$hidden 'acceptingUnsignedBundles' is inaccessible due to '@_spi' protection level" \
        "$hidden 'fileSystem' is inaccessible due to '@_spi' protection level" "SplashApplier: ok"
    expect app-allowed "$product+AppAllowed=$src/AppAllowed.swift" 15.0 0 "AppAllowed: ok"
    out=$(IOS_SDK='' "$BASH" "${BASH_SOURCE[0]}") && [ "$out" = "ios-check: skipped: no iOS SDK (set IOS_SDK=path/to/iPhoneOS16.5.sdk)" ] \
        && echo "ios-check self-test: no-sdk: ok (skipped, exit 0)" \
        || { echo "ios-check self-test: no-sdk: WRONG: $out"; failures=$((failures + 1)); }
    if [ "$failures" = 0 ]; then echo "ios-check self-test: passed"; else echo "ios-check self-test: $failures cases FAILED"; return 1; fi
}

# --size: what SplashFormat and SplashApplier add to an app, as the bytes of their __TEXT segment
# (code, constants, strings, Swift metadata) in arm64-apple-ios<MIN> objects built with -Osize and
# -O (whole module, not linked: the linker's dead stripping could only make it smaller), and how
# many public types and symbols an app sees in each.
size() {
    local min triple work opt name files
    min=$(python3 "$SUPPORT" ios-min "$ROOT/Package.swift")
    triple="arm64-apple-ios$min"
    for opt in -Osize -O; do
        work=$OUT/size$opt
        rm -rf "$work" && mkdir -p "$work"
        for name in SplashFormat SplashApplier; do
            mapfile -t files < <(cd "$ROOT" && find "Sources/$name" -name '*.swift' | LC_ALL=C sort)
            (cd "$ROOT" && "$SWIFTC" -c "$opt" -wmo -package-name splashgen -parse-as-library -swift-version 6 -target "$triple" -sdk "$SDK" \
                -resource-dir "$OUT/res" -module-cache-path "$OUT/module-cache" -I "$work" \
                -emit-module -emit-module-path "$work/$name.swiftmodule" -module-name "$name" -o "$work/$name.o" "${files[@]}") \
                >"$work/$name.log" 2>&1 || { echo "ios-check: size: $name does not build, see $work/$name.log"; return 1; }
        done
        echo "ios-check: size at $triple, $opt: $(python3 "$SUPPORT" text-size "$work/SplashFormat.o" "$work/SplashApplier.o")"
    done
    # What an app can name of them: their public symbol graphs (SPI and `package` names left out).
    for name in SplashFormat SplashApplier; do
        "$(dirname "$SWIFTC")/swift-symbolgraph-extract" -module-name "$name" -target "$triple" -sdk "$SDK" -resource-dir "$OUT/res" \
            -module-cache-path "$OUT/module-cache" -I "$work" -minimum-access-level public -output-dir "$work" >>"$work/$name.log" 2>&1 \
            || { echo "ios-check: size: no symbol graph of $name, see $work/$name.log"; return 1; }
    done
    echo "ios-check: public API at $triple: $(python3 "$SUPPORT" api-count "$work/SplashFormat.symbols.json" "$work/SplashApplier.symbols.json")"
}

case "${1:-}" in
"")
    prepare
    MIN=$(python3 "$SUPPORT" ios-min "$ROOT/Package.swift")
    # The demo's Swift that its three shapes share; the app-delegate shape adds its SwiftUI file, compiled to nothing.
    demo=Examples/SplashDemo/SplashDemo/AppDelegate.swift,Examples/SplashDemo/SplashDemo/DemoLog.swift,Examples/SplashDemo/SplashDemo/DemoRun.swift,Examples/SplashDemo/SplashDemo/DemoShape.swift,Examples/SplashDemo/SplashDemo/DemoStatus.swift,Examples/SplashDemo/SplashDemo/DemoStatusViewController.swift,Examples/SplashDemo/SplashDemo/DemoSwitches.swift,Examples/SplashDemo/SplashDemo/DemoUpdater.swift,Examples/SplashDemo/SplashDemo/WindowAppDelegate.swift
    check "$MIN" "$OUT/arm64-apple-ios$MIN" \
        SplashFormat=Sources/SplashFormat \
        SplashFormatWriting=Sources/SplashFormatWriting \
        SplashImaging=Sources/SplashImaging/Shared,Sources/SplashImaging/Apple \
        SplashApplier=Sources/SplashApplier \
        SimulatorOSCodecs=Sources/SplashSimulator/OSCodecs.swift,Sources/SplashSimulator/OSCodecs+Apple.swift,scripts/ios-check/simulator \
        AppIntegration=Examples/AppIntegration/Sources/AppIntegration \
        SplashDemo="$demo" \
        SplashDemoAppDelegate+SPLASHDEMO_APPDELEGATE="$demo,Examples/SplashDemo/SplashDemo/SplashDemoApp.swift"
    ;;
--self-test) prepare && self_test ;;
--size) prepare && size ;;
*) echo "usage: IOS_SDK=path/to/iPhoneOS16.5.sdk $0 [--self-test | --size]" >&2; exit 2 ;;
esac
