#!/usr/bin/env bash
# The test command (`make test`, as README says and `.ci/run` runs): installs what the
# tests need that Cargo does not bring, then runs every test with none skipped.
#
#   - Debian's `polyglot` (tests/all/book_polyglot.rs builds an opening book with it), with
#     apt-get, through sudo when not root;
#   - Debian's `chromium` and `chromium-driver` (tests/all/serve_browser.rs drives the page of
#     `tarpon serve` in a headless Chromium over WebDriver, from Rust: no Python package),
#     with apt-get when /usr/bin/chromium or /usr/bin/chromedriver is missing;
#   - python3 with python-chess (the reference in tests/all/book_polyglot.rs and the GUI in
#     tests/all/ponder.rs): the python3 on the PATH if it has python-chess, otherwise a virtual
#     environment in target/test-python with python-chess from PyPI (pip), otherwise
#     `pip install --user` where no virtual environment can be made. python3 and its venv
#     module come from apt-get when missing.
#
# Then `cargo test` with TARPON_NO_SKIP=1, so that a test that would say it is skipped fails
# instead, and TARPON_PYTHON, the Python found. Everything else the tests read is in the
# repository (tests/data). Arguments go to cargo test: `scripts/test.sh --test all perft_suites::`
# runs one file's tests (tests/all is one test binary; each file in it a module).
#
#   scripts/test.sh --setup    only installs, and prints the Python with python-chess
set -euo pipefail
cd "$(dirname "$0")/.."

# The version the test data and scripts were checked with (tests/data/README.md).
CHESS=chess==1.11.2
VENV=$PWD/target/test-python

say() { echo "make test: $*" >&2; }
fail() {
    say "$*"
    exit 1
}

apt_install() {
    command -v apt-get >/dev/null || fail "no apt-get on this machine: install $* yourself"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || fail "apt-get install $* needs root, and there is no sudo"
        sudo=(sudo)
    fi
    say "installing $* (apt-get)"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null
}

has_polyglot() { command -v polyglot >/dev/null || [ -x /usr/games/polyglot ]; }
has_chess() { "$1" -c 'import chess.engine, chess.polyglot' 2>/dev/null; }

# Prints the Python that has python-chess, installing it where needed.
find_python() {
    if command -v python3 >/dev/null && has_chess python3; then
        echo python3
        return
    fi
    if [ -x "$VENV/bin/python3" ] && has_chess "$VENV/bin/python3"; then
        echo "$VENV/bin/python3"
        return
    fi
    if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
        apt_install python3 python3-venv
    fi
    say "installing python-chess ($CHESS, pip) into $VENV"
    rm -rf "$VENV"
    if python3 -m venv "$VENV" >&2 &&
        "$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check "$CHESS" >&2; then
        echo "$VENV/bin/python3"
        return
    fi
    rm -rf "$VENV"
    say "no virtual environment here; trying pip install --user"
    python3 -m pip install --quiet --disable-pip-version-check --user "$CHESS" >&2 ||
        fail "cannot install python-chess: install it yourself (pip install chess)"
    has_chess python3 || fail "python-chess installed, but python3 cannot import it"
    echo python3
}

has_polyglot || apt_install polyglot
has_polyglot || fail "apt-get installed polyglot, but it is neither on the PATH nor in /usr/games"
has_chromium() { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }
has_chromium || apt_install chromium chromium-driver
has_chromium || fail "apt-get installed chromium, but /usr/bin/chromium or /usr/bin/chromedriver is missing"
python=$(find_python)

if [ "${1:-}" = --setup ]; then
    echo "$python"
    exit 0
fi
export TARPON_PYTHON=$python TARPON_NO_SKIP=1
# Two test threads per core: many tests spend most of their time waiting (on a browser, on a
# server's idle timeout, on a clock), and the tests of one binary run only as many at once as
# it has threads. On two cores tests/all ran in 155-175 s instead of 227 s. RUST_TEST_THREADS
# or `-- --test-threads N` still choose.
if [ -z "${RUST_TEST_THREADS:-}" ]; then
    RUST_TEST_THREADS=$((2 * $(nproc 2>/dev/null || echo 1)))
    export RUST_TEST_THREADS
fi
# No incremental compilation: in a fresh clone it only adds work (the test build took 96 s
# instead of 108 s on two cores), and a rebuild after a small change is still seconds away
# (`cargo test` with incremental compilation stays the way to iterate). CARGO_INCREMENTAL
# still chooses.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
exec cargo test "$@"
