#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Soak test of a whole run (not run by CI): a large corpus, a memory
# ceiling, runs interrupted at random by SIGINT or SIGKILL and restarted
# into the same --out. Checks that
#   * every run that completes writes reports byte-identical to a clean run's;
#   * an interrupted run leaves either no reports (none were there yet) or
#     the previous complete ones, never a report that looks complete and
#     is not, and no temporary directory survives the next run;
# and prints the records read, the peak RSS, the interruptions survived and
# the rows lost (0 when all is well).
#
#   bash scripts/soak.sh
#
# Environment:
#   SHARED=DIR     the shared data (default ../shared/data): go/*.tar.gz and
#                  bg/real-matches-dev.tar.gz
#   RECORDS=N      about how many records the corpus holds (default 1000000)
#   ROUNDS=N       interrupted runs (default 8)
#   OPTS="…"       recount's options (default --no-scores: replay-only, so a
#                  million records take minutes, not hours)
#   MEM_KIB=N      ulimit -v for each run (default 1048576: 1 GiB)
#   KEEP=1         keep the work folder (printed)
#
# Exit status: 0 when every check held, 1 otherwise.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SHARED=${SHARED:-../shared/data}
RECORDS=${RECORDS:-1000000}
ROUNDS=${ROUNDS:-8}
OPTS=${OPTS:---no-scores}
MEM_KIB=${MEM_KIB:-1048576}
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT

cargo build --release --quiet || exit 1
BIN=$(realpath target/release/recount)
status=0
fail() { echo "FAIL: $*"; status=1; }

