#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# How often does recount's recomputed score agree with the recorded result?
#
#   bash scripts/accuracy.sh ARCHIVE_OR_DIR...
#   GNUGO_SAMPLE=20 bash scripts/accuracy.sh ../shared/data/go/kgs-2001-19-2298.tar.gz
#
# 1. builds target/release/recount (cargo build --release);
# 2. runs it on the inputs with --out a temp dir (and --dead-stones $DEAD
#    --agrees-if);
# 3. reads DIR/go_scores.csv and prints, for the scored games
#    (result_kind == score, i.e. RE like B+3.5):
#    - how many there are, and how many recount could rescore;
#    - exact-margin agreement: verdict == agrees, or same winner and
#      |score_margin - recorded_margin| < 0.01;
#    - winner agreement: score_winner == recorded_winner;
#    - the same split by dead_source (markup / estimate / none), and by
#      archive (or folder holding the files) when there are 2 to 20;
#    - the accuracy targets (README, Accuracy): with markup 99% exact
#      margin, estimated 95% exact margin and 99.5% winner, each met or
#      missed by so many games;
#    - a table of the verdicts; how many mismatches one change to the
#      settled position explains (agrees_if), by kind of change; how many
#      estimated mismatches have doubtful stones (doubtful_stones); how many
#      winner flips count RE's margin for the other colour (reason); and the
#      first 10 mismatches;
# 4. with GNUGO_SAMPLE=N > 0: picks N of those scored games, evenly spaced in
#    go_scores.csv's order, scores them with GNU Go's final_score
#    (scripts/gnugo_final_score.py --games, which installs nothing: this
#    script runs `apt-get install -y gnugo` when GNU Go is missing), and prints
#    GNU Go's agreement with RE (raw, and with KGS's handicap compensation for
#    Chinese rules) beside recount's on the SAME games, with GNU Go's seconds
#    per game.
#
# Agreement is measured against recount's parse of RE (recorded_winner,
# recorded_margin). Denominators are all scored games (all sampled games for
# the GNU Go table): a game that could not be rescored counts as a miss.
#
# Environment:
#   GNUGO_SAMPLE=N      games to score with GNU Go (default 0 = skip GNU Go)
#   DEAD=MODE           recount --dead-stones auto|markup|estimate|none
#                       (default auto)
#   GNUGO_RESULTS=F…    instead of running GNU Go, read its results from these
#                       CSVs, plain or .gz (space-separated; written by an
#                       earlier run of scripts/gnugo_final_score.py on the
#                       same archives, matched by archive file name, member
#                       and game): every scored game they hold is compared,
#                       and the report adds which of recount's misses GNU Go
#                       counts as RE and on which the two counters agree
#                       against RE. data/gnugo/kgs-2001-2003-final-score.csv.gz
#                       holds GNU Go 3.8 on the 4,017 scored games of the
#                       three KGS archives (about two hours of GNU Go)
#   GNUGO_TIMEOUT=S     seconds per game for GNU Go (default 60)
#   GNUGO_LEVEL=N       GNU Go --level (default: GNU Go's own, 10)
#   GNUGO_JOBS=N        GNU Go processes at once (default 1, so that the
#                       seconds per game are not inflated by contention)
#   GNUGO_RULES=MODE    sgf|japanese|chinese, see gnugo_final_score.py
#                       (default sgf: counting from each record's RU)
#   SEEDS="1 2 …"       also run recount with each --seed N (playout seeds;
#                       only estimated games can change) and print each
#                       seed's agreement, the mean and its standard
#                       error, each archive's range over the seeds, and
#                       the games whose agreement depends on the seed
#                       (default: none)
#   MISMATCHES=N        mismatches listed (default 10)
#   RECOUNT_BIN=PATH    use this recount binary and skip the cargo build
#   SCORES_CSV=PATH     skip recount altogether and read this go_scores.csv
#                       (for testing the report; GNU Go still reads the inputs)
#   KEEP_TMP=1          keep the temp dir (recount's CSVs, GNU Go's CSV)
#   RECOUNT_ARGS="…"    more recount options for every run, e.g.
#                       "--votes 1" (one estimate per game, no vote)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

