#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One RDD.pipe task of recount_spark.py --pipe: the paths on stdin (one a
# line) read by the recount binary into a temporary directory, then every
# report's rows printed as `report,row` lines (CSV rows are one line each:
# recount writes names and reasons on one line), and the task's part (what
# the run's totals are made of) as `_part_KIND,TAG,TEXT` lines: its files
# (`name`), its shard.json on one line (`meta`), the header and the lines
# with players of its shard_units.csv (`units`). TAG, a hash of the paths,
# tells the tasks' parts apart.
#
#   bash pipe_task.sh RECOUNT [OPTION...] < paths
set -euo pipefail
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/paths"
"$bin" -q --no-html --shard 1/1 --out "$tmp/out" "$@" - < "$tmp/paths"
for f in "$tmp"/out/*.csv; do
    name=$(basename "$f" .csv)
    [ "$name" = shard_units ] && continue
    tail -n +2 "$f" | sed "s/^/$name,/"
done
tag=$(sha256sum < "$tmp/paths" | cut -c1-16)
sed "/^\$/d; s/^/_part_name,$tag,/" "$tmp/paths"
printf '_part_meta,%s,%s\n' "$tag" "$(tr -d '\n' < "$tmp/out/shard.json")"
# The header, then the units whose last cell (players) is not empty.
awk -v tag="$tag" 'NR == 1 || !/,$/ { print "_part_units," tag "," $0 }' "$tmp/out/shard_units.csv"
