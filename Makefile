# OpenBench-style build: `make EXE=<name>` builds an optimised Tarpon at <name>.
# (Cargo is the real build system; this wrapper is for testing frameworks that expect make.)
# `make test` is the test command: it installs what the tests need (Debian's polyglot,
# python-chess) and runs every test, none skipped (see scripts/test.sh).
# `make release` builds binaries to copy to other machines (scripts/release.sh):
# dist/tarpon-<version>-x86-64-v2, -v3 and -v4. The other builds here use every instruction
# of this machine's processor (.cargo/config.toml) and may not start elsewhere; pick the
# highest level the other processor has (v4: AVX-512; v3: AVX2, Intel Haswell (2013) or
# AMD Zen (2017) and later; v2: nearly any x86-64 in use). `tarpon --version`
# says which a binary is. `make release LEVELS=x86-64-v3` builds only the levels named.
# `make pgo` builds the fastest binary for this processor, target/pgo/tarpon, guided by a
# profile of `tarpon bench` (scripts/pgo.sh; 2-8 % more nodes/s).
# `make EXE=<name> FEATURES=tune` builds the tuning build, whose search numbers are UCI
# options (for SPSA; docs/openbench.md).
EXE ?= tarpon
LEVELS ?=
FEATURES ?=

.PHONY: all clean pgo release test
all:
	cargo build --release --features "$(FEATURES)"
	cp target/release/tarpon $(EXE)

clean:
	cargo clean

pgo:
	scripts/pgo.sh

release:
	scripts/release.sh $(LEVELS)

test:
	scripts/test.sh