GNUGO_SAMPLE=${GNUGO_SAMPLE:-0}
DEAD=${DEAD:-auto}
GNUGO_TIMEOUT=${GNUGO_TIMEOUT:-60}
GNUGO_LEVEL=${GNUGO_LEVEL:-}
GNUGO_JOBS=${GNUGO_JOBS:-1}
GNUGO_RULES=${GNUGO_RULES:-sgf}
MISMATCHES=${MISMATCHES:-10}
BIN=${RECOUNT_BIN:-$ROOT/target/release/recount}
SCORES_CSV=${SCORES_CSV:-}
SEEDS=${SEEDS:-}
read -r -a MORE <<<"${RECOUNT_ARGS:-}"
GNUGO_RESULTS=${GNUGO_RESULTS:-}

die() { echo "accuracy.sh: $*" >&2; exit 1; }

[[ $# -ge 1 ]] || die "usage: scripts/accuracy.sh ARCHIVE_OR_DIR... (see the header for the environment)"
[[ $GNUGO_SAMPLE =~ ^[0-9]+$ ]] || die "GNUGO_SAMPLE must be a number, not '$GNUGO_SAMPLE'"
case $DEAD in auto|markup|estimate|none) ;; *) die "DEAD must be auto, markup, estimate or none, not '$DEAD'" ;; esac
command -v python3 >/dev/null 2>&1 || die "python3 is needed"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/recount-accuracy.XXXXXX")
if [[ ${KEEP_TMP:-0} == 1 ]]; then
    echo "temp dir kept: $TMP" >&2
else
    trap 'rm -rf "$TMP"' EXIT
fi

# ---------------------------------------------------------------- recount
if [[ -n $SCORES_CSV ]]; then
    [[ -s $SCORES_CSV ]] || die "SCORES_CSV=$SCORES_CSV is missing or empty"
    SCORES=$SCORES_CSV
    echo "== reading $SCORES (SCORES_CSV; recount not run)" >&2
else
    if [[ -z ${RECOUNT_BIN:-} ]]; then
        echo "== cargo build --release" >&2
        cargo build --release --quiet >&2
    fi
    [[ -x $BIN ]] || die "no recount binary at $BIN"
    echo "== recount --dead-stones $DEAD ${MORE[*]} $* --out $TMP/recount" >&2
    start=$(date +%s.%N)
    "$BIN" "$@" "${MORE[@]}" --out "$TMP/recount" --dead-stones "$DEAD" --agrees-if \
        >"$TMP/recount.log" 2>&1 || {
        tail -20 "$TMP/recount.log" >&2
        die "recount failed (log above)"
    }
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "recount took %.1f s\n", b - a }' >&2
    SCORES=$TMP/recount/go_scores.csv
    [[ -s $SCORES ]] || die "recount wrote no go_scores.csv in $TMP/recount (is the scoring feature built?)"
fi

# ---------------------------------------------------------------- seeds
SEED_CSVS=()
for seed in $SEEDS; do
    [[ $seed =~ ^[0-9]+$ ]] || die "SEEDS must be numbers, not '$seed'"
    [[ -z $SCORES_CSV ]] || die "SEEDS needs a recount run (unset SCORES_CSV)"
    echo "== recount --dead-stones $DEAD --seed $seed ${MORE[*]} $* --out $TMP/seed-$seed" >&2
    "$BIN" "$@" "${MORE[@]}" --out "$TMP/seed-$seed" --dead-stones "$DEAD" --seed "$seed" \
        >"$TMP/seed-$seed.log" 2>&1 || {
        tail -20 "$TMP/seed-$seed.log" >&2
        die "recount --seed $seed failed (log above)"
    }
    SEED_CSVS+=("$TMP/seed-$seed/go_scores.csv")
done

