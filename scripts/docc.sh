#!/usr/bin/env bash
# docc.sh: builds the app library's DocC catalogs (Sources/SplashApplier/SplashApplier.docc and
# Sources/SplashUpdater/SplashUpdater.docc) with the toolchain's `docc`, from symbol graphs of the
# modules as `swift build` made them, and fails on any warning (an unresolved link among them).
#
# The symbol graphs are this platform's. Declarations that exist only on iOS (`forThisApp`,
# `LaunchScreenUpdater.start`, `ScreenSize(screen:)`) are not in a Linux graph, so the catalogs and
# the doc comments name them in code voice, never as links: a link to one would be a warning here.
# `make ios-check` type-checks them for iOS.
#
#   scripts/docc.sh        (after `swift build`; `make test` runs it after the tests)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=$(swift build --show-bin-path)
OUT=.build/docc
rm -rf "$OUT" && mkdir -p "$OUT/graphs"
swift build --target SplashUpdater >/dev/null
# Xcode keeps both tools in its toolchain (xcrun finds them); a Linux toolchain beside `swift`.
if command -v xcrun >/dev/null; then
    EXTRACT=$(xcrun --find swift-symbolgraph-extract) DOCC=(xcrun docc)
else
    EXTRACT=$(dirname "$(command -v swift)")/swift-symbolgraph-extract DOCC=(docc)
fi
TRIPLE=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
# Linux's C targets (zlib for SplashFormat) are found through their module maps.
modulemaps=()
for map in Sources/C*/module.modulemap; do modulemaps+=(-Xcc "-fmodule-map-file=$map"); done
status=0
for module in SplashApplier SplashUpdater; do
    graphs=$OUT/graphs/$module
    mkdir -p "$graphs"
    "$EXTRACT" -module-name "$module" -I "$BIN/Modules" -I "$BIN" -target "$TRIPLE" -minimum-access-level public \
        -output-dir "$graphs" "${modulemaps[@]}" >"$OUT/$module-graph.log" 2>&1 \
        || { echo "docc: no symbol graph of $module, see $OUT/$module-graph.log"; status=1; continue; }
    log=$OUT/$module.log
    "${DOCC[@]}" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" --output-path "$OUT/$module.doccarchive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "splashgen.$module" >"$log" 2>&1 \
        || { echo "docc: $module: docc failed, see $log"; status=1; continue; }
    warnings=$(grep -c "warning:" "$log" || true)
    if [ "$warnings" = 0 ]; then
        echo "docc: $module: built with 0 warnings ($OUT/$module.doccarchive)"
    else
        echo "docc: $module: $warnings warnings:"
        grep -A3 "warning:" "$log" | grep -E "warning:|-->" | sed 's/^/    /'
        status=1
    fi
done
exit "$status"
