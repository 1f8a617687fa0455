#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Endgame-zone search benchmark: how long zones of real games take, the
# nodes per second, and what bounds the size that can be solved.
#
#   bash scripts/bench-zones.sh
#
# 1. builds target/release/recount (cargo build --release);
# 2. takes the first GAMES games (sorted by name) of a KGS archive;
# 3. runs recount --zones-from-end K --zone-timing on them, one thread;
# 4. runs it again without the formula of hope (--zone-no-hope: the same
#    alpha-beta search without its cuts), the peer of this benchmark;
# 5. prints, for the zones solved: mean/median/95th-percentile/max search
#    time of zones with up to 12 empty points (the bar: 10 ms on average),
#    the time by number of empty points, nodes per second, why zones were
#    not searched, and the speed-up over the peer on the zones both solved
#    (whose followers must agree: the cuts may not change a value).
#
# Environment:
#   RECOUNT_DATA=DIR   folder holding kgs-*.tar.gz (default ../shared/data/go)
#   ARCHIVE=NAME       archive (default kgs-2003-19-7582.tar.gz)
#   GAMES=N            games taken (default 300)
#   FROM_END=K         moves before the end (default 20)
#   SKIP_PEER=1        do not run the search without the formula of hope
#   RECOUNT_BIN=PATH   time this recount binary and skip the cargo build
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
DATA=${RECOUNT_DATA:-../shared/data/go}
ARCHIVE=${ARCHIVE:-kgs-2003-19-7582.tar.gz}
GAMES=${GAMES:-300}
FROM_END=${FROM_END:-20}
BIN=${RECOUNT_BIN:-$PWD/target/release/recount}
if [ -z "${RECOUNT_BIN:-}" ]; then
    cargo build --release --quiet
fi
[ -f "$DATA/$ARCHIVE" ] || { echo "no $DATA/$ARCHIVE; set RECOUNT_DATA or ARCHIVE" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/games"
tar -xzf "$DATA/$ARCHIVE" -C "$TMP/games"
find "$TMP/games" -name '*.sgf' | LC_ALL=C sort > "$TMP/all"
sed -n "1,${GAMES}p" "$TMP/all" > "$TMP/list"
echo "$(wc -l < "$TMP/list") games of $ARCHIVE, position $FROM_END moves before the end, 1 thread"

run() {
    local out=$1
    shift
    local t0 t1
    t0=$(date +%s%N)
    "$BIN" - --zones-from-end "$FROM_END" --zone-timing -j 1 -q -o "$out" "$@" < "$TMP/list"
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000000 ))"
}
secs=$(run "$TMP/hope")
echo "recount, formula of hope: ${secs} ms in all"
if [ "${SKIP_PEER:-0}" != 1 ]; then
    peer=$(run "$TMP/plain" --zone-no-hope)
    echo "recount, no formula of hope (peer): ${peer} ms in all"
fi

python3 - "$TMP" "${SKIP_PEER:-0}" <<'EOF'
import csv, os, statistics, sys
from collections import Counter, defaultdict

tmp, skip_peer = sys.argv[1], sys.argv[2] == "1"

def load(name):
    rows = {}
    for r in csv.DictReader(open(os.path.join(tmp, name, "go_zones.csv"), newline="")):
        rows[(r["member"] or r["source"], r["game"], r["zone_id"])] = r
    return rows

def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]

hope = load("hope")
solved = [r for r in hope.values() if r["status"] == "solved"]
small = [float(r["search_ms"]) for r in solved if int(r["empty_points"]) <= 12]
print(f"\nzones: {len(hope)}; " + ", ".join(
    f"{n} {s}" for s, n in sorted(Counter(r["status"] for r in hope.values()).items())))
print(f"solved zones of <= 12 empty points: {len(small)}; search time mean "
      f"{statistics.mean(small):.2f} ms, median {statistics.median(small):.3f} ms, "
      f"95th percentile {pct(small, 0.95):.2f} ms, max {max(small):.1f} ms (bar: 10 ms mean)")
nodes = sum(int(r["nodes"]) for r in solved)
ms = sum(float(r["search_ms"]) for r in solved)
print(f"nodes per second: {nodes / ms * 1000:,.0f}")
print("\nempty points  zones  mean ms  max ms  mean nodes")
by = defaultdict(list)
for r in solved:
    by[int(r["empty_points"])].append(r)
for k in sorted(by):
    t = [float(r["search_ms"]) for r in by[k]]
    n = [int(r["nodes"]) for r in by[k]]
    print(f"{k:12d} {len(t):6d} {statistics.mean(t):8.2f} {max(t):7.1f} {statistics.mean(n):11.0f}")
why = Counter()
for r in hope.values():
    if r["status"] == "not_searched":
        why["node budget" if "nodes" in r["reason"] else "size limits"] += 1
print("not searched: " + (", ".join(f"{n} ({s})" for s, n in why.items()) or "none"))

if not skip_peer:
    plain = load("plain")
    both = [k for k, r in hope.items()
            if r["status"] == "solved" and plain.get(k, {}).get("status") == "solved"]
    differ = [k for k in both if (hope[k]["black_count"], hope[k]["white_count"])
              != (plain[k]["black_count"], plain[k]["white_count"])]
    th = sum(float(hope[k]["search_ms"]) for k in both)
    tp = sum(float(plain[k]["search_ms"]) for k in both)
    nh = sum(int(hope[k]["nodes"]) for k in both)
    npl = sum(int(plain[k]["nodes"]) for k in both)
    lost = sum(1 for k, r in hope.items() if r["status"] == "solved"
               and plain.get(k, {}).get("status") != "solved")
    print(f"\nzones solved by both: {len(both)} (the peer ran out of budget on {lost} more); "
          f"followers differing: {len(differ)}")
    print(f"time: {th:.0f} ms vs peer {tp:.0f} ms: {tp / max(th, 1e-9):.1f}x faster; "
          f"nodes: {nh:,} vs {npl:,}: {npl / max(nh, 1):.1f}x fewer")
    if differ:
        sys.exit(f"followers differ on {differ[:5]}")
EOF
