#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Throughput benchmark: recount vs. the Python library sgfmill.
#
#   bash scripts/bench.sh
#
# 1. builds target/release/recount (cargo build --release);
# 2. lays out >= 200,000 Go games without copying data: a temp dir of symlinks
#    to the shared KGS archives, ROUNDS times over (15 x 15,501 = 232,515 games
#    with the six archives of 2001-2003 and 2017);
# 3. times recount on it with --threads 2 and --threads 1 (--no-scores: parse,
#    replay, area score, the peer's work), then once with scoring
#    (--dead-stones none) and the dead-stone estimator on one archive copy,
#    with --votes $VOTES (3, the default: a vote where the first estimate
#    contests a stone) and with --votes 1 (one estimate), and the estimator's
#    peer, GNU Go 3.8's final_score (dead stones and the count, as the
#    estimator does) on a sample of the same scored games, two at a time
#    (scripts/gnugo_final_score.py; apt-get install gnugo if missing): the
#    three in turn ESTIMATE_RUNS times, each rate from its median wall time;
# 4. times sgfmill (scripts/bench_sgfmill.py, one process, one core) on one
#    archive, in a venv at .venv-bench/ that this script creates;
# 5. prints games/s and the ratios.
#
# Environment:
#   RECOUNT_DATA=DIR   folder holding kgs-*.tar.gz   (default ../shared/data/go)
#   ROUNDS=N           repetitions of the archive set (default 15)
#   THREADS="2 1"      recount --threads values to run, first one is the headline
#   SKIP_PEER=1        do not run sgfmill
#   PEER_ALL=1         run sgfmill on every archive once (not just the 2001 one)
#   PEER_ARCHIVE=NAME  archive (file name in RECOUNT_DATA) for sgfmill
#                      (default kgs-2001-19-2298.tar.gz)
#   VENV=DIR           venv for sgfmill (default .venv-bench)
#   VOTES=N            time the estimator with --votes N besides --votes 1
#                      (default 3, recount's default; 0 or 1 skips that run)
#   ESTIMATE_RUNS=N    rounds of the estimator's two settings and GNU Go, in
#                      turn (default 3); the rates come from the median wall
#                      times
#   GNUGO_GAMES=N      scored games of PEER_ARCHIVE for GNU Go (default 40;
#                      0 skips GNU Go, as does SKIP_ESTIMATE=1)
#   KEEP_TMP=1         keep the temp dir (inputs and CSV reports) and print it
#   RECOUNT_BIN=PATH   time this recount binary and skip the cargo build
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

DATA=${RECOUNT_DATA:-../shared/data/go}
ROUNDS=${ROUNDS:-15}
THREADS=${THREADS:-"2 1"}
SKIP_PEER=${SKIP_PEER:-0}
PEER_ALL=${PEER_ALL:-0}
PEER_ARCHIVE=${PEER_ARCHIVE:-kgs-2001-19-2298.tar.gz}
VENV=${VENV:-.venv-bench}
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}

BENCH_NAME=bench.sh
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

# CSV data rows (header excluded). CSV-aware when python3 is there, so quoted
# newlines inside a field do not inflate the count; else wc -l minus 1.
csv_rows() {
    local f=$1
    if [[ ! -s $f ]]; then echo 0; return; fi
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8", errors="replace") as f:
    n = sum(1 for _ in csv.reader(f))
print(max(n - 1, 0))' "$f"
    else
        echo $(( $(wc -l < "$f") - 1 ))
    fi
}

