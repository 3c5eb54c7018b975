# OpenBench-style build: `make EXE=<name>` builds an optimised Tarpon at <name>.
# (Cargo is the real build system; this wrapper is for testing frameworks that expect make.)
EXE ?= tarpon

.PHONY: all clean
all:
	cargo build --release
	cp target/release/tarpon $(EXE)

clean:
	cargo clean
