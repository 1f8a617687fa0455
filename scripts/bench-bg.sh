#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Backgammon throughput: recount vs. GNU Backgammon's own .mat import.
#
#   bash scripts/bench-bg.sh
#
# 1. builds target/release/recount (unless RECOUNT_BIN is set);
# 2. lays out ROUNDS symlinks to the shared real-matches archive
#    (529 matches each; default 40 rounds = 21,160 matches);
# 3. times recount on them: --positions (parse, replay with full legality,
#    audit, board features and IDs of every position, bg_positions.csv
#    written) with --threads 2 and 1, and without --positions (games only)
#    with --threads 2 and 1;
# 4. times the peer, GNU Backgammon (PyPI package gnubg, in .venv-gnubg made
#    by scripts/gnubg-venv.sh) importing each .mat of one archive copy
#    (scripts/bench_gnubg.py: parse and replay only, one core);
# 5. prints matches/s and the ratios, and cube decisions per second with
#    the exact bearoff evaluator (examples/bench_cube.rs, 400,000 random
#    bearoff positions, a money and a match decision each) against gnubg's
#    0-ply `eval` on the bearoff cases of bg-cube-cases.csv
#    (scripts/bench_gnubg_cube.py; includes its command interpreter);
#    and evaluations per second with GNU Backgammon's nets
#    (examples/bench_nn.rs, the 11,962 positions of bg-nn-cases.csv x 20)
#    against the gnubg package's evaluate (scripts/bench_gnubg_eval.py);
# 6. times the play analysis against gnubg's `analyse match`, at 0-ply and
#    at 2-ply (scripts/bench-plays.sh, each with its defaults: at 2-ply on
#    SAMPLE_2PLY held-out matches), unless SKIP_PLAYS=1.
#
# Environment:
#   RECOUNT_BG_DATA=FILE  the match archive (default ../shared/data/bg/real-matches-dev.tar.gz)
#   ROUNDS=N              copies of the archive (default 40)
#   SKIP_PEER=1           do not run gnubg (nor the play analysis, which
#                         is timed against it)
#   SKIP_PLAYS=1          do not time the play analysis (step 6)
#   SAMPLE_2PLY=N         held-out matches for the 2-ply play analysis
#                         (default 10: gnubg takes about 3 minutes)
#   RECOUNT_BIN=PATH      time this binary, no cargo build
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

DATA=${RECOUNT_BG_DATA:-../shared/data/bg/real-matches-dev.tar.gz}
ROUNDS=${ROUNDS:-40}
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}

BENCH_NAME=bench-bg.sh
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

[[ -f $DATA ]] || die "needs the match archive $DATA; set RECOUNT_BG_DATA"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"
DATA=$(cd "$(dirname "$DATA")" && pwd -P)/$(basename "$DATA")

if [[ -z ${RECOUNT_BIN:-} ]]; then
    echo "== cargo build --release"
    cargo build --release
fi
[[ -x $BIN ]] || die "$BIN is not an executable file"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-bench-bg.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/in" "$TMP/one"
for (( r = 1; r <= ROUNDS; r++ )); do
    ln -s "$DATA" "$TMP/in/$(printf 'copy-%03d' "$r").tar.gz"
done
tar -xzf "$DATA" -C "$TMP/one"
MATCHES_PER=$(find "$TMP/one" -type f | wc -l)
cat "$DATA" > /dev/null

# run NAME ARGS... -> "matches games seconds" from the summary line.
run() {
    local name=$1; shift
    local t0 t1 line
    t0=$(now)
    line=$("$BIN" "$TMP/in" --out "$TMP/out-$name" "$@" 2>&1 >/dev/null | tail -1)
    t1=$(now)
    local m g
    m=$(sed -n 's/.*backgammon: \([0-9]*\) matches, \([0-9]*\) games.*/\1/p' <<<"$line")
    g=$(sed -n 's/.*backgammon: \([0-9]*\) matches, \([0-9]*\) games.*/\2/p' <<<"$line")
    [[ -n $m ]] || die "no summary from recount: $line"
    echo "$m $g $(elapsed "$t0" "$t1")"
}