# ---------------------------------------------------------------- GNU Go
GNUGO_CSV=
if [[ -n $GNUGO_RESULTS ]]; then
    (( GNUGO_SAMPLE == 0 )) || die "set GNUGO_SAMPLE or GNUGO_RESULTS, not both"
    # One CSV with one header; the sample is every game the CSVs hold.
    python3 - "$TMP/gnugo.csv" "$TMP/sample.csv" $GNUGO_RESULTS <<'PY'
import csv, gzip, sys
out, sample, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
rows, header = [], None
for path in paths:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="utf-8") as f:
        r = csv.DictReader(f)
        header = header or r.fieldnames
        rows.extend(r)
with open(out, "w", newline="", encoding="utf-8") as f:
    w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
with open(sample, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["source", "member", "game"])
    for r in rows:
        w.writerow([r["source"], r["member"], r["game"]])
print("GNU Go results: %d games from %d file(s)" % (len(rows), len(paths)), file=sys.stderr)
PY
    GNUGO_CSV=$TMP/gnugo.csv
elif (( GNUGO_SAMPLE > 0 )); then
    if ! command -v gnugo >/dev/null 2>&1 && [[ ! -x /usr/games/gnugo ]] && [[ -z ${GNUGO:-} ]]; then
        echo "== installing GNU Go (apt-get install -y gnugo)" >&2
        if ! apt-get install -y gnugo >&2; then
            apt-get update >&2
            apt-get install -y gnugo >&2 || die "cannot install gnugo"
        fi
    fi
    # The sample: GNUGO_SAMPLE scored games, evenly spaced in go_scores.csv.
    python3 - "$SCORES" "$GNUGO_SAMPLE" "$TMP/sample.csv" <<'PY'
import csv, sys
scores, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(scores, newline="", encoding="utf-8") as f:
    rows = [r for r in csv.DictReader(f) if r["result_kind"] == "score"]
