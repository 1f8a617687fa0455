#!/usr/bin/env bash
# The whole test suite, as README.md and .ci/run call it: formatting, lints,
# the code's documentation links, then every unit, integration and doc test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo fmt --all -- --check
cargo clippy --locked --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --document-private-items --quiet
# Tests that need a tool this machine lacks (DuckDB, chromium, gnubg's
# files, the Python tools) skip that check and say so here, after the run;
# `bash .ci/run` installs them all.
RECOUNT_SKIP_LOG=$(mktemp "${TMPDIR:-/tmp}/recount-skips.XXXXXX")
export RECOUNT_SKIP_LOG
trap 'rm -f "$RECOUNT_SKIP_LOG"' EXIT
cargo test --locked
if [[ -s $RECOUNT_SKIP_LOG ]]; then
    echo "== checks skipped for want of a tool (bash .ci/run installs them):"
    sort -u "$RECOUNT_SKIP_LOG" | sed 's/^/   /'
fi