echo "== recount on $ROUNDS x $MATCHES_PER matches"
read -r M G S2 < <(run pos2 --positions --threads 2)
echo "recount --positions -j2: $M matches, $G games in $S2 s: $(rate "$M" "$S2") matches/s"
read -r _ _ S1 < <(run pos1 --positions --threads 1)
echo "recount --positions -j1: $(rate "$M" "$S1") matches/s"
read -r _ _ SN < <(run nopos --threads 2)
echo "recount (games only) -j2: $(rate "$M" "$SN") matches/s"
read -r _ _ SN1 < <(run nopos1 --threads 1)
echo "recount (games only) -j1: $(rate "$M" "$SN1") matches/s"
POS=$(( $(wc -l < "$TMP/out-pos2/bg_positions.csv") - 1 ))
echo "positions written: $POS ($(rate "$POS" "$S2") positions/s)"

echo "== cube decisions with the exact bearoff evaluator (examples/bench_cube.rs)"
CUBE_LINE=$(cargo run --release --quiet --example bench_cube)
echo "$CUBE_LINE"
CUBE_RATE=$(sed -n 's/.*: \([0-9]*\) cube decisions\/s.*/\1/p' <<<"$CUBE_LINE")

echo "== evaluations with GNU Backgammon's nets (examples/bench_nn.rs)"
# The nets are built in; the fetched gnubg.wd brings gnubg_ts0.bd beside
# it, so two-sided bearoffs are evaluated as gnubg evaluates them.
GNUBG_DIR=$(bash scripts/get-gnubg-weights.sh)
NN_LINE=$(RECOUNT_GNUBG_WEIGHTS="$GNUBG_DIR/gnubg.wd" cargo run --release --quiet --example bench_nn)
echo "$NN_LINE"
NN_RATE=$(sed -n 's/.*: \([0-9]*\) evaluations\/s.*/\1/p' <<<"$NN_LINE")

if [[ ${SKIP_PEER:-0} != 1 ]]; then
    PY=$(NO_APT=1 bash scripts/gnubg-venv.sh 2>/dev/null | tail -1) || die "gnubg venv failed (scripts/gnubg-venv.sh)"
    # shellcheck disable=SC2046
    read -r PM PG PS < <(find "$TMP/one" -type f -print0 | sort -z | xargs -0 "$PY" scripts/bench_gnubg.py)
    echo "gnubg import (1 core): $PM matches, $PG games in $PS s: $(rate "$PM" "$PS") matches/s"
    echo "ratio recount --positions -j2 / gnubg: $(rate_ratio "$M" "$S2" "$PM" "$PS")"
    echo "ratio recount --positions -j1 / gnubg: $(rate_ratio "$M" "$S1" "$PM" "$PS")"
    echo "ratio recount games only -j1 / gnubg (the same work: parse, replay, legality): $(rate_ratio "$M" "$SN1" "$PM" "$PS")"
    read -r CN CS < <("$PY" scripts/bench_gnubg_cube.py 3)
    echo "gnubg 0-ply cube decisions (eval command, 1 core): $CN in $CS s: $(rate "$CN" "$CS") decisions/s"
    echo "ratio recount cube decisions / gnubg: $(ratio "$CUBE_RATE" "$(rate "$CN" "$CS")")"
    read -r EN ES < <("$PY" scripts/bench_gnubg_eval.py 2>/dev/null | tail -1)
    echo "gnubg evaluate, 0-ply (Python, 1 core): $EN in $ES s: $(rate "$EN" "$ES") evaluations/s"
    echo "ratio recount nets (2 threads) / gnubg: $(ratio "$NN_RATE" "$(rate "$EN" "$ES")")"
fi

if [[ ${SKIP_PEER:-0} != 1 && ${SKIP_PLAYS:-0} != 1 ]]; then
    echo "== play analysis at 0-ply (scripts/bench-plays.sh)"
    RECOUNT_BIN=$BIN bash scripts/bench-plays.sh
    echo "== play analysis at 2-ply (PLIES=2 scripts/bench-plays.sh)"
    RECOUNT_BIN=$BIN PLIES=2 SAMPLE=${SAMPLE_2PLY:-10} bash scripts/bench-plays.sh
fi