if n < len(rows):
    rows = [rows[i * len(rows) // n] for i in range(n)]
with open(out, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["source", "member", "game"])
    for r in rows:
        w.writerow([r["source"], r["member"], r["game"]])
print("GNU Go sample: %d scored games" % len(rows), file=sys.stderr)
PY
    args=(--games "$TMP/sample.csv" --out "$TMP/gnugo.csv" --timeout "$GNUGO_TIMEOUT"
          --jobs "$GNUGO_JOBS" --rules "$GNUGO_RULES" --quiet)
    [[ -n $GNUGO_LEVEL ]] && args+=(--level "$GNUGO_LEVEL")
    echo "== scripts/gnugo_final_score.py ${args[*]} $*" >&2
    python3 "$ROOT/scripts/gnugo_final_score.py" "${args[@]}" "$@" >&2
    GNUGO_CSV=$TMP/gnugo.csv
fi

# ---------------------------------------------------------------- report
python3 - "$SCORES" "$GNUGO_CSV" "$MISMATCHES" "${GNUGO_CSV:+$TMP/sample.csv}" \
    "$SEEDS" "${SEED_CSVS[@]}" <<'PY'
import collections
import csv
import math
import os
import sys

scores_path, gnugo_path, n_mismatch, sample_path, seeds = sys.argv[1:6]
seed_paths = sys.argv[6:]
n_mismatch = int(n_mismatch)


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def key(r):
    # The archive's file name, not its path: results read back from a CSV
    # (GNUGO_RESULTS) match wherever the archives lie.
    return (os.path.basename(r["source"]), r.get("member") or "", str(int(r["game"])))


# The ends of a reason in go_scores.csv's reason column when RE leaves a surely dead chain on
# the board: in atari with no way out, or captured whoever moves first
# (see README, Audit).
LEFT_ON_BOARD = ("left on the board, though in atari with no way out",
                 "left on the board, though captured whoever moves first")
# The end of its reason when the count is RE's margin for the other colour
# (KGS wrote every scored result of July to October 2000 as B+).
OTHER_COLOUR = "for the other colour"


def says(r, ends):
    """Whether one of the reasons in r's reason column (joined by "; ")
    ends with one of `ends`."""
    return any(part.endswith(ends) for part in r["reason"].split("; "))


def shown_wrong(r):
    """Whether the audit shows the record's RE wrong: it leaves a dead chain
    on the board, or it names the other colour with the count's margin."""
    return r["verdict"] != "agrees" and says(r, LEFT_ON_BOARD + (OTHER_COLOUR,))


def where(r):
    m = r.get("member") or ""
    return "%s%s#%s" % (r["source"], (":" + m) if m else "", r["game"])


def shown(winner, margin):
    if winner in ("B", "W"):
        return "%s+%s" % (winner, margin if margin not in (None, "") else "?")
    if margin not in (None, "") and num(margin) == 0:
        return "draw"
    return "-"


def winner_ok(r):
    return r["score_winner"] == r["recorded_winner"] and r["recorded_winner"] in ("B", "W")


def exact_ok(r):
    if r["verdict"] == "agrees":
        return True
    s, rec = num(r["score_margin"]), num(r["recorded_margin"])
    return (s is not None and rec is not None and winner_ok(r) and abs(s - rec) < 0.01)


def pct(k, n):
    return "%d/%d (%.1f%%)" % (k, n, 100.0 * k / n) if n else "0/0 (-)"


with open(scores_path, newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
need = {"source", "member", "game", "dead_source", "result_raw", "result_kind",
        "recorded_winner", "recorded_margin", "score_winner", "score_margin", "verdict"}
missing = need - set(rows[0].keys() if rows else need)
if missing:
    sys.exit("go_scores.csv lacks columns: %s" % ", ".join(sorted(missing)))

scored = [r for r in rows if r["result_kind"] == "score"]
kinds = collections.Counter(r["result_kind"] for r in rows)
print("recount vs recorded result (%s)" % scores_path)
print("  Go games: %d; result kinds: %s" % (len(rows), ", ".join(
    "%s %d" % kv for kv in sorted(kinds.items(), key=lambda kv: -kv[1]))))
print("  scored games (result_kind == score): %d, of which rescored by recount "
      "(score_margin set): %d" % (len(scored), sum(1 for r in scored if r["score_margin"] != "")))
print()

print("%-16s %7s %20s %20s" % ("dead_source", "games", "winner agrees", "exact margin"))
groups = collections.OrderedDict([("all", scored)])
for ds in sorted({r["dead_source"] for r in scored}):
    groups[ds] = [r for r in scored if r["dead_source"] == ds]
for name, rs in groups.items():
    print("%-16s %7d %20s %20s" % (name, len(rs), pct(sum(map(winner_ok, rs)), len(rs)),
                                   pct(sum(map(exact_ok, rs)), len(rs))))
print()

# Per archive, or per folder holding the files, when there are several
# (and not so many that the table would drown the rest).
def place(r):
    return r["source"] if r.get("member") else os.path.dirname(r["source"])

def by_place(rs):
    out = collections.OrderedDict((s, []) for s in sorted({place(r) for r in rs}))
    for r in rs:
        out[place(r)].append(r)
    return out if 1 < len(out) <= 20 else {}

places = by_place(scored)
if places:
    print("%-32s %7s %20s %20s" % ("source", "games", "winner agrees", "exact margin"))
    for source, rs in places.items():
        print("%-32s %7d %20s %20s" % (os.path.basename(source.rstrip("/")), len(rs),
                                       pct(sum(map(winner_ok, rs)), len(rs)),
                                       pct(sum(map(exact_ok, rs)), len(rs))))
    print()

# The accuracy targets (README, Accuracy), on every scored game of a
# dead-stone source: met, or how many games short.
TARGETS = [("markup", "exact margin", exact_ok, 0.99),
           ("estimate", "exact margin", exact_ok, 0.95),
           ("estimate", "winner", winner_ok, 0.995)]
for source, what, ok, target in TARGETS:
    rs = groups.get(source)
    if not rs:
        continue
    k, n = sum(map(ok, rs)), len(rs)
    short = math.ceil(target * n - 1e-9) - k
    print("target: %s (%d game%s), %s >= %g%%: %.2f%%, %s"
          % (source, n, "" if n == 1 else "s", what, 100 * target, 100.0 * k / n,
             "met" if short <= 0 else "missed by %d game%s" % (short, "" if short == 1 else "s")))
print()

verdicts_all = collections.Counter(r["verdict"] for r in rows)
verdicts_scored = collections.Counter(r["verdict"] for r in scored)
print("%-18s %14s %10s" % ("verdict", "scored games", "all games"))
order = ["agrees", "margin_mismatch", "winner_flip", "not_scored", "rules_unknown", "no_position"]
for v in order + sorted(set(verdicts_all) - set(order)):
    if verdicts_all[v] or v in order:
        print("%-18s %14d %10d" % (v, verdicts_scored[v], verdicts_all[v]))
print()

mism = [r for r in scored if not exact_ok(r)]
one = [r for r in mism if r.get("agrees_if_one_change") == "true"]
print("mismatches one change to the settled position explains (agrees_if): %d of %d"
      % (len(one), len(mism)))
print("  %s" % ", ".join("%s %d" % (k, v) for k, v in sorted(collections.Counter(
    "must-fill" if "must-fill" in r["agrees_if"].split("; ")[0] else
    ("chain taken off" if r["agrees_if"].split("; ")[0].endswith("dead") else "chain left on")
    for r in one).items())))
estimated = [r for r in mism if r.get("doubtful_stones", "") != ""]
if estimated:
    doubtful = [r for r in estimated if int(r["doubtful_stones"]) > 0]
    print("estimated mismatches with doubtful stones (coin flips of the playouts): %d of %d"
          % (len(doubtful), len(estimated)))
swapped = [r for r in mism if says(r, OTHER_COLOUR)]
print("winner flips whose count is RE's margin for the other colour: %d" % len(swapped))
left_on = {key(r) for r in mism if says(r, LEFT_ON_BOARD)}
kept = [r for r in scored if key(r) not in left_on]
print("mismatches whose RE is the count with a dead chain left on the board (in atari "
      "with no way out, or captured whoever moves first): %d" % len(left_on))
print("  without those records: winner %s, exact margin %s"
      % (pct(sum(map(winner_ok, kept)), len(kept)), pct(sum(map(exact_ok, kept)), len(kept))))
sound = [r for r in scored if not shown_wrong(r)]
print("  without those and the winner flips above (every record the audit shows wrong): "
      "winner %s, exact margin %s"
      % (pct(sum(map(winner_ok, sound)), len(sound)), pct(sum(map(exact_ok, sound)), len(sound))))
print()
print("first %d of %d mismatches (scored games, recorded vs recomputed):"
      % (min(n_mismatch, len(mism)), len(mism)))
for r in mism[:n_mismatch]:
    print("  %s  RE=%s  recorded %s  recount %s  [%s, dead=%s, rules=%s]%s" % (
        where(r), r["result_raw"], shown(r["recorded_winner"], r["recorded_margin"]),
        shown(r["score_winner"], r["score_margin"]), r["verdict"], r["dead_source"],
        r.get("rules", ""), "  agrees if: " + r["agrees_if"] if r.get("agrees_if") else ""))

if seed_paths:
    # The same games under other playout seeds: only estimated dead stones
    # can change, so the spread is the estimator's own noise.
    runs = [("0", scored)]
    for seed, path in zip(seeds.split(), seed_paths):
        with open(path, newline="", encoding="utf-8") as f:
            runs.append((seed, [r for r in csv.DictReader(f) if r["result_kind"] == "score"]))
    print()
    print("%-8s %7s %20s %20s %26s" % ("--seed", "games", "winner agrees", "exact margin",
                                        "winner, not shown wrong"))
    for seed, rs in runs:
        sound = [r for r in rs if not shown_wrong(r)]
        print("%-8s %7d %20s %20s %26s" % (seed, len(rs), pct(sum(map(winner_ok, rs)), len(rs)),
                                           pct(sum(map(exact_ok, rs)), len(rs)),
                                           pct(sum(map(winner_ok, sound)), len(sound))))
    n = len(scored)
    exact = [sum(map(exact_ok, rs)) for _, rs in runs]
    won = [sum(map(winner_ok, rs)) for _, rs in runs]
    print("mean of %d seeds: exact margin %.1f (%.1f%%, %d to %d), winner %.1f (%.1f%%, %d to %d)"
          % (len(runs), sum(exact) / len(runs), 100.0 * sum(exact) / len(runs) / n if n else 0,
             min(exact), max(exact), sum(won) / len(runs),
             100.0 * sum(won) / len(runs) / n if n else 0, min(won), max(won)))
    if len(runs) > 1:
        # The seeds' standard deviation over the square root of their
        # number: how far another set of seeds would move the means, the
        # yardstick for comparing two builds' means.
        def stderr(v):
            m = sum(v) / len(v)
            return (sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v)) ** 0.5
        print("  standard error of those means: exact margin %.2f, winner %.2f games"
              % (stderr(exact), stderr(won)))
    sound = [[r for r in rs if not shown_wrong(r)] for _, rs in runs]
    n_sound = sum(map(len, sound))
    print("  without the records the audit shows wrong: exact margin %.2f%%, winner %.2f%%"
          % (100.0 * sum(sum(map(exact_ok, rs)) for rs in sound) / n_sound if n_sound else 0,
             100.0 * sum(sum(map(winner_ok, rs)) for rs in sound) / n_sound if n_sound else 0))
    for source in places:
        per = [[r for r in rs if place(r) == source] for _, rs in runs]
        exact = [100.0 * sum(map(exact_ok, rs)) / len(rs) for rs in per if rs]
        won = [100.0 * sum(map(winner_ok, rs)) / len(rs) for rs in per if rs]
        print("  %s over %d seeds: exact margin %.1f%% to %.1f%%, winner %.1f%% to %.1f%%"
              % (os.path.basename(source.rstrip("/")), len(runs), min(exact), max(exact),
                 min(won), max(won)))
    ok = collections.defaultdict(set)
    for _, rs in runs:
        for r in rs:
            ok[key(r)].add(exact_ok(r))
    print("games whose exact agreement depends on the seed: %d of %d"
          % (sum(1 for v in ok.values() if len(v) > 1), n))

if not gnugo_path:
    sys.exit(0)

# ---------------------------------------------------------------- GNU Go
with open(gnugo_path, newline="", encoding="utf-8") as f:
    gn = {key(r): r for r in csv.DictReader(f)}
by_key = {key(r): r for r in scored}
sample = [k for k in gn if k in by_key]
lost = [k for k in gn if k not in by_key]
print()
print("GNU Go final_score vs recount on the same %d scored games" % len(sample))
if lost:
    print("  (%d GNU Go rows did not match a scored recount row, e.g. %s)" % (len(lost), lost[0]))
with open(sample_path, newline="", encoding="utf-8") as f:
    unfound = [k for k in map(key, csv.DictReader(f)) if k not in gn]
if unfound:
    print("  (%d sampled games were not found by gnugo_final_score.py in the inputs, e.g. %s;"
          " they are left out)" % (len(unfound), unfound[0]))
n = len(sample)


def gg_ok(k, wcol, mcol):
    g, r = gn[k], by_key[k]
    w, m, rec = g[wcol], num(g[mcol]), num(r["recorded_margin"])
    won = w == r["recorded_winner"] and w in ("B", "W")
    return won, won and m is not None and rec is not None and abs(m - rec) < 0.01


failed = [k for k in sample if gn[k]["error"] or gn[k]["gnugo_score"] == ""]
print("%-28s %7s %20s %20s" % ("", "games", "winner agrees", "exact margin"))
for label, wcol, mcol in (("GNU Go (raw)", "gnugo_winner", "gnugo_margin"),
                          ("GNU Go (KGS handicap)", "gnugo_winner_kgs", "gnugo_margin_kgs")):
    res = [gg_ok(k, wcol, mcol) for k in sample]
    print("%-28s %7d %20s %20s" % (label, n, pct(sum(x[0] for x in res), n),
                                   pct(sum(x[1] for x in res), n)))
rs = [by_key[k] for k in sample]
print("%-28s %7d %20s %20s" % ("recount", n, pct(sum(map(winner_ok, rs)), n),
                               pct(sum(map(exact_ok, rs)), n)))
print("recount's dead_source on these games: %s" % ", ".join(
    "%s %d" % kv for kv in sorted(collections.Counter(r["dead_source"] for r in rs).items())))
both = [k for k in sample if by_key[k]["score_margin"] != "" and gn[k]["gnugo_score"] != ""]
same_w = sum(1 for k in both if by_key[k]["score_winner"] == gn[k]["gnugo_winner_kgs"])
same_m = sum(1 for k in both if by_key[k]["score_winner"] == gn[k]["gnugo_winner_kgs"]
             and abs(num(by_key[k]["score_margin"]) - num(gn[k]["gnugo_margin_kgs"] or 0)) < 0.01)
print("recount vs GNU Go (KGS handicap), both scored: same winner %s, same margin %s"
      % (pct(same_w, len(both)), pct(same_m, len(both))))
secs = sorted(num(gn[k]["seconds"]) for k in sample if not gn[k]["error"] and gn[k]["seconds"])
if secs:
    print("GNU Go seconds/game: mean %.2f, median %.2f, max %.2f, total %.1f (n=%d)"
          % (sum(secs) / len(secs), secs[len(secs) // 2], secs[-1], sum(secs), len(secs)))
if failed:
    print("GNU Go failed on %d games (counted as misses), e.g. %s: %s"
          % (len(failed), where(gn[failed[0]]), gn[failed[0]]["error"]))


def signed(winner, margin):
    m = num(margin)
    if m is None or winner not in ("B", "W"):
        return None
    return m if winner == "B" else -m


# recount's misses split by GNU Go's count: GNU Go counts RE (recount's
# error), or GNU Go's count is recount's (two independent counters agree
# against RE: most likely the record's doing).
miss = [k for k in sample if not exact_ok(by_key[k])]
g_right = [k for k in miss if gg_ok(k, "gnugo_winner_kgs", "gnugo_margin_kgs")[1]]


def same_count(k):
    g = signed(gn[k]["gnugo_winner_kgs"], gn[k]["gnugo_margin_kgs"])
    r = signed(by_key[k]["score_winner"], by_key[k]["score_margin"])
    return g is not None and r is not None and abs(g - r) < 0.01


same = [k for k in miss if same_count(k)]
print("recount's %d exact-margin misses: GNU Go counts RE on %d; GNU Go's count is "
      "recount's on %d" % (len(miss), len(g_right), len(same)))
agree = sum(map(exact_ok, rs))
print("  without those %d records: recount exact margin %s" % (len(same), pct(agree, n - len(same))))
w_miss = [k for k in sample if not winner_ok(by_key[k])]
w_same = [k for k in w_miss if gn[k]["gnugo_winner_kgs"] == by_key[k]["score_winner"]
          and by_key[k]["score_winner"] in ("B", "W")]
print("recount's %d winner misses: GNU Go gives recount's winner on %d; without those "
      "records: recount winner %s" % (len(w_miss), len(w_same),
                                      pct(sum(map(winner_ok, rs)), n - len(w_same))))
left_g = [k for k in miss if k in left_on]
print("of the %d misses whose RE leaves a dead chain on the board: "
      "GNU Go counts RE on %d, GNU Go's count is recount's on %d"
      % (len(left_g), sum(1 for k in left_g if k in g_right), sum(1 for k in left_g if k in same)))
PY
