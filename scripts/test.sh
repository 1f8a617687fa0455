#!/usr/bin/env bash
# The whole test suite, as README.md and .ci/run call it: formatting, lints,
# then every unit, integration and doc test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo fmt --all -- --check
cargo clippy --locked --all-targets -- -D warnings
cargo test --locked
