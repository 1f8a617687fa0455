#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs two recount binaries on the same inputs with the same options and
# compares every report they write, byte for byte: the check that a change
# meant to keep the reports (a refactor, a speed-up) keeps them.
#
#   bash scripts/compare-reports.sh OLD_BINARY NEW_BINARY
#
# Inputs: the bundled fixtures, and ../shared/data when it is there (the KGS
# archives, GNU Go's regression games, clamshell-kgs, the real backgammon
# matches and the charlot exports). Each input set runs with the options
# that exercise most of its reports (zones, --agrees-if, --positions,
# --all-cube-decisions, --check-sgf).
#
# Environment:
#   SHARED=DIR        the shared data (default ../shared/data)
#   RENAMES="a=b …"   report columns or values renamed on purpose: each
#                     old=new pair is applied to the old binary's reports
#                     before comparing (sed, whole words)
#   KEEP=1            keep the output folders (printed) for a closer look
#
# Exit status: 0 when every report is identical, 1 otherwise.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ $# -eq 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
OLD=$(realpath "$1")
NEW=$(realpath "$2")
SHARED=${SHARED:-../shared/data}
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT

# name | options | inputs
sets=("fixtures|--zones-from-end 10 --agrees-if --check-sgf --positions --all-cube-decisions|fixtures")
if [ -d "$SHARED" ]; then
    sets+=(
        "kgs|--agrees-if|$SHARED/go/kgs-2001-19-2298.tar.gz $SHARED/go/kgs-2002-19-3646.tar.gz $SHARED/go/kgs-2003-19-7582.tar.gz"
        "kgs-2017|--agrees-if --zones-from-end 20|$SHARED/go/kgs-2017_01-19-733.tar.gz $SHARED/go/kgs-2017_02-19-525.tar.gz $SHARED/go/kgs-2017_03-19-717.tar.gz"
        "gnugo|--zones-from-end 4 --check-sgf|$SHARED/go/gnugo-regression $SHARED/go/clamshell-kgs"
        "bg|--positions --all-cube-decisions|$SHARED/bg"
    )
fi

status=0
for s in "${sets[@]}"; do
    IFS='|' read -r name opts inputs <<<"$s"
    for side in old new; do
        bin=$OLD; [ $side = new ] && bin=$NEW
        # shellcheck disable=SC2086
        "$bin" $inputs $opts --quiet --out "$WORK/$name-$side" 2>"$WORK/$name-$side.stderr"
        echo "$?" >"$WORK/$name-$side.rc"
    done
    if [ -n "${RENAMES:-}" ]; then
        for pair in $RENAMES; do
            sed -i "s/\b${pair%%=*}\b/${pair#*=}/g" "$WORK/$name-old"/*.csv
        done
    fi
    if ! cmp -s "$WORK/$name-old.rc" "$WORK/$name-new.rc"; then
        echo "$name: exit status $(cat "$WORK/$name-old.rc") against $(cat "$WORK/$name-new.rc")"
        status=1
    fi
    for f in "$WORK/$name-old"/*.csv; do
        b=$(basename "$f")
        if cmp -s "$f" "$WORK/$name-new/$b"; then
            echo "$name: $b identical ($(wc -l <"$f") lines)"
        else
            echo "$name: $b DIFFERS"
            diff <(head -c 2000000 "$f") <(head -c 2000000 "$WORK/$name-new/$b") | head -5
            status=1
        fi
    done
    extra=$(comm -13 <(ls "$WORK/$name-old") <(ls "$WORK/$name-new") | tr '\n' ' ')
    [ -z "$extra" ] || echo "$name: only the new binary writes $extra"
done
[ -z "${KEEP:-}" ] || echo "outputs kept in $WORK"
exit $status
