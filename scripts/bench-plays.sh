#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Play analysis: recount --plays against GNU Backgammon's own
# `analyse match`, both at 0-ply (or both at 2-ply with PLIES=2), on the
# same matches, in the same run.
#
#   bash scripts/bench-plays.sh
#
# 1. builds target/release/recount (unless RECOUNT_BIN is set);
# 2. takes SAMPLE matches of the shared real-matches archive that are not
#    among the fixtures the tests compare (a held-out set: every 7th
#    match in sorted order, fixtures left out);
# 3. times recount --plays with --threads 2 and 1 (the whole run: parse,
#    replay, cube and play analysis, luck, statistics, reports) on every
#    match of the archive at 0-ply, and on the held-out sample alone
#    (start-up included); at 2-ply on the sample. The bearoff tables are
#    read from the cache directory, filled by an untimed first run, as
#    after any first run (docs/usage.md);
# 4. times gnubg (PyPI package, in .venv-gnubg, one core, its evaluation
#    cache off as recount's oracle runs it) in `analyse match` alone
#    (import and SGF export not counted), via scripts/gnubg_play_oracle.py;
# 5. does 3 and 4 in turn ROUNDS times and takes each rate from the
#    median time (the machine's pace drifts by a quarter or more, and a
#    run is now and then disturbed); prints each round, the plays/s and
#    the ratios, then compares every play's loss and luck with gnubg's
#    (scripts/compare_plays.py).
#
# Environment:
#   RECOUNT_BG_DATA=FILE  the match archive (default ../shared/data/bg/real-matches-dev.tar.gz)
#   SAMPLE=N              matches (default 60)
#   RECOUNT_BIN=PATH      time this binary, no cargo build
#   PLIES=2               both at 2-ply (gnubg's world-class analysis); gnubg
#                         is then timed with its evaluation cache on, as its
#                         users run it, and compared to 1e-4
#   ROUNDS=N              rounds of timing (default 3 at 0-ply, 1 at 2-ply,
#                         where gnubg takes minutes a round)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

DATA=${RECOUNT_BG_DATA:-../shared/data/bg/real-matches-dev.tar.gz}
SAMPLE=${SAMPLE:-60}
PLIES=${PLIES:-0}
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}

BENCH_NAME=bench-plays.sh
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

[[ -f $DATA ]] || die "needs the match archive $DATA; set RECOUNT_BG_DATA"
[[ $SAMPLE =~ ^[1-9][0-9]*$ ]] || die "SAMPLE must be a positive integer (got '$SAMPLE')"
[[ $PLIES =~ ^[02]$ ]] || die "PLIES must be 0 or 2 (got '$PLIES')"
ROUNDS=${ROUNDS:-$([[ $PLIES == 0 ]] && echo 3 || echo 1)}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"
if [[ -z ${RECOUNT_BIN:-} ]]; then
    echo "== cargo build --release"
    cargo build --release
fi
[[ -x $BIN ]] || die "$BIN is not an executable file"
PY=$(NO_APT=1 bash scripts/gnubg-venv.sh 2>/dev/null | tail -1) || die "gnubg venv failed (scripts/gnubg-venv.sh)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-bench-plays.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/all" "$TMP/in"
tar -xzf "$DATA" -C "$TMP/all"
# Copies named by number (the archive's names hold spaces).
N=0
while IFS= read -r f; do
    [[ -e fixtures/bg/real/$(basename "$f") ]] && continue
    (( N < SAMPLE )) || break
    N=$((N + 1))
    cp "$f" "$TMP/in/$(printf 'm%04d.txt' "$N")"
done < <(find "$TMP/all" -type f -name '*.txt' | sort | awk 'NR % 7 == 0')

# Every match of the archive, for the 0-ply rate.
mkdir -p "$TMP/archive"
N_ALL=0
while IFS= read -r f; do
    N_ALL=$((N_ALL + 1))
    cp "$f" "$TMP/archive/$(printf 'm%04d.txt' "$N_ALL")"
done < <(find "$TMP/all" -type f -name '*.txt' | sort)

# run DIR THREADS OUT -> "plays seconds"
run() {
    local t0 t1 line plays
    t0=$(now)
    line=$("$BIN" "$1" --plays --plies "$PLIES" --out "$3" --threads "$2" 2>&1 >/dev/null | tail -1)
    t1=$(now)
    plays=$(sed -n 's/.*games, \([0-9]*\) plays.*/\1/p' <<<"$line")
    [[ -n $plays ]] || die "no summary from recount: $line"
    echo "$plays $(elapsed "$t0" "$t1")"
}