# One copy of the inputs: the shared archives and some malformed files.
one=$WORK/one
mkdir -p "$one"
for f in "$SHARED"/go/*.tar.gz "$SHARED"/bg/real-matches-dev.tar.gz; do
    [ -f "$f" ] && cp "$f" "$one/"
done
[ -n "$(ls "$one")" ] || { echo "no archives under $SHARED" >&2; exit 2; }
printf '(;GM[1]SZ[19];B[pd];W[dp' >"$one/unclosed.sgf"
printf '(;GM[1]SZ[99];B[zz])' >"$one/bad-size.sgf"
printf '(;GM[1]SZ[19]PB[%s];B[pd])' "$(head -c 200000 /dev/zero | tr '\0' x)" >"$one/huge-name.sgf"
: >"$one/empty.sgf"
head -c 3000 /dev/urandom >"$one/noise.sgf"
printf ' 7 point match\n\n Game 1\n a : 0   b : 0\n  1) 99: 1/2\n' >"$one/bad.mat"
head -c 100000 "$SHARED/go/kgs-2001-19-2298.tar.gz" >"$one/cut.tar.gz" 2>/dev/null
printf 'not gzip at all' >"$one/fake.sgf.gz"

# Records in one copy: Go games, error rows and match files.
"$BIN" "$one" $OPTS -j 2 --out "$WORK/probe" 2>"$WORK/probe.stderr" >/dev/null
per=$(( $(wc -l <"$WORK/probe/go_games.csv") - 1 + $(wc -l <"$WORK/probe/errors.csv") - 1 ))
per=$(( per + $(grep -o '[0-9]* matches' "$WORK/probe.stderr" | grep -o '[0-9]*' || echo 0) ))
[ "$per" -gt 0 ] || { echo "the probe run read nothing" >&2; exit 2; }
copies=$(( (RECORDS + per - 1) / per ))
mkdir -p "$WORK/corpus"
for i in $(seq 1 "$copies"); do
    mkdir "$WORK/corpus/copy-$i"
    ln "$one"/* "$WORK/corpus/copy-$i/" 2>/dev/null || cp "$one"/* "$WORK/corpus/copy-$i/"
done
records=$(( per * copies ))
echo "corpus: $copies copies of $per records = $records records"

# Runs recount under the memory ceiling into OUT; its pid goes to
# $WORK/pid. TIMED=1: under /usr/bin/time -v when present (the clean run
# only: time would keep SIGINT from recount).
start_run() { # OUT [TIMED]
    (
        ulimit -v "$MEM_KIB"
        if [ -n "${2:-}" ] && [ -x /usr/bin/time ]; then
            exec /usr/bin/time -v -o "$WORK/time" "$BIN" "$WORK/corpus" $OPTS -j 2 --quiet --out "$1"
        else
            exec "$BIN" "$WORK/corpus" $OPTS -j 2 --quiet --out "$1"
        fi
    ) 2>"$WORK/run.stderr" &
    echo $! >"$WORK/pid"
}

# The clean run.
t0=$(date +%s.%N)
start_run "$WORK/clean" timed
pid=$(cat "$WORK/pid")
peak=0
while kill -0 "$pid" 2>/dev/null; do
    # Without /usr/bin/time: the high-water mark of recount itself.
    for p in "$pid" $(pgrep -P "$pid" 2>/dev/null); do
        hwm=$(awk '/VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || true)
        [ -n "$hwm" ] && [ "$hwm" -gt "$peak" ] && peak=$hwm
    done
    sleep 0.2
done
wait "$pid"; rc=$?
t1=$(date +%s.%N)
[ "$rc" -eq 0 ] || { cat "$WORK/run.stderr"; echo "the clean run failed ($rc)" >&2; exit 1; }
if [ -f "$WORK/time" ]; then
    peak=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time")
fi
secs=$(echo "$t1 - $t0" | bc)
echo "clean run: $secs s, peak RSS $peak KiB"

# Lines of the clean reports missing from OUT's (0 when identical).
lost_rows() {
    local n=0 f
    for f in "$WORK/clean"/*.csv; do
        b=$(basename "$f")
        if [ -f "$1/$b" ]; then
            cmp -s "$f" "$1/$b" || n=$(( n + $(comm -23 <(sort "$f") <(sort "$1/$b") | wc -l) ))
        fi
    done
    echo "$n"
}

out=$WORK/soak
survived=0 completed=0 lost=0 had_reports=0
for r in $(seq 1 "$ROUNDS"); do
    start_run "$out"
    pid=$(cat "$WORK/pid")
    sig=INT; [ $((RANDOM % 2)) -eq 0 ] && sig=KILL
    # Somewhere within the clean run's time (some runs may complete).
    pct=$((RANDOM % 110))
    delay=$(echo "scale=2; $secs * $pct / 100" | bc)
    sleep "$delay"
    kill -"$sig" "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null; rc=$?
    case $rc in
        0) completed=$((completed + 1)); had_reports=1; what="completed" ;;
        130|137) survived=$((survived + 1)); what="SIG$sig after $delay s" ;;
        *) fail "round $r: exit status $rc"; cat "$WORK/run.stderr"; what="status $rc" ;;
    esac
    csvs=$(ls "$out"/*.csv 2>/dev/null | wc -l)
    if [ "$csvs" -eq 0 ]; then
        [ "$had_reports" -eq 0 ] || fail "round $r ($what): the reports are gone"
    else
        n=$(lost_rows "$out")
        lost=$((lost + n))
        want=$(ls "$WORK/clean"/*.csv | wc -l)
        [ "$csvs" -eq "$want" ] || fail "round $r ($what): $csvs reports, not $want"
        for f in "$WORK/clean"/*.csv; do
            cmp -s "$f" "$out/$(basename "$f")" || fail "round $r ($what): $(basename "$f") differs from the clean run's"
        done
        had_reports=1
    fi
    echo "round $r: $what; reports: $csvs files, identical to the clean run's: $([ "$csvs" -eq 0 ] || [ "$(lost_rows "$out")" -eq 0 ] && echo yes || echo no)"
done

# A last run to completion: identical, and nothing left behind.
start_run "$out"
wait "$(cat "$WORK/pid")" || fail "the last run failed"
for f in "$WORK/clean"/*.csv; do
    cmp -s "$f" "$out/$(basename "$f")" || fail "last run: $(basename "$f") differs"
done
ls -a "$out" | grep -q '^\.recount-tmp-' && fail "a temporary directory was left in --out"
lost=$((lost + $(lost_rows "$out")))

echo "records: $records"
echo "peak RSS: $peak KiB (ulimit -v $MEM_KIB KiB)"
echo "interruptions survived: $survived of $ROUNDS rounds ($completed completed before the signal)"
echo "rows lost: $lost"
[ -z "${KEEP:-}" ] || echo "work folder kept: $WORK"
exit $status