[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"

# ---- data -----------------------------------------------------------------
shopt -s nullglob
ARCHIVES=()
if [[ -d $DATA ]]; then
    DATA=$(cd "$DATA" && pwd -P)           # absolute: symlinks live in /tmp
    ARCHIVES=("$DATA"/kgs-*.tar.gz)
fi
shopt -u nullglob
if (( ${#ARCHIVES[@]} == 0 )); then
    die "benchmarks need ../shared/data/go/kgs-*.tar.gz; set RECOUNT_DATA (looked in '${RECOUNT_DATA:-../shared/data/go}')"
fi

# Games per archive from the file name (kgs-2001-19-2298.tar.gz -> 2298), if it says.
PER_ROUND=0
for a in "${ARCHIVES[@]}"; do
    if [[ $(basename "$a") =~ -([0-9]+)\.tar\.gz$ ]]; then
        PER_ROUND=$(( PER_ROUND + BASH_REMATCH[1] ))
    else
        PER_ROUND=-1; break
    fi
done

# ---- build ----------------------------------------------------------------
if [[ -n ${RECOUNT_BIN:-} ]]; then
    echo "== using RECOUNT_BIN=$BIN (no cargo build)"
    [[ -x $BIN ]] || die "RECOUNT_BIN=$BIN is not an executable file"
else
    echo "== cargo build --release"
    cargo build --release
    [[ -x $BIN ]] || die "cargo build succeeded but $BIN is missing"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-bench.XXXXXX")
cleanup() {
    if [[ ${KEEP_TMP:-0} == 1 ]]; then
        echo "bench.sh: kept $TMP"
    else
        rm -rf "$TMP"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$TMP/in"
for (( r = 1; r <= ROUNDS; r++ )); do
    for a in "${ARCHIVES[@]}"; do
        ln -s "$a" "$TMP/in/$(printf 'copy-%02d' "$r")-$(basename "$a")"
    done
done
NLINKS=$(find "$TMP/in" -maxdepth 1 -type l | wc -l)
# Warm the page cache so the first timed run does not pay for disk reads.
cat "${ARCHIVES[@]}" > /dev/null

echo
echo "== machine: $(nproc) cores, $(uname -sm); $(rustc --version 2>/dev/null || echo 'rustc ?')"
if REV=$(git rev-parse --short HEAD 2>/dev/null); then
    git diff --quiet HEAD -- src Cargo.toml Cargo.lock 2>/dev/null || REV="$REV + local changes"
else
    REV="(no commit yet)"
fi
echo "== recount $REV: $BIN"
echo "== input: $NLINKS archive links (${#ARCHIVES[@]} archives x $ROUNDS rounds) in $TMP/in"
if (( PER_ROUND > 0 )); then
    EXPECTED=$(( PER_ROUND * ROUNDS ))
    echo "   expected games (from file names): $EXPECTED"
else
    EXPECTED=
fi

# ---- recount --------------------------------------------------------------
declare -A R_GAMES R_SECS R_RATE R_ERRS
HAVE_TIME=0
[[ -x /usr/bin/time ]] && HAVE_TIME=1

for t in $THREADS; do
    [[ $t =~ ^[1-9][0-9]*$ ]] || die "THREADS entries must be positive integers (got '$t')"
    out="$TMP/out-t$t"
    echo
    echo "== recount --threads $t"
    # The same work as the sgfmill peer: parse, replay, area score
    # (Tromp-Taylor, in go_games.csv). Scoring is timed on its own below.
    cmd=("$BIN" "$TMP/in" --out "$out" --quiet --threads "$t" --no-scores)
    echo "   ${cmd[*]}"
    rc=0
    t0=$(now)
    if (( HAVE_TIME )); then
        /usr/bin/time -f '%e %M' -o "$TMP/time-t$t" "${cmd[@]}" || rc=$?
    else
        "${cmd[@]}" || rc=$?
    fi
    t1=$(now)
    [[ -f $out/go_games.csv ]] || die "recount (rc=$rc) wrote no $out/go_games.csv"
    (( rc == 0 )) || echo "   warning: recount exited with status $rc (report written, timing kept)"
    secs=$(elapsed "$t0" "$t1")
    games=$(csv_rows "$out/go_games.csv")
    errs=$(csv_rows "$out/errors.csv")
    R_GAMES[$t]=$games R_SECS[$t]=$secs R_ERRS[$t]=$errs R_RATE[$t]=$(rate "$games" "$secs")
    lines=$(( $(wc -l < "$out/go_games.csv") - 1 ))
    echo "   go_games.csv rows: $games   errors.csv rows: $errs   wall: $secs s"
    (( lines == games )) || echo "   warning: go_games.csv has $lines lines but $games CSV records (multi-line records)"
    if (( HAVE_TIME )) && [[ -s $TMP/time-t$t ]]; then
        read -r _ maxkb < <(tail -n 1 "$TMP/time-t$t") || true
        [[ -n ${maxkb:-} ]] && echo "   max RSS: $(( maxkb / 1024 )) MiB"
    fi
    if [[ -n $EXPECTED ]] && (( games + errs < EXPECTED )); then
        echo "   warning: games + errors = $(( games + errs )) < $EXPECTED expected"
    fi
done

# ---- scoring without estimation ----------------------------------------------
# The whole pipeline with go_scores.csv (settle, seven interpretations, audit)
# but no stone taken off: on the same input, 2 threads.
S_GAMES= S_SECS= S_RATE=
if [[ ${SKIP_SCORING:-0} != 1 ]]; then
    echo
    echo "== recount --dead-stones none (scoring, 2 threads)"
    t0=$(now)
    "$BIN" "$TMP/in" --out "$TMP/out-scoring" --quiet --threads 2 --dead-stones none
    t1=$(now)
    S_SECS=$(elapsed "$t0" "$t1")
    S_GAMES=$(csv_rows "$TMP/out-scoring/go_scores.csv")
    S_RATE=$(rate "$S_GAMES" "$S_SECS")
    echo "   go_scores.csv rows: $S_GAMES   wall: $S_SECS s"
fi

# ---- dead-stone estimator and GNU Go, its peer ------------------------------
# Scoring with estimated dead stones, on one copy of each archive (2 threads):
# games whose dead stones were estimated, per second of the whole run.
# With --votes 1 (one estimate per game) and, with VOTES=N > 1 (default 3,
# recount's default), with --votes N: up to N independent estimates vote on
# the count where the first contests a stone (README, Dead stones).
# The peer is GNU Go 3.8's final_score, which decides the dead stones and
# counts, the estimator's job: GNUGO_GAMES scored games of PEER_ARCHIVE,
# evenly spaced, two GNU Go processes at a time (2 cores, as the
# estimator); games per second of the whole run, failed games (timeouts)
# included in the time but not the count.
# The three are run in turn ESTIMATE_RUNS times (default 3): each rate
# comes from its median wall time, and each round's ratios are printed.
# This machine's pace drifts by a quarter within the hour, and runs in turn
# see the same drift.
# estimate VOTES: runs --votes VOTES once; sets E_GAMES and E_SECS.
estimate() {
    local out="$TMP/out-estimate-$1" t0 t1
    t0=$(now)
    "$BIN" "$DATA"/kgs-*.tar.gz --out "$out" --quiet --threads 2 --dead-stones estimate --votes "$1"
    t1=$(now)
    E_SECS=$(elapsed "$t0" "$t1")
    E_GAMES=$(python3 -c 'import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")) if r["dead_source"] == "estimate"))' "$out/go_scores.csv")
    echo "   --votes $1: games with estimated dead stones: $E_GAMES   wall: $E_SECS s"
}
# gnugo: GNU Go's final_score on the sample once; sets G_GAMES, G_FAILED
# and G_SECS.
gnugo() {
    local t0 t1
    t0=$(now)
    python3 scripts/gnugo_final_score.py --only-scored --sample "$GNUGO_GAMES" --jobs 2 \
        --quiet --out "$TMP/gnugo.csv" "$DATA/$PEER_ARCHIVE"
    t1=$(now)
    G_SECS=$(elapsed "$t0" "$t1")
    read -r G_GAMES G_FAILED < <(python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
failed = sum(1 for r in rows if r["error"])
print(len(rows) - failed, failed)' "$TMP/gnugo.csv")
    echo "   GNU Go: games scored: $G_GAMES   failed: $G_FAILED   wall: $G_SECS s"
}
VOTES=${VOTES:-3}
[[ $VOTES =~ ^[0-9]+$ ]] || die "VOTES must be a number (got '$VOTES')"
ESTIMATE_RUNS=${ESTIMATE_RUNS:-3}
[[ $ESTIMATE_RUNS =~ ^[1-9][0-9]*$ ]] || die "ESTIMATE_RUNS must be a positive integer (got '$ESTIMATE_RUNS')"
GNUGO_GAMES=${GNUGO_GAMES:-40}
[[ $GNUGO_GAMES =~ ^[0-9]+$ ]] || die "GNUGO_GAMES must be a number (got '$GNUGO_GAMES')"
have_gnugo() { command -v gnugo >/dev/null 2>&1 || [[ -x /usr/games/gnugo || -n ${GNUGO:-} ]]; }
E_GAMES= E_SECS= E_RATE= V_GAMES= V_SECS= V_RATE= V_ALL=() E_ALL=()
G_GAMES= G_SECS= G_RATE= G_FAILED= G_ALL=() ROUND_RATIOS=()
if [[ ${SKIP_ESTIMATE:-0} != 1 ]]; then
    RUN_GNUGO=0
    if (( GNUGO_GAMES > 0 )); then
        if ! have_gnugo; then
            echo "   installing GNU Go (apt-get install -y gnugo)"
            apt-get install -y gnugo >/dev/null 2>&1 \
                || { apt-get update >/dev/null 2>&1 && apt-get install -y gnugo >/dev/null 2>&1; } \
                || echo "   cannot install gnugo: GNU Go skipped"
        fi
        if have_gnugo; then
            [[ -f $DATA/$PEER_ARCHIVE ]] || die "archive $DATA/$PEER_ARCHIVE not found (set PEER_ARCHIVE)"
            RUN_GNUGO=1
        fi
    fi
    echo
    echo "== recount --dead-stones estimate (one copy of each archive, 2 threads)$( ((RUN_GNUGO)) && echo " and GNU Go final_score ($GNUGO_GAMES scored games of $PEER_ARCHIVE, 2 at a time)"), $ESTIMATE_RUNS rounds in turn"
    for (( r = 1; r <= ESTIMATE_RUNS; r++ )); do
        if (( VOTES > 1 )); then
            estimate "$VOTES"
            V_GAMES=$E_GAMES V_ALL+=("$E_SECS")
        fi
        estimate 1
        E_ALL+=("$E_SECS")
        if (( RUN_GNUGO )); then
            gnugo
            G_ALL+=("$G_SECS")
            head=${V_ALL[-1]:-$E_SECS}
            ROUND_RATIOS+=("$(rate_ratio "${V_GAMES:-$E_GAMES}" "$head" "$G_GAMES" "$G_SECS")")
        fi
    done
    E_SECS=$(median "${E_ALL[@]}")
    E_RATE=$(rate "$E_GAMES" "$E_SECS")
    if (( VOTES > 1 )); then
        V_SECS=$(median "${V_ALL[@]}")
        V_RATE=$(rate "$V_GAMES" "$V_SECS")
    fi
    if (( RUN_GNUGO )); then
        G_SECS=$(median "${G_ALL[@]}")
        G_RATE=$(awk -v g="$G_GAMES" -v s="$G_SECS" 'BEGIN { if (s > 0) printf "%.2f", g / s; else print 0 }')
    fi
fi

# ---- sgfmill ----------------------------------------------------------------
P_GAMES= P_SECS= P_RATE=
if [[ $SKIP_PEER == 1 ]]; then
    echo
    echo "== sgfmill: skipped (SKIP_PEER=1)"
else
    echo
    echo "== sgfmill (Python, one process)"
    if [[ ! -x $VENV/bin/python ]]; then
        echo "   creating venv $VENV"
        python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    fi
    # keep the venv out of git even without a .gitignore entry
    [[ -e $VENV/.gitignore ]] || echo '*' > "$VENV/.gitignore"
    if ! "$VENV/bin/python" -c 'import sgfmill' 2>/dev/null; then
        echo "   pip install -r scripts/requirements-bench.txt"
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
            -r scripts/requirements-bench.txt
    fi
    if [[ $PEER_ALL == 1 ]]; then
        PEER_IN=("${ARCHIVES[@]}")
    else
        [[ -f $DATA/$PEER_ARCHIVE ]] || die "peer archive $DATA/$PEER_ARCHIVE not found (set PEER_ARCHIVE)"
        PEER_IN=("$DATA/$PEER_ARCHIVE")
    fi
    PIN=()
    command -v taskset >/dev/null 2>&1 && PIN=(taskset -c 0)
    echo "   ${PIN[*]:+${PIN[*]} }$VENV/bin/python scripts/bench_sgfmill.py ${PEER_IN[*]##*/}"
    t0=$(now)
    "${PIN[@]}" "$VENV/bin/python" scripts/bench_sgfmill.py "${PEER_IN[@]}" > "$TMP/sgfmill.txt"
    t1=$(now)
    sed 's/^/   /' "$TMP/sgfmill.txt"
    result=$(grep '^RESULT ' "$TMP/sgfmill.txt" | tail -n 1)
    [[ -n $result ]] || die "bench_sgfmill.py printed no RESULT line"
    P_GAMES=$(sed -n 's/.* games=\([0-9]*\).*/\1/p' <<< "$result")
    # Wall time of the whole process (interpreter start-up included), like recount's.
    P_SECS=$(elapsed "$t0" "$t1")
    P_RATE=$(rate "$P_GAMES" "$P_SECS")
fi

# ---- summary ----------------------------------------------------------------
echo
echo "================ summary ================"
for t in $THREADS; do
    label="recount ($t thread$([[ $t == 1 ]] || echo s)):"
    printf '%-22s %7d games in %6.2f s = %6d games/s  (%d error rows)\n' \
        "$label" "${R_GAMES[$t]}" "${R_SECS[$t]}" "${R_RATE[$t]}" "${R_ERRS[$t]}"
done
if [[ -n $P_RATE ]]; then
    printf '%-22s %7d games in %6.2f s = %6d games/s\n' \
        "sgfmill (1 core):" "$P_GAMES" "$P_SECS" "$P_RATE"
fi
if [[ -n $S_RATE ]]; then
    printf '%-22s %7d games in %6.2f s = %6d games/s  (with go_scores.csv, no dead stones)\n' \
        "scoring (2 threads):" "$S_GAMES" "$S_SECS" "$S_RATE"
fi
if [[ -n $V_RATE ]]; then
    printf '%-22s %7d games in %6.2f s = %6d games/s  (dead stones estimated, --votes %d; median of %s s)\n' \
        "estimator (2 threads):" "$V_GAMES" "$V_SECS" "$V_RATE" "$VOTES" "${V_ALL[*]}"
fi
if [[ -n $E_RATE ]]; then
    printf '%-22s %7d games in %6.2f s = %6d games/s  (dead stones estimated, --votes 1; median of %s s)\n' \
        "one estimate:" "$E_GAMES" "$E_SECS" "$E_RATE" "${E_ALL[*]}"
fi
if [[ -n $G_RATE ]]; then
    printf '%-22s %7d games in %6.2f s = %9.2f games/s  (final_score, %d failed; median of %s s)\n' \
        "GNU Go (2 processes):" "$G_GAMES" "$G_SECS" "$G_RATE" "$G_FAILED" "${G_ALL[*]}"
fi
set -- $THREADS
if (( $# >= 2 )); then
    echo "scaling recount($1 threads)/recount($2 thread$([[ $2 == 1 ]] || echo s)): $(ratio "${R_RATE[$1]}" "${R_RATE[$2]}")"
fi
if [[ -n $V_RATE ]]; then
    if [[ -n $G_RATE ]]; then
        echo "ratio estimator (--votes $VOTES)/GNU Go final_score: $(rate_ratio "$V_GAMES" "$V_SECS" "$G_GAMES" "$G_SECS") (rounds: ${ROUND_RATIOS[*]})"
    fi
    echo "ratio estimator (--votes $VOTES)/one estimate: $(ratio "$V_RATE" "$E_RATE")"
fi
if [[ -n $E_RATE && -n $G_RATE ]]; then
    echo "ratio one estimate/GNU Go final_score: $(rate_ratio "$E_GAMES" "$E_SECS" "$G_GAMES" "$G_SECS")"
fi
if [[ -n $P_RATE ]]; then
    for t in $THREADS; do
        echo "ratio recount($t thread$([[ $t == 1 ]] || echo s))/sgfmill: $(ratio "${R_RATE[$t]}" "$P_RATE")"
    done
fi
