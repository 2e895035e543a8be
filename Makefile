# splashgen — every target works from a fresh clone; `deps` installs what is missing (Debian/Ubuntu).
PACKAGES := pkg-config libpng-dev libastcenc-dev libstb-dev
BENCH_PACKAGES := imagemagick astcenc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
install = missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); if [ -n "$$missing" ]; then if command -v apt-get >/dev/null; then $(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; else echo "please install: $$missing"; exit 1; fi; fi

.PHONY: deps bench-deps build run test bench clean

deps: ; @$(call install,$(PACKAGES))
bench-deps: deps ; @$(call install,$(BENCH_PACKAGES))
build: deps ; swift build
run: build ; .build/debug/splashgen build campaigns/double11.yaml
test: deps ; swift test
bench: bench-deps ; swift build -c release --product splashbench && .build/release/splashbench
clean: ; rm -rf .build Output/*/ Output/.cache Output/.staging-* Output/.old-*
