# OpenBench-style build: `make EXE=<name>` builds an optimised Tarpon at <name>.
# (Cargo is the real build system; this wrapper is for testing frameworks that expect make.)
# `make test` is the test command: it installs what the tests need (Debian's polyglot,
# python-chess) and runs every test, none skipped (see scripts/test.sh).
EXE ?= tarpon

.PHONY: all clean test
all:
	cargo build --release
	cp target/release/tarpon $(EXE)

clean:
	cargo clean

test:
	scripts/test.sh
