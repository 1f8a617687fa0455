#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One RDD.pipe task of recount_spark.py --pipe: the paths on stdin (one a
# line) read by the recount binary into a temporary directory, then every
# report's rows printed as `report,row` lines (CSV rows are one line each:
# recount writes names and reasons on one line).
#
#   bash pipe_task.sh RECOUNT [OPTION...] < paths
set -euo pipefail
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" -q --no-html --out "$tmp/out" "$@" -
for f in "$tmp"/out/*.csv; do
    name=$(basename "$f" .csv)
    tail -n +2 "$f" | sed "s/^/$name,/"
done
