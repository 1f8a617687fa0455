#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Shards and merge on this machine: the shared archives run as one run,
# then as 2 and as 4 shards (`--shard K/N`, run side by side, the cores
# split between them; by member, and by file) and merged (`recount
# merge`); prints the wall time of each way, the merge's share, the time a
# shard spends reading what other shards process (a shard of 1,000 that
# holds almost nothing), and checks that every merged report is byte for
# byte the one run's.
#
#   bash scripts/bench-shards.sh
#
# Environment:
#   RECOUNT_GO_DATA="F…"  the Go archives (default ../shared/data/go/kgs-*.tar.gz)
#   RECOUNT_BG_DATA=FILE  the backgammon archive (default ../shared/data/bg/real-matches-dev.tar.gz)
#   THREADS=N             cores to use in all (default 2)
#   RECOUNT_BIN=PATH      time this binary, no cargo build
#   EXTRA="…"             more options for every run (e.g. "--plays")
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

BENCH_NAME=bench-shards.sh
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

read -r -a GO <<<"${RECOUNT_GO_DATA:-$(echo ../shared/data/go/kgs-*.tar.gz)}"
BG=${RECOUNT_BG_DATA:-../shared/data/bg/real-matches-dev.tar.gz}
THREADS=${THREADS:-2}
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}
read -r -a EXTRA <<<"${EXTRA:-}"
for f in "${GO[@]}" "$BG"; do [[ -f $f ]] || die "needs $f; set RECOUNT_GO_DATA / RECOUNT_BG_DATA"; done
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || die "THREADS must be a positive integer (got '$THREADS')"

if [[ -z ${RECOUNT_BIN:-} ]]; then
    echo "== cargo build --release"
    cargo build --release
fi
[[ -x $BIN ]] || die "$BIN is not an executable file"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-bench-shards.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
INPUT=("${GO[@]}" "$BG")
run() { "$BIN" "${INPUT[@]}" -q --no-html "${EXTRA[@]}" "$@"; }

echo "== one run, -j $THREADS"
t0=$(now)
run -j "$THREADS" --out "$TMP/one"
t1=$(now)
ONE=$(elapsed "$t0" "$t1")
GAMES=$(awk -F, '$1 == "read" && $2 == "go_games" { print $3 }' "$TMP/one/summary.csv")
MATCHES=$(awk -F, '$1 == "read" && $2 == "bg_matches" { print $3 }' "$TMP/one/summary.csv")
echo "   $GAMES Go games, $MATCHES backgammon matches: ${ONE}s"

t0=$(now)
run -j 1 --shard 1/1000 --out "$TMP/read-only"
t1=$(now)
echo "   a shard reading all of it, processing 1/1000: $(elapsed "$t0" "$t1")s (--shard-by member)"

printf '\n%-12s %10s %10s %10s %12s %8s\n' ways shards_s merge_s total_s "vs one run" same
printf '%-12s %10s %10s %10s %12s %8s\n' 1 "$ONE" - "$ONE" 1.0x -
for way in 2 4 2/file 4/file; do
    n=${way%/*}; by=member; [[ $way == */file ]] && by=file
    # The cores split between the shards, at least one thread each.
    per=$(( THREADS / n )); (( per >= 1 )) || per=1
    t0=$(now)
    pids=()
    for k in $(seq 1 "$n"); do
        run -j "$per" --shard "$k/$n" --shard-by "$by" --out "$TMP/s$k-$n" & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    t1=$(now)
    dirs=(); for k in $(seq 1 "$n"); do dirs+=("$TMP/s$k-$n"); done
    "$BIN" merge "${dirs[@]}" --out "$TMP/m$n" 2>/dev/null
    t2=$(now)
    same=yes
    for f in "$TMP/one"/*.csv; do
        cmp -s "$f" "$TMP/m$n/$(basename "$f")" || { same=NO; echo "   $(basename "$f") differs" >&2; }
    done
    printf '%-12s %10s %10s %10s %12s %8s\n' "$n by $by" "$(elapsed "$t0" "$t1")" "$(elapsed "$t1" "$t2")" \
        "$(elapsed "$t0" "$t2")" "$(ratio "$(elapsed "$t0" "$t2")" "$ONE")" "$same"
    [[ $same == yes ]] || die "the merged reports of $n shards differ from the one run's"
done
