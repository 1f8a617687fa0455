#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Spark recipe's overhead against the command line, on the same input
# and the same two cores: wall time of `recount -j 2` over the shared KGS
# and backgammon archives, then of examples/spark/recount_spark.py in
# local[2] (one recount thread per task), mapInArrow and RDD.pipe, each as
# a ratio to the command line's. Each run's reports are checked against
# the command line's (tests/tests/python_reports.py spark).
#
#   bash scripts/bench-spark.sh [ARCHIVE...]   # default: ../shared/data archives
#
# Needs .venv-python/ and Java (scripts/get-python-tools.sh); builds the
# release binary and the package (release wheel) first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
SHARED=${SHARED:-$ROOT/../shared/data}
if [ $# -gt 0 ]; then
    inputs=("$@")
else
    inputs=("$SHARED"/go/kgs-*.tar.gz "$SHARED"/bg/real-matches-dev.tar.gz)
fi
PY=$ROOT/.venv-python/bin/python
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}

cargo build --release -q
BIN=$TARGET/release/recount
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The wheel of this tree alone (other wheels may lie in target/wheels).
"$ROOT/.venv-python/bin/maturin" build --release -q -m python/Cargo.toml -o "$tmp/wheels" >/dev/null
"$PY" -m pip install -q --no-deps --force-reinstall "$tmp"/wheels/recount-*.whl
abs=()
for f in "${inputs[@]}"; do abs+=("$(realpath "$f")"); done
printf '%s\n' "${abs[@]}" > "$tmp/paths.txt"

secs() { local t0 t1; t0=$(date +%s.%N); "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

cd "$tmp"
cli=$(secs "$BIN" -j 2 -q --no-html --format parquet --out "$tmp/cli" "${abs[@]}")
arrow=$(secs "$PY" "$ROOT/examples/spark/recount_spark.py" --master 'local[2]' --out "$tmp/arrow" "@$tmp/paths.txt")
pipe=$(secs "$PY" "$ROOT/examples/spark/recount_spark.py" --master 'local[2]' --pipe "$BIN" --out "$tmp/pipe" "@$tmp/paths.txt")
for v in arrow pipe; do
    echo "$v: $("$PY" "$ROOT/tests/tests/python_reports.py" spark "$tmp/cli" "$tmp/$v" | head -5)"
done
echo "files: ${#abs[@]}, $(du -cb "${abs[@]}" | tail -1 | cut -f1) bytes"
printf 'cli -j 2:               %6.1f s\n' "$cli"
printf 'spark mapInArrow local[2]: %6.1f s  %.2fx the cli\n' "$arrow" "$(echo "$arrow / $cli" | bc -l)"
printf 'spark RDD.pipe local[2]:   %6.1f s  %.2fx the cli\n' "$pipe" "$(echo "$pipe / $cli" | bc -l)"
