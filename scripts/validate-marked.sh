#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The dead-stone estimator against the players' own marking (TB/TW) on
# records it was not tuned on:
#
#   bash scripts/validate-marked.sh ../shared/data/go/kgs-2017_0*.tar.gz
#
# 1. builds target/release/recount (or takes RECOUNT_BIN);
# 2. runs it twice on the inputs: --dead-stones markup (the players'
#    count) and --dead-stones estimate (the estimator alone);
# 3. keeps the marked games (markup run: dead_source markup, RE a score)
#    and splits them by a hash of the file name (SHA-1 of the member's or
#    file's base name, first byte even: "tune", odd: "held-out"), so the
#    split never depends on the order or on what the estimator does;
# 4. prints, for each half and for both:
#    - the markup path: games whose marked count is not RE's;
#    - the estimate: exact margin and winner against RE, and against the
#      truth after adjudication (the marking's count, except where
#      ADJUDICATIONS says the marking is wrong: then the estimate's own);
#    - the chains the estimate judges otherwise than the marking
#      (go_scores.csv's marking_differs), a confusion table by kind of
#      position (dead called alive, alive called dead), with how many of
#      them are adjudicated the marking's error;
#    - certainty: games whose verdict is `sure` / `contested`, and the
#      `sure` ones that are the estimator's error (after adjudication);
#    - every game whose count or winner the estimate changes from the
#      marking's, with its chains and its adjudication.
#
# Environment:
#   RECOUNT_BIN=PATH     use this binary, skip the cargo build
#   THREADS=N            recount --threads (default 1)
#   RECOUNT_ARGS="…"     more recount options for the estimate run
#                        (e.g. "--seed 3")
#   ADJUDICATIONS=F      the adjudications (default
#                        fixtures/expected/marked-adjudications.csv):
#                        file,chain,marking_says,recount_says,verdict,reason;
#                        verdict `recount` (the marking is wrong, recount's
#                        count stands), `marking` (the estimator's miss) or
#                        `open` (not settled: counted as the estimator's miss)
#   HALF=tune|held-out   print only that half's game list (default both)
#   BASELINE_BIN=PATH    also run this binary's estimate (another build)
#                        and print, per half, the change from its figures:
#                        the margin by which a change wins or loses on the
#                        half it was not tuned on
#   KEEP_TMP=1           keep the temp dir
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}
THREADS=${THREADS:-1}
ADJ=${ADJUDICATIONS:-$ROOT/fixtures/expected/marked-adjudications.csv}
HALF=${HALF:-}
read -r -a MORE <<<"${RECOUNT_ARGS:-}"

