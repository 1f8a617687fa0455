#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Do the endgame zones add up? For finished games (RE with a score), the
# count K moves before the end plus the zones' mean values should come
# close to the game's final count.
#
#   bash scripts/zones-consistency.sh ARCHIVE_OR_DIR...
#   FROM_END="10 20" bash scripts/zones-consistency.sh ../shared/data/go/kgs-2001-19-2298.tar.gz
#
# 1. builds target/release/recount (cargo build --release);
# 2. for each K in FROM_END runs recount --zones-from-end K on the inputs;
# 3. keeps the games whose result_kind is score (ended by counting), and per
#    position the ones where every zone was solved;
# 4. prints, per K, the distribution of
#        final_count - (base_count + sum of the zones' mean_count)
#    (base_count: settled territory, dead stones in it and prisoners so
#    far), its mean, median and share within 0, 1, 2 and 5 points; the same
#    with sente zones counted at their sente follower (the traditional
#    count); and without the zones' values (base_count and territory-only
#    zones), to show what the searched zones account for.
#
# The final count is territory scoring without komi, dead stones from the
# game's markup else the estimator (recount --dead-stones auto).
#
# Environment:
#   FROM_END="10 20 30"  moves before the end (default "10 20")
#   RECOUNT_BIN=PATH     use this recount binary and skip the cargo build
#   ARGS="..."           extra recount flags (e.g. --zone-budget 100000)
#   KEEP_TMP=1           keep the temp dir
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: bash scripts/zones-consistency.sh ARCHIVE_OR_DIR..." >&2; exit 2; }
FROM_END=${FROM_END:-"10 20"}
BIN=${RECOUNT_BIN:-$PWD/target/release/recount}
if [ -z "${RECOUNT_BIN:-}" ]; then
    cargo build --release --quiet
fi
TMP=$(mktemp -d)
if [ "${KEEP_TMP:-0}" = 1 ]; then
    echo "temp dir: $TMP"
else
    trap 'rm -rf "$TMP"' EXIT
fi

for k in $FROM_END; do
    out="$TMP/k$k"
    # shellcheck disable=SC2086
    "$BIN" "$@" --zones-from-end "$k" -q -o "$out" ${ARGS:-}
    python3 - "$out" "$k" <<'EOF'
import csv, sys, statistics
from collections import Counter, defaultdict

out, k = sys.argv[1], sys.argv[2]
counted = set()
for r in csv.DictReader(open(f"{out}/go_games.csv", newline="")):
    if r["result_kind"] == "score":
        counted.add((r["source"], r["member"], r["game"]))
positions = defaultdict(list)
for r in csv.DictReader(open(f"{out}/go_zones.csv", newline="")):
    key = (r["source"], r["member"], r["game"])
    if key in counted:
        positions[key].append(r)

diffs, sente, without, incomplete = [], [], [], 0
zones = Counter()
for rows in positions.values():
    for r in rows:
        zones[r["status"]] += 1
    if any(r["status"] == "not_searched" for r in rows):
        incomplete += 1
        continue
    final, base = int(rows[0]["final_count"]), int(rows[0]["base_count"])
    means = [float(r["mean_count"]) for r in rows if r["mean_count"]]
    territory = [float(r["mean_count"]) for r in rows if r["status"] == "territory"]
    diffs.append(final - (base + sum(means)))
    # The traditional count takes a sente zone at its sente follower.
    follower = {"black_sente": "black_count", "white_sente": "white_count"}
    trad = [float(r[follower[r["zone_type"]]]) if r["zone_type"] in follower
            else float(r["mean_count"]) for r in rows if r["mean_count"]]
    sente.append(final - (base + sum(trad)))
    without.append(final - (base + sum(territory)))

print(f"\n== {k} moves before the end: {len(positions)} games ended by counting ==")
print(f"zones: " + ", ".join(f"{n} {s}" for s, n in sorted(zones.items())))
print(f"positions with every zone solved: {len(diffs)}; with a zone not searched: {incomplete}")
if not diffs:
    sys.exit(0)

def summary(name, d):
    a = [abs(x) for x in d]
    share = lambda t: 100.0 * sum(1 for x in a if x <= t) / len(a)
    print(f"{name}: mean {statistics.mean(d):+.2f}, median {statistics.median(d):+.1f}, "
          f"mean |diff| {statistics.mean(a):.2f}; within 0: {share(0):.1f}%, "
          f"1: {share(1):.1f}%, 2: {share(2):.1f}%, 5: {share(5):.1f}%")

summary("final - (count at move N + zones' mean values)", diffs)
summary("the same, sente zones at their sente follower  ", sente)
summary("final - (count at move N, territory zones only) ", without)
print("distribution of final - (count + zones), rounded:")
hist = Counter(round(x) for x in diffs)
width = max(hist.values())
for v in range(min(hist), max(hist) + 1):
    n = hist.get(v, 0)
    if n or -10 <= v <= 10:
        print(f"  {v:+4d} {n:6d} {'#' * max(1 if n else 0, round(50 * n / width))}")
EOF
done