# One run first, so that the bearoff tables are kept as after any first
# run (docs/usage.md, "Files kept between runs"); its time is not counted.
"$BIN" "$TMP/in/m0001.txt" --plays --out "$TMP/out-warm" --quiet >/dev/null 2>&1 ||
    die "recount failed on $TMP/in/m0001.txt"

# gnubg's evaluation cache: off at 0-ply (its faster setting there, as
# the oracle runs it), on at 2-ply (as its users run it).
CACHE=off GNUBG_CACHE=
[[ $PLIES == 0 ]] || CACHE=on GNUBG_CACHE=default

# gnubg's analysis of the sample -> "plays seconds"
gnubg() {
    # shellcheck disable=SC2046
    OUT="$TMP/gnubg" PLIES=$PLIES GNUBG_CACHE=$GNUBG_CACHE "$PY" scripts/gnubg_play_oracle.py $(find "$TMP/in" -type f | sort) 2>/dev/null ||
        die "scripts/gnubg_play_oracle.py failed"
    cat "$TMP/gnubg/analyse-time.txt"
}

mkdir -p "$TMP/gnubg"
A2=() A1=() H2=() H1=() G=()
for ((round = 1; round <= ROUNDS; round++)); do
    echo "== round $round of $ROUNDS: recount at $PLIES-ply (2 threads, 1 thread), gnubg analyse match (1 core)"
    if [[ $PLIES == 0 ]]; then
        read -r P S < <(run "$TMP/archive" 2 "$TMP/out-archive"); A2+=("$S")
        read -r _ S < <(run "$TMP/archive" 1 "$TMP/out-archive"); A1+=("$S")
        echo "all $N_ALL matches, $P plays: -j2 $(rate "$P" "${A2[-1]}"), -j1 $(rate "$P" "${A1[-1]}") plays/s"
    fi
    read -r HP S < <(run "$TMP/in" 2 "$TMP/out-2"); H2+=("$S")
    read -r _ S < <(run "$TMP/in" 1 "$TMP/out-1"); H1+=("$S")
    read -r GP S < <(gnubg); G+=("$S")
    echo "the $N held-out matches, $HP plays (start-up included): -j2 $(rate "$HP" "${H2[-1]}"), -j1 $(rate "$HP" "${H1[-1]}") plays/s; gnubg $(rate "$GP" "${G[-1]}") plays/s"
done
GS=$(median "${G[@]}") HS2=$(median "${H2[@]}") HS1=$(median "${H1[@]}")
if [[ $PLIES == 0 ]]; then
    S2=$(median "${A2[@]}") S1=$(median "${A1[@]}")
    echo "== medians: recount on all $N_ALL matches: -j2 $P plays in $S2 s: $(rate "$P" "$S2") plays/s, -j1 $(rate "$P" "$S1") plays/s"
else
    P=$HP S2=$HS2 S1=$HS1
fi
echo "== medians: recount on the $N held-out matches: -j2 $HP plays in $HS2 s: $(rate "$HP" "$HS2") plays/s, -j1 $(rate "$HP" "$HS1") plays/s"
echo "gnubg, $PLIES-ply, 1 core, cache $CACHE: $GP plays in $GS s: $(rate "$GP" "$GS") plays/s"
echo "ratio recount -j2 / gnubg: $(rate_ratio "$P" "$S2" "$GP" "$GS")"
echo "ratio recount -j1 / gnubg: $(rate_ratio "$P" "$S1" "$GP" "$GS")"
if [[ $PLIES == 0 ]]; then
    echo "ratio on the held-out sample alone, start-up included: -j2 $(rate_ratio "$HP" "$HS2" "$GP" "$GS"), -j1 $(rate_ratio "$HP" "$HS1" "$GP" "$GS")"
fi

echo "== recount's plays against gnubg's (held-out)"
# The oracle names files by the path it was given; recount by its input.
SUFFIX=
TOL=1e-5
[[ $PLIES == 0 ]] || { SUFFIX=-${PLIES}ply; TOL=1e-4; }
TOL=$TOL python3 scripts/compare_plays.py "$TMP/gnubg/bg-plays$SUFFIX.csv" "$TMP/out-2"
