#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Backgammon readers' throughput: the same matches as .mat, as eXtreme
# Gammon .xg, as FIBS oldmoves logs, as GamesGrid .sgg, as
# TrueMoneyGames .tmg logs and as BGBlitz .bgf, timed in one run.
#
#   bash scripts/bench-formats.sh
#
# 1. builds target/release/recount (unless RECOUNT_BIN is set);
# 2. unpacks the shared real-matches archive and writes each Backgammon
#    Galaxy match (match*.txt: one step per die, as FIBS and XG write
#    plays; Backgammon Studio's combined steps and `????` are left out)
#    again as .xg (scripts/xg_write.py), as an oldmoves log
#    (scripts/oldmoves_write.py), as .sgg (scripts/sgg_write.py), as
#    .tmg (scripts/tmg_write.py) and as .bgf (scripts/bgf_write.py: gzip,
#    SMILE);
# 3. times recount, games only (read, replay with full legality, audit),
#    --threads 2, on ROUNDS copies of each set, and prints matches/s per
#    format and each format's ratio to .mat.
#
# Environment:
#   RECOUNT_BG_DATA=FILE  the match archive (default ../shared/data/bg/real-matches-dev.tar.gz)
#   ROUNDS=N              copies of each set (default 20)
#   RECOUNT_BIN=PATH      time this binary, no cargo build
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

DATA=${RECOUNT_BG_DATA:-../shared/data/bg/real-matches-dev.tar.gz}
ROUNDS=${ROUNDS:-20}
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}

BENCH_NAME=bench-formats.sh
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

[[ -f $DATA ]] || die "needs the match archive $DATA; set RECOUNT_BG_DATA"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer (got '$ROUNDS')"

if [[ -z ${RECOUNT_BIN:-} ]]; then
    echo "== cargo build --release"
    cargo build --release
fi
[[ -x $BIN ]] || die "$BIN is not an executable file"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-bench-formats.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/one" "$TMP/mat" "$TMP/xg" "$TMP/fibs" "$TMP/sgg" "$TMP/tmg" "$TMP/bgf"
tar -xzf "$DATA" -C "$TMP/one"

echo "== writing the matches as .xg, oldmoves, .sgg and .tmg logs, and .bgf"
python3 - "$TMP" <<'EOF'
import glob, os, shutil, sys
sys.path.insert(0, "scripts")
import bgf_write, oldmoves_write, sgg_write, tmg_write, xg_write
tmp = sys.argv[1]
kept = left = 0
for f in sorted(glob.glob(os.path.join(tmp, "one", "**", "match*.txt"), recursive=True)):
    name = "m%04d" % kept
    try:
        xg_write.main([f, os.path.join(tmp, "xg", name + ".xg")])
        oldmoves_write.main(f, os.path.join(tmp, "fibs", name + ".fibs"))
        sgg_write.main(f, os.path.join(tmp, "sgg", name + ".sgg"))
        tmg_write.main(f, os.path.join(tmp, "tmg", name + ".tmg"))
        bgf_write.main([f, os.path.join(tmp, "bgf", name + ".bgf")])
    except Exception:
        left += 1
        for d, ext in (("xg", ".xg"), ("fibs", ".fibs"), ("sgg", ".sgg"), ("tmg", ".tmg"), ("bgf", ".bgf")):
            p = os.path.join(tmp, d, name + ext)
            if os.path.exists(p):
                os.remove(p)
        continue
    shutil.copy(f, os.path.join(tmp, "mat", name + ".mat"))
    kept += 1
print("%d matches written, %d left out" % (kept, left))
EOF

# run FORMAT -> "matches seconds" from the summary line, on ROUNDS copies.
run() {
    local fmt=$1 t0 t1 line m r
    mkdir -p "$TMP/in-$fmt"
    for (( r = 1; r <= ROUNDS; r++ )); do
        ln -s "$TMP/$fmt" "$TMP/in-$fmt/$(printf 'copy-%03d' "$r")"
    done
    t0=$(now)
    line=$("$BIN" "$TMP/in-$fmt" --out "$TMP/out-$fmt" --threads 2 2>&1 >/dev/null | tail -1)
    t1=$(now)
    m=$(sed -n 's/.*backgammon: \([0-9]*\) matches.*/\1/p' <<<"$line")
    [[ -n $m ]] || die "no summary from recount: $line"
    [[ $(wc -l < "$TMP/out-$fmt/errors.csv") == 1 ]] || die "$fmt: error rows in $TMP/out-$fmt/errors.csv"
    echo "$m $(elapsed "$t0" "$t1")"
}

echo "== recount (games only, -j2) on $ROUNDS copies of each set"
read -r MM MS < <(run mat)
echo ".mat:     $MM matches in $MS s: $(rate "$MM" "$MS") matches/s"
for fmt in xg fibs sgg tmg bgf; do
    read -r M S < <(run "$fmt")
    [[ $M == "$MM" ]] || die "$fmt: $M matches, .mat $MM"
    echo ".$fmt: $(printf '%*s' $(( 7 - ${#fmt} )) '')$M matches in $S s: $(rate "$M" "$S") matches/s ($(rate_ratio "$M" "$S" "$MM" "$MS") .mat's)"
done