die() { echo "validate-marked.sh: $*" >&2; exit 1; }
[[ $# -ge 1 ]] || die "usage: scripts/validate-marked.sh ARCHIVE_OR_DIR... (see the header)"
command -v python3 >/dev/null 2>&1 || die "python3 is needed"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-marked.XXXXXX")
if [[ ${KEEP_TMP:-0} == 1 ]]; then
    echo "temp dir kept: $TMP" >&2
else
    trap 'rm -rf "$TMP"' EXIT
fi

if [[ -z ${RECOUNT_BIN:-} ]]; then
    echo "== cargo build --release" >&2
    cargo build --release --quiet >&2
fi
[[ -x $BIN ]] || die "no recount binary at $BIN"
runs=(markup estimate)
if [[ -n ${BASELINE_BIN:-} ]]; then
    [[ -x $BASELINE_BIN ]] || die "no baseline binary at $BASELINE_BIN"
    runs+=(baseline)
fi
for run in "${runs[@]}"; do
    bin=$BIN mode=$run extra=()
    [[ $run != markup ]] && extra=("${MORE[@]}") mode=estimate
    [[ $run == baseline ]] && bin=$BASELINE_BIN
    echo "== $bin --dead-stones $mode ${extra[*]} $*" >&2
    "$bin" "$@" "${extra[@]}" --threads "$THREADS" --no-html --out "$TMP/$run" \
        --dead-stones "$mode" >"$TMP/$run.log" 2>&1 || {
        tail -20 "$TMP/$run.log" >&2
        die "$bin --dead-stones $mode failed (log above)"
    }
done

baseline=""
[[ -n ${BASELINE_BIN:-} ]] && baseline=$TMP/baseline/go_scores.csv
python3 - "$TMP/markup/go_scores.csv" "$TMP/estimate/go_scores.csv" "$ADJ" "$HALF" "$baseline" <<'PY'
import collections
import csv
import hashlib
import os
import re
import sys

markup_path, estimate_path, adj_path, only_half, baseline_path = sys.argv[1:6]


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return {r["game_key"]: r for r in csv.DictReader(f)}


def estimate_rows(path):
    est = rows(path)
    for col in ("certainty", "contested_chains", "marking_differs"):
        if col not in next(iter(est.values()), {col: ""}):
            sys.exit("%s lacks column %s: is the binary older than it?" % (path, col))
    return est


mk = rows(markup_path)


def name(r):
    return os.path.basename(r["member"] or r["source"])


def half(r):
    return "tune" if hashlib.sha1(name(r).encode()).digest()[0] % 2 == 0 else "held-out"


def signed(r):
    m = r["score_margin"]
    if m == "":
        return None
    return float(m) * (-1 if r["score_winner"] == "W" else 1)


def recorded(r):
    m = r["recorded_margin"]
    if m == "" or r["recorded_winner"] not in ("B", "W"):
        return None
    return float(m) * (-1 if r["recorded_winner"] == "W" else 1)


def same(a, b):
    return a is not None and b is not None and abs(a - b) < 0.01


def won(a, b):
    return a is not None and b is not None and (a > 0) == (b > 0) and a != 0 and b != 0


adj = collections.defaultdict(dict)
if os.path.exists(adj_path):
    with open(adj_path, newline="", encoding="utf-8") as f:
        for a in csv.DictReader(f):
            adj[a["file"]][a["chain"]] = a
ENTRY = re.compile(r"^([BW] chain at \S+ \(\d+ stones?\)) (alive|dead), marked (alive|dead): (\w+)$")


def chains(r):
    out = []
    for part in filter(None, r["marking_differs"].split("; ")):
        m = ENTRY.match(part)
        if not m:
            sys.exit("unreadable marking_differs entry: %r" % part)
        out.append(m.groups())
    return out


def marked_games(est):
    """The marked games with the estimate `est`'s verdicts, by half."""
    games = []
    for k, m in mk.items():
        if m["dead_source"] != "markup" or m["result_kind"] != "score" or k not in est:
            continue
        e = est[k]
        g = {"key": k, "file": name(m), "half": half(m), "re": recorded(m),
             "marked": signed(m), "est": signed(e), "certainty": e["certainty"],
             "contested": e["contested_chains"], "chains": chains(e)}
        # After adjudication: the marking's count is the truth, unless every
        # chain the estimate and the marking part on is adjudicated the
        # marking's error (then the estimate's count stands).
        ruled = [adj[g["file"]].get(c[0]) for c in g["chains"]]
        g["adjudicated"] = bool(g["chains"]) and all(ruled)
        g["marking_wrong"] = g["adjudicated"] and all(a["verdict"] == "recount" for a in ruled)
        g["truth"] = g["est"] if g["marking_wrong"] else g["marked"]
        g["open"] = g["adjudicated"] and any(a["verdict"] == "open" for a in ruled)
        g["differs"] = not same(g["est"], g["marked"])
        games.append(g)
    games.sort(key=lambda g: g["key"])
    halves = collections.OrderedDict([("tune", []), ("held-out", [])])
    for g in games:
        halves[g["half"]].append(g)
    halves["both"] = games
    return games, halves


def figures(gs):
    """Exact margin and winner after adjudication, sure errors, contested."""
    sure = [g for g in gs if g["certainty"] == "sure"]
    return (sum(same(g["est"], g["truth"]) for g in gs),
            sum(won(g["est"], g["truth"]) for g in gs),
            sum(not same(g["est"], g["truth"]) for g in sure),
            len(gs) - len(sure))


games, halves = marked_games(estimate_rows(estimate_path))


def pct(k, n):
    return "%d/%d (%.2f%%)" % (k, n, 100.0 * k / n) if n else "0/0 (-)"


print("marked games (TB/TW, RE a score): %d; tune %d, held-out %d"
      % (len(games), len(halves["tune"]), len(halves["held-out"])))
print("adjudications read: %d chains from %s" % (sum(map(len, adj.values())), adj_path))
print()
print("%-9s %6s %22s %22s %22s %22s" % ("half", "games", "markup = RE", "estimate exact (RE)",
                                        "estimate winner (RE)", "exact (adjudicated)"))
for h, gs in halves.items():
    n = len(gs)
    print("%-9s %6d %22s %22s %22s %22s" % (
        h, n, pct(sum(same(g["marked"], g["re"]) for g in gs), n),
        pct(sum(same(g["est"], g["re"]) for g in gs), n),
        pct(sum(won(g["est"], g["re"]) for g in gs), n),
        pct(figures(gs)[0], n)))
print()
print("%-9s %22s %22s %26s" % ("half", "winner (adjudicated)", "same count as marking",
                               "sure and wrong (adjud.)"))
for h, gs in halves.items():
    n = len(gs)
    _, winners, sure_wrong, contested = figures(gs)
    print("%-9s %22s %22s %26s" % (
        h, pct(winners, n), pct(sum(not g["differs"] for g in gs), n),
        "%d of %d sure; %s of games" % (
            sure_wrong, n - contested, "%.2f%%" % (100.0 * sure_wrong / n) if n else "-")))
print()

KINDS = ["seki", "race", "corner", "dame", "bent_four", "invasion", "other"]
for h, gs in halves.items():
    table = collections.defaultdict(collections.Counter)
    for g in gs:
        for label, says, marked, kind in g["chains"]:
            a = adj[g["file"]].get(label)
            col = "dead called alive" if marked == "dead" else "alive called dead"
            table[kind][col] += 1
            if g["differs"]:
                table[kind][col + " (count)"] += 1
            if a and a["verdict"] == "recount":
                table[kind]["marking wrong"] += 1
    print("chains the estimate judges otherwise than the marking, %s (%d games)" % (h, len(gs)))
    print("  %-10s %18s %18s %16s" % ("kind", "dead called alive", "alive called dead",
                                       "marking wrong"))
    for kind in KINDS:
        t = table[kind]
        print("  %-10s %11d (%3d) %11d (%3d) %16d" % (
            kind, t["dead called alive"], t["dead called alive (count)"],
            t["alive called dead"], t["alive called dead (count)"], t["marking wrong"]))
    print("  (in brackets: in games whose count the difference changes)")
    print()

for h in ("tune", "held-out"):
    if only_half and h != only_half:
        continue
    gs = [g for g in halves[h] if g["differs"]]
    print("%s: %d games whose count the estimate changes from the marking's" % (h, len(gs)))
    for g in gs:
        winner = "winner changes" if not won(g["est"], g["marked"]) else "count changes"
        print("  %s RE %s marked %s estimate %s (%s, %s)%s" % (
            g["file"], g["re"], g["marked"], g["est"], winner, g["certainty"],
            ", adjudicated: marking wrong" if g["marking_wrong"]
            else ", adjudicated: open (counted as the estimator's miss)" if g["open"]
            else ", adjudicated: estimator's miss" if g["adjudicated"] else ""))
        for label, says, marked, kind in g["chains"]:
            a = adj[g["file"]].get(label)
            print("      %s %s, marked %s: %s%s" % (label, says, marked, kind,
                                                  " [%s: %s]" % (a["verdict"], a["reason"]) if a else ""))
    print()

if baseline_path:
    _, base = marked_games(estimate_rows(baseline_path))
    print("change from the baseline (this build's figure, then the change)")
    print("%-9s %6s %16s %16s %16s %16s" % ("half", "games", "exact (adjud.)", "winner (adjud.)",
                                            "sure and wrong", "contested"))
    for h, gs in halves.items():
        now, before = figures(gs), figures(base[h])
        print("%-9s %6d %16s %16s %16s %16s" % ((h, len(gs)) + tuple(
            "%d (%+d)" % (a, a - b) for a, b in zip(now, before))))
PY
