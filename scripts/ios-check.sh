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
#   SplashUpdater   Sources/SplashUpdater: the fetcher and the one-call updater (BackgroundTasks,
#                   UIKit), imports SplashApplier
#   SimulatorOSCodecs  Sources/SplashSimulator/OSCodecs.swift and OSCodecs+Apple.swift, the simulated
#                   OS's own codecs on Apple platforms (with scripts/ios-check/simulator's stand-in
#                   for SimulatorError): macOS code, checked against the iOS SDK's same frameworks
#   AppIntegration  Examples/AppIntegration/Sources/AppIntegration/ShopAppDelegate.swift, the
#                   README's app code (its SwiftUI entry point, ShopApp.swift, is compiled by the
#                   macOS CI job only: the 16.5 SDK's SwiftUI interface does not load in Swift 6.3)
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
#   make size IOS_SDK=path/to/iPhoneOS16.5.sdk          (scripts/ios-check.sh --size, below)
#
# Without IOS_SDK it says it skipped and exits 0, whatever the mode. Otherwise it prints one line per module, the errors
# as file:line:col: error: message, and a summary; it exits 1 when there are errors. Full compiler
# output: .build-ios-check/arm64-apple-ios<MIN>/logs/<module>.log. --self-test proves the check
# bites: it must reject scripts/ios-check/self-test/Planted.swift (a wrong argument label; iOS 16
# API at iOS 15), accept the same valid code (Clean.swift) at iOS 16, accept the generator's Apple
# backend as it is and reject a copy of it with one planted type error. Also read from the
# environment: SWIFTC (default: swiftc on PATH), IOS_CHECK_ROOT (check another checkout, e.g. a
# `git archive` of an older commit; default: this one).
#
# --size (`make size IOS_SDK=...`) measures what the app-side products add to an app, linked:
#  1. SplashFormat, SplashApplier and, once the folder exists, SplashUpdater (Sources/<name>), in that
#     order, each one `swiftc -c -Osize -wmo -parse-as-library -package-name splashgen -swift-version 6
#     -target arm64-apple-ios<MIN>` to an object (.build-ios-check/size/plain). Without
#     Sources/SplashUpdater the product set is SplashApplier alone, fetcher included, and it says so.
#  2. Three apps (scripts/ios-check/app-size/*.swift, built the same way but as an app: no
#     -package-name), each Shell.swift (one UIKit app delegate) and its own file: Baseline (none of
#     splashgen), ApplierApp (with ApplierRun.swift: SnapshotApplier.forThisApp, apply(), restore(),
#     status() and their reports) and UpdaterApp (ApplierRun.swift too, plus LaunchScreenUpdater.start,
#     BundleFetcher.forThisApp and fetch()), each an
#     arm64 iOS executable linked by
#     Debian's ld64.lld (`apt-get install lld`; LD64 names another) against the SDK's .tbd stubs
#     with -dead_strip and --icf=all, as Xcode links a release build (size_link says which names
#     may stay undefined, and why).
#  3. Prints `size: <product>: +N KB __TEXT, +N KB __DATA_CONST, +N KB __DATA`: ApplierApp's and
#     UpdaterApp's segments less Baseline's, a segment being its sections' bytes (support.py
#     segments: not rounded to pages, zero-fill left out); KB = 1,000 bytes, as docs/benchmarks.md
#     counts; and how much of it lld 14's lazy binding adds, which ld64 does not for iOS 15+.
#     Then where each app's code goes (support.py attribute): its __TEXT,__text by the type of
#     splashgen's modules each function belongs to (llvm-nm's symbols of the linked app, demangled
#     with the toolchain's swift-demangle), and by kind (specialisations, value witnesses, Codable, …).
#  4. Then the same with the modules built with -Xfrontend -internalize-at-link, then with
#     -Xfrontend -disable-reflection-metadata, each apart (.build-ios-check/size/<flag>), and what
#     each saves: what an app would save if built with the flag. Package.swift is not changed.
#  5. Last, how many public types and symbols an app sees in each module (their symbol graphs).
# About 4 minutes on 2 cores, most of it the nine module builds.
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
#    compiler looks before the SDK. As in Swift 6, they are `@_alwaysEmitIntoClient`, with bodies:
#    --size links their code into the app, as a build against a Swift 6 SDK does. Likewise scripts/ios-check/patch-dispatch.py gives a copy of the
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
    echo "ios-check: ${1:+$1: }skipped: no iOS SDK (set IOS_SDK=path/to/iPhoneOS16.5.sdk)"
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
        local note
        note="${#files[@]} file$([ "${#files[@]}" = 1 ] || echo s)"
        [ "$warnings" = 0 ] || note="$note, $warnings warning$([ "$warnings" = 1 ] || echo s)"
        if [ "$count" = 0 ]; then
            echo "ios-check: $name: ok ($note)"
        else
            echo "ios-check: $name: $count error$([ "$count" = 1 ] || echo s) ($note; log: ${log#"$REPO"/})"
            printf '%s\n' "${result[@]}"
        fi
    done
    local list
    list=$(IFS=,; echo "${names[*]}")
    list=${list//,/, }
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
            local printed
            mapfile -t printed <<<"$out"
            printf '    %s\n' "${printed[@]}"
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
    if out=$(IOS_SDK='' "$BASH" "${BASH_SOURCE[0]}") && [ "$out" = "ios-check: skipped: no iOS SDK (set IOS_SDK=path/to/iPhoneOS16.5.sdk)" ]; then
        echo "ios-check self-test: no-sdk: ok (skipped, exit 0)"
    else
        echo "ios-check self-test: no-sdk: WRONG: $out"
        failures=$((failures + 1))
    fi
    if [ "$failures" = 0 ]; then echo "ios-check self-test: passed"; else echo "ios-check self-test: $failures cases FAILED"; return 1; fi
}

# --size: what the app-side products add to an app that links them (see the header, --size).
# The linker: Debian's lld (apt-get install lld; `make size` installs it), whose ld64.lld links for
# iOS; the Swift toolchain's own (/opt/swift/usr/bin/ld64.lld) refuses: "This version of lld does not
# support linking for platform iOS". LD64 names another.
find_ld64() {
    local candidate
    if [ -n "${LD64:-}" ]; then echo "$LD64"; return; fi
    # the newest of Debian's (lld-14 on bookworm, lld-NN beside it when installed)
    for candidate in $(printf '%s\n' /usr/lib/llvm-*/bin/ld64.lld | sort -V -r); do
        if [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
    # else one on PATH (Homebrew's lld), unless it is the Swift toolchain's
    candidate=$(command -v ld64.lld) || return 1
    [ "$(dirname "$(readlink -f "$candidate")")" != "$(dirname "$(readlink -f "$SWIFTC")")" ] && echo "$candidate"
}

# size_compile WORK MODULE-FLAG...: the app-side modules, in dependency order, as objects and modules
# in WORK (-Osize, whole module, with this package's name), each with the extra flags given.
size_compile() {
    local work=$1 name files
    shift
    rm -rf "$work" && mkdir -p "$work"
    for name in "${SIZE_MODULES[@]}"; do
        mapfile -t files < <(cd "$ROOT" && find "Sources/$name" -name '*.swift' | LC_ALL=C sort)
        (cd "$ROOT" && nice -n 19 "$SWIFTC" -c "${SIZE_SWIFTFLAGS[@]}" -package-name splashgen "$@" -I "$work" \
            -emit-module -emit-module-path "$work/$name.swiftmodule" -module-name "$name" -o "$work/$name.o" "${files[@]}") \
            >"$work/$name.log" 2>&1 || { echo "ios-check: size: $name does not build, see ${work#"$REPO"/}/$name.log"; return 1; }
    done
}

# size_app WORK APP OBJECT...: compiles scripts/ios-check/app-size/APP.swift with Shell.swift (the
# app delegate all three apps share) and, but for Baseline, ApplierRun.swift, against the modules in
# WORK (as an app is: no -package-name, no extra flags) and links it with the OBJECTs into WORK/APP.
size_app() {
    local work=$1 app=$2 sources=("$HERE/ios-check/app-size/Shell.swift")
    shift 2
    [ "$app" = Baseline ] || sources+=("$HERE/ios-check/app-size/ApplierRun.swift")
    nice -n 19 "$SWIFTC" -c "${SIZE_SWIFTFLAGS[@]}" -I "$work" -module-name "$app" -o "$work/$app.o" \
        "${sources[@]}" "$HERE/ios-check/app-size/$app.swift" >"$work/$app.log" 2>&1 \
        || { echo "ios-check: size: app-size/$app.swift does not build, see ${work#"$REPO"/}/$app.log"; return 1; }
    size_link "$work/$app" "$work/$app.o" "$@"
}

# size_link OUT OBJECT...: an arm64 iOS executable, as Xcode links a release build: dead stripping,
# and identical code folded (ld64 deduplicates unless told -no_deduplicate, which Xcode passes in
# Debug only; --icf=all is lld's name for it). Libraries: the SDK's .tbd stubs; the objects name
# theirs (libswiftCore, Foundation, UIKit, ...: autolinking). With -U, three names may stay
# undefined, bound when the app loads; each costs the app one import (a stub and a pointer):
#   ___isPlatformVersionAtLeast  `#available`'s check, from compiler-rt's builtins
#       (libclang_rt.ios.a), which come with Xcode's clang, not with the SDK or the Linux toolchain.
#       A real app carries its code instead: about 1.7 KB of __TEXT (compiler-rt's os_version_check.c
#       built for arm64 iOS), once, whatever number of `#available` it has, and most apps have some
#       already; the output says it is not counted. A stub object of our own would be code no app has.
#   _swift_coroFrameAlloc, _swift_willThrowTypedImpl  Swift 6.2 and 6.0 runtime functions, which
#       code built for iOS 15 imports weakly (it checks for them before calling); the 16.5 SDK's
#       libswiftCore.tbd predates them, a Swift 6 SDK's has them: the same weak import either way.
# Any other undefined name fails the link. An SDK copy without Foundation.tbd (theos/sdks' 16.5 has
# none) gets a stand-in made for this link (support.py foundation-stand-in says which names it
# exports and why the segments do not depend on it): a first link against a stand-in exporting
# nothing lists what no other library has.
size_link() {
    local out=$1 stand_in=$1.stand-in frameworks=()
    shift
    rm -rf "$stand_in"
    if [ ! -f "$SDK/System/Library/Frameworks/Foundation.framework/Foundation.tbd" ]; then
        mkdir -p "$stand_in/Foundation.framework"
        printf '%s\n' '--- !tapi-tbd' 'tbd-version: 4' 'targets: [ arm64-ios ]' \
            "install-name: '/System/Library/Frameworks/Foundation.framework/Foundation'" '...' \
            >"$stand_in/Foundation.framework/Foundation.tbd"
        frameworks=(-F "$stand_in")
    fi
    frameworks+=(-F "$SDK/System/Library/Frameworks")
    local link=("$LD64_PATH" -arch arm64 -platform_version ios "$SIZE_MIN" "$SDK_VERSION" -syslibroot "$SDK"
        -dead_strip --icf=all --error-limit=0 -o "$out" "$@" -lSystem -L "$SDK/usr/lib/swift" "${frameworks[@]}"
        -rpath /usr/lib/swift -U ___isPlatformVersionAtLeast -U _swift_coroFrameAlloc -U _swift_willThrowTypedImpl)
    if [ -d "$stand_in" ]; then
        nice -n 19 "${link[@]}" >"$out.link.log" 2>&1 || true
        python3 "$SUPPORT" foundation-stand-in "$stand_in/Foundation.framework/Foundation.tbd" \
            "$SDK/usr/lib/swift/libswiftFoundation.tbd" "$out.link.log" >/dev/null
    fi
    nice -n 19 "${link[@]}" >"$out.link.log" 2>&1 \
        || { echo "ios-check: size: ${out#"$REPO"/} does not link, see ${out#"$REPO"/}.link.log:"; grep -m 5 'error:' "$out.link.log"; return 1; }
}

size() {
    local base=$OUT/size/baseline plain=$OUT/size/plain name work
    SIZE_MIN=$(python3 "$SUPPORT" ios-min "$ROOT/Package.swift")
    LD64_PATH=$(find_ld64) || { echo "ios-check: size: no ld64.lld: apt-get install lld (Debian's; the Swift toolchain's refuses iOS), or set LD64" >&2; return 2; }
    SDK_VERSION=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["Version"])' "$SDK/SDKSettings.json" 2>/dev/null || echo "$SIZE_MIN")
    # -runtime-compatibility-version none: no libswiftCompatibility56.a or libswiftCompatibilityPacks.a,
    # static archives of Xcode's toolchain (not in the SDK or the Linux toolchain). Every Swift object
    # of an app for iOS < 17, the baseline's too, force-loads them, so they are in all three apps
    # alike; leaving them out changes no increment but the 8-byte pointer each module keeps to them.
    SIZE_SWIFTFLAGS=(-Osize -wmo -parse-as-library -swift-version 6 -runtime-compatibility-version none
        -target "arm64-apple-ios$SIZE_MIN" -sdk "$SDK" -resource-dir "$OUT/res" -module-cache-path "$OUT/module-cache")
    SIZE_MODULES=(SplashFormat SplashApplier)
    if [ -d "$ROOT/Sources/SplashUpdater" ]; then SIZE_MODULES+=(SplashUpdater); fi

    rm -rf "$OUT/size" && mkdir -p "$base"
    size_app "$base" Baseline || return 1

    # The two apps: ApplierApp links SplashFormat and SplashApplier (what SplashApplier's product is);
    # UpdaterApp links every module (and calls the fetcher too).
    local applier=("SplashFormat.o" "SplashApplier.o") updater=()
    for name in "${SIZE_MODULES[@]}"; do updater+=("$name.o"); done
    local applier_label updater_label
    if [ -d "$ROOT/Sources/SplashUpdater" ]; then
        applier_label="SplashApplier" updater_label="SplashApplier + SplashUpdater"
    else
        applier_label="SplashApplier (applier only)" updater_label="SplashApplier (applier and fetcher)"
    fi
    echo "ios-check: size at arm64-apple-ios$SIZE_MIN: an app (app-size/*.swift) linked with $("$LD64_PATH" --version | head -n 1 | sed 's/ (.*//') ($(basename "$LD64_PATH"), -dead_strip --icf=all) against $(basename "$SDK")'s .tbd stubs, less a baseline app that links none of splashgen; modules -Osize -wmo"
    echo "ios-check: size: KB = 1,000 bytes (as docs/benchmarks.md counts); a segment's bytes are its sections' (zero-fill left out, not rounded to pages); baseline: $(python3 "$SUPPORT" increment baseline - "$base/Baseline" | sed 's/^baseline: //')"
    [ -d "$ROOT/Sources/SplashUpdater" ] \
        || echo "ios-check: size: no Sources/SplashUpdater yet: the product set is SplashApplier alone (its fetcher, BundleFetcher, in it); the second app calls the fetcher too"
    echo "ios-check: size: not counted: compiler-rt's __isPlatformVersionAtLeast (\`#available\`), about 1.7 KB of __TEXT once per app, an import here (size_link says why)"
    if [ -f "$SDK/System/Library/Frameworks/Foundation.framework/Foundation.tbd" ]; then :; else
        echo "ios-check: size: $(basename "$SDK") has no Foundation.framework/Foundation.tbd: each link gets a stand-in exporting what it imports of Foundation (support.py foundation-stand-in)"
    fi

    # The modules as an app builds them, then with each flag apart: the savings are against the first.
    local variants=("" "-Xfrontend -internalize-at-link" "-Xfrontend -disable-reflection-metadata") variant flags
    for variant in "${variants[@]}"; do
        read -ra flags <<<"$variant"
        work=$OUT/size/${variant##* -}
        [ -n "$variant" ] || work=$plain
        size_compile "$work" "${flags[@]}" || return 1
        size_app "$work" ApplierApp "${applier[@]/#/$work/}" || return 1
        size_app "$work" UpdaterApp "${updater[@]/#/$work/}" || return 1
        if [ -z "$variant" ]; then
            python3 "$SUPPORT" increment "size: $applier_label" "$base/Baseline" "$work/ApplierApp"
            python3 "$SUPPORT" increment "size: $updater_label" "$base/Baseline" "$work/UpdaterApp"
            echo "ios-check: size: of the last, lld 14's lazy binding makes $(python3 "$SUPPORT" lazy-binding "$base/Baseline" "$work/UpdaterApp"), which ld64 does not for iOS 15+ (chained fixups: no stub helper, pointers in __DATA_CONST)"
            SWIFT_TOOLS=$(dirname "$SWIFTC") python3 "$SUPPORT" attribute "ios-check: size: $applier_label" "$work/ApplierApp" SplashFormat SplashApplier
            SWIFT_TOOLS=$(dirname "$SWIFTC") python3 "$SUPPORT" attribute "ios-check: size: $updater_label" "$work/UpdaterApp" "${SIZE_MODULES[@]}"
        else
            echo "ios-check: size with the modules built with $variant, what an app would save if built with this flag:"
            python3 "$SUPPORT" increment "size: $variant: $applier_label" "$base/Baseline" "$work/ApplierApp" "$plain/ApplierApp"
            python3 "$SUPPORT" increment "size: $variant: $updater_label" "$base/Baseline" "$work/UpdaterApp" "$plain/UpdaterApp"
        fi
    done

    # What an app can name of them: their public symbol graphs (SPI and `package` names left out).
    local graphs=()
    for name in "${SIZE_MODULES[@]}"; do
        nice -n 19 "$(dirname "$SWIFTC")/swift-symbolgraph-extract" -module-name "$name" -target "arm64-apple-ios$SIZE_MIN" -sdk "$SDK" -resource-dir "$OUT/res" \
            -module-cache-path "$OUT/module-cache" -I "$plain" -minimum-access-level public -output-dir "$plain" >>"$plain/$name.log" 2>&1 \
            || { echo "ios-check: size: no symbol graph of $name, see ${plain#"$REPO"/}/$name.log"; return 1; }
        graphs+=("$plain/$name.symbols.json")
    done
    echo "ios-check: public API at arm64-apple-ios$SIZE_MIN: $(python3 "$SUPPORT" api-count "${graphs[@]}")"
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
        SplashUpdater=Sources/SplashUpdater \
        SimulatorOSCodecs=Sources/SplashSimulator/OSCodecs.swift,Sources/SplashSimulator/OSCodecs+Apple.swift,scripts/ios-check/simulator \
        AppIntegration=Examples/AppIntegration/Sources/AppIntegration/ShopAppDelegate.swift \
        SplashDemo="$demo" \
        SplashDemoAppDelegate+SPLASHDEMO_APPDELEGATE="$demo,Examples/SplashDemo/SplashDemo/SplashDemoApp.swift"
    ;;
--self-test) prepare && self_test ;;
--size) prepare && size ;;
*) echo "usage: IOS_SDK=path/to/iPhoneOS16.5.sdk $0 [--self-test | --size]" >&2; exit 2 ;;
esac
