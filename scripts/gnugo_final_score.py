#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference scores for Go game records from GNU Go's `final_score` (GTP).

    python3 scripts/gnugo_final_score.py [options] PATH... > gnugo.csv

PATH is an SGF file, a directory (searched recursively, in sorted order, for
*.sgf / *.mgt / *.sgf.gz files and archives) or an archive (.tar.gz, .tgz,
.tar, .zip, .gz). Games are found and numbered the way recount does, so the
rows join on recount's own key:

  source  the path as given on the command line, or path/child for a file
          found in a directory (recount spells it the same way); for an
          archive member this is the archive's path
  member  the member's name as stored in the tar/zip, empty for plain files
  game    1-based index of the game tree in the file or member

For each selected game, the game tree is written alone to a temporary file
(GTP's `loadsgf` takes a file name without spaces, and reads only the first
tree of a file) and GNU Go is asked, over a pipe, for

    loadsgf FILE      plays the main line (setup stones AB/AW included)
    final_score       GNU Go finishes the game itself (genmove_conservative
                      for both sides until two passes), decides which stones
                      are dead, and counts; answers "W+12.5", "B+0.5" or "0"

Output (CSV, one row per selected game, in input order):

  source,member,game      recount's key, see above
  gnugo_score             GNU Go's answer verbatim ("W+12.5", "B+3.0", "0")
  gnugo_winner            B, W, or empty for a draw (and for a failure)
  gnugo_margin            the margin of that answer, >= 0
  seconds                 wall time of loadsgf + final_score, this game
  gnugo_margin_kgs        margin with KGS's handicap convention (see below)
  gnugo_winner_kgs        winner with KGS's handicap convention
  gnugo_rules             rules GNU Go counted with: chinese (area) or
                          japanese (territory); see "Rules" below
  gnugo_handicap          GNU Go's `get_handicap` after loadsgf (see HA)
  rules_raw,handicap,komi RU, HA and KM of the record (komi: as GNU Go used it)
  result_raw              RE of the record
  error                   why the row has no score (timeout, GNU Go refused
                          the file, illegal move while loading, ...), else empty

A failed game (GNU Go refuses the file, a move on an occupied point stops
the loading, the time limit per game is reached, GNU Go dies) gets a row with
empty values and a reason in `error`; the run goes on (a stuck GNU Go is
killed and restarted). A summary (agreement with RE, seconds per game) goes
to stderr.

What GNU Go 3.8 does with the record's RU, KM and HA
-----------------------------------------------------
Read from its source (engine/interface.c gameinfo_play_sgftree_rot,
engine/aftermath.c aftermath_compute_score, interface/play_gtp.c) and checked
on KGS records:

* KM: `loadsgf` sets the komi from KM (overriding --komi and the GTP `komi`
  command). Without KM it takes 5.5, or 0.5 when HA > 0.
* HA: `loadsgf` does NOT keep HA. gameinfo_play_sgftree_rot reads HA into
  GNU Go's global `handicap`, then calls gnugo_clear_board(), whose
  clear_board() sets `handicap = 0` again; the handicap stones themselves
  come from the record's AB. (Only when the first move is White on an empty
  board with HA > 1 does GNU Go place fixed handicap stones of its own, and
  then `handicap` is the number it placed.) This script asks `get_handicap`
  after every `loadsgf` and writes the answer to `gnugo_handicap`: 0 for all
  KGS records, which carry AB.
* RU: ignored in GTP mode. There is no GTP command that selects the rules:
  the counting is fixed for the life of the process by the command line,
  `--japanese-rules` (territory + prisoners, the Debian default) or
  `--chinese-rules` (area: stones + territory). A KGS game under Chinese
  rules therefore gets territory counting unless GNU Go was started with
  `--chinese-rules`.
* Under area counting aftermath_compute_score returns
  white_area - black_area + komi + handicap, so with `handicap` = 0 GNU Go
  gives White NO handicap compensation; under territory counting there is
  none by definition.

Rules (--rules, default `sgf`)
------------------------------
`sgf` runs each game under the counting its RU asks for: area counting
(GNU Go started with --chinese-rules) for RU Chinese, AGA, NZ / New Zealand,
Ing / GOE (their official counting), territory counting (--japanese-rules)
for everything else (Japanese, Korean, missing RU). `japanese` / `chinese`
force one counting for all games. Every game gets a fresh GNU Go process
(it starts in milliseconds; `seconds` does not include the start), so a
result never depends on the games scored before it.

KGS handicap convention (gnugo_margin_kgs / gnugo_winner_kgs)
-------------------------------------------------------------
KGS gives White one point per handicap stone (HA) in a Chinese-rules game
with HA >= 2; GNU Go, as shown above, gives nothing. The KGS columns hold
GNU Go's signed score (W minus B) with GNU Go's handicap term replaced by
KGS's:

    kgs = score - gnugo_added + kgs_added
    gnugo_added = gnugo_handicap when GNU Go counted by area, else 0
                  (0 for KGS records; see HA above)
    kgs_added   = HA when RU is Chinese (case-insensitive), HA >= 2 and
                  GNU Go counted by area, else 0

Checked on the 33 Chinese-rules games of kgs-2001-19-2298.tar.gz that end
by counting (default level): area counting matches RE exactly in 8 of the 8
games without handicap; in the 25 with HA >= 2, RE - GNU Go's area score is
exactly HA in 22 (the other 3 are off by 2 to 6 more points), i.e.
raw exact agreement 0/25, KGS-corrected 22/25. Territory counting on the
same 33 games agrees exactly in 15 (5 + 10). Under territory counting
(--rules japanese) Black's extra handicap stones are not counted anyway
(territory ~ area + HA), so no correction is applied there. KGS's own
compensation for AGA (HA - 1?) and NZ is not modelled: on the 10 AGA/NZ
games of that archive neither area, area + HA - 1 nor territory matched RE
in more than 3.

Sampling
--------
--only-scored keeps games whose RE is a win by a number of points, like
`B+3.5`, `W+0.5`, `W+12` (no resignations, time, forfeits, draws or
unknown results). --sample N keeps N of the remaining games, evenly spaced in
input order (the i-th of N is game floor(i * total / N)), or with --seed S a
seeded random sample (random.Random(S).sample, kept in input order). Both are
deterministic. --games FILE keeps only the games listed in a CSV with columns
source,member,game (e.g. rows picked from recount's go_scores.csv).

GNU Go is run at its default level (10) unless --level is given; final_score
is deterministic (it reseeds GNU Go's random number generator with 0).
If GNU Go is not installed, `apt-get install -y gnugo` provides
/usr/games/gnugo (scripts/accuracy.sh installs it when missing).
"""

import argparse
import csv
import gzip
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile

GAME_SUFFIXES = (".sgf", ".mgt", ".sgf.gz")
AREA_RULES = re.compile(r"chinese|\bcn\b|\baga\b|american|\bnz\b|new\s*zealand|\bing\b|\bgoe\b", re.I)
CHINESE_RULES = re.compile(r"chinese|\bcn\b", re.I)
SCORED_RE = re.compile(r"^\s*([BW])\s*\+\s*(\d+(?:\.\d*)?|\.\d+)\s*$", re.I)
OUT_COLUMNS = ["source", "member", "game", "gnugo_score", "gnugo_winner", "gnugo_margin",
               "seconds", "gnugo_margin_kgs", "gnugo_winner_kgs", "gnugo_rules", "gnugo_handicap",
               "rules_raw", "handicap", "komi", "result_raw", "error"]


# --------------------------------------------------------------------------
# Finding games, numbered like recount (src/discover.rs, src/parse/split.rs)
# --------------------------------------------------------------------------

def container_of(name):
    n = name.lower()
    if n.endswith(".tar.gz") or n.endswith(".tgz"):
        return "targz"
    if n.endswith(".tar"):
        return "tar"
    if n.endswith(".zip"):
        return "zip"
    if n.endswith(".gz"):
        return "gzip"
    return "plain"


def is_game_name(name):
    return name.lower().endswith(GAME_SUFFIXES)


def expand(paths):
    """Paths given -> sorted, de-duplicated list of files, like recount."""
    out = []

    def walk(path, named):
        if os.path.isdir(path):
            try:
                children = sorted(os.listdir(path))
            except OSError as e:
                sys.stderr.write("WARNING: cannot list %s: %s\n" % (path, e))
                return
            for c in children:
                walk(os.path.join(path, c), False)
        elif named or is_game_name(os.path.basename(path)) \
                or container_of(os.path.basename(path)) != "plain":
            out.append(path)

    for p in paths:
        if not os.path.exists(p):
            sys.exit("cannot read '%s': no such file or directory" % p)
        walk(p, True)
    # recount sorts PathBufs (component-wise); sorting the component lists
    # gives the same order.
    out = sorted(set(out), key=lambda p: p.split(os.sep))
    return out


def split_trees(data):
    """Top-level game trees of a byte string (brackets and escapes only)."""
    trees, depth, in_value, escaped, start = [], 0, False, False, 0
    for i, b in enumerate(data):
        if depth == 0:
            if b == 0x28:  # (
                depth, start = 1, i
            continue
        if in_value:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x5D:  # ]
                in_value = False
            continue
        if b == 0x5B:  # [
            in_value = True
        elif b == 0x28:
            depth += 1
        elif b == 0x29:  # )
            depth -= 1
            if depth == 0:
                trees.append(data[start:i + 1])
    return trees


def sources(path):
    """Yield (member, bytes) for each game file in one expanded path."""
    kind = container_of(os.path.basename(path))
    try:
        if kind == "plain":
            with open(path, "rb") as f:
                yield "", f.read()
        elif kind == "gzip":
            with gzip.open(path, "rb") as f:
                yield "", f.read()
        elif kind in ("tar", "targz"):
            with tarfile.open(path, "r:gz" if kind == "targz" else "r:") as tf:
                for info in tf:
                    if not info.isfile() or not is_game_name(info.name):
                        continue
                    data = tf.extractfile(info).read()
                    if info.name.lower().endswith(".gz"):
                        data = gzip.decompress(data)
                    yield info.name, data
        elif kind == "zip":
            with zipfile.ZipFile(path) as zf:
                for info in zf.infolist():
                    if info.is_dir() or not is_game_name(info.filename):
                        continue
                    data = zf.read(info)
                    if info.filename.lower().endswith(".gz"):
                        data = gzip.decompress(data)
                    yield info.filename, data
    except (OSError, EOFError, tarfile.TarError, zipfile.BadZipFile) as e:
        sys.stderr.write("WARNING: %s: cannot read the rest of it: %s\n" % (path, e))


def root_props(tree):
    """Properties of the root node of a game tree: {ID: first value}."""
    text = tree.decode("latin-1")  # values we need are ASCII
    i = text.find(";")
    props, n = {}, len(text)
    if i < 0:
        return props
    i += 1
    while i < n:
        c = text[i]
        if c in ";()":
            break
        if c.isalpha():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            ident = "".join(ch for ch in text[i:j] if ch.isupper())
            first = None
            while True:
                while j < n and text[j].isspace():
                    j += 1
                if j >= n or text[j] != "[":
                    break
                j += 1
                buf = []
                while j < n and text[j] != "]":
                    if text[j] == "\\" and j + 1 < n:
                        j += 1
                    buf.append(text[j])
                    j += 1
                j += 1
                if first is None:
                    first = "".join(buf)
            if ident and ident not in props and first is not None:
                props[ident] = first
            i = j
        else:
            i += 1
    return props


def games(paths):
    """Yield dicts (source, member, game, tree, props) in recount's order."""
    for path in expand(paths):
        for member, data in sources(path):
            for idx, tree in enumerate(split_trees(data), 1):
                props = root_props(tree)
                if props.get("GM", "1").strip() not in ("1", ""):
                    continue  # not Go (backgammon is GM[6])
                yield {"source": path, "member": member, "game": idx,
                       "tree": tree, "props": props}


def int_prop(props, key):
    try:
        return int(props.get(key, "").split(":")[0].strip() or 0)
    except ValueError:
        return 0


def float_prop(props, key):
    try:
        return float(props[key].strip())
    except (KeyError, ValueError):
        return None


# --------------------------------------------------------------------------
# GTP over a pipe, with a time limit per command
# --------------------------------------------------------------------------

class GtpError(Exception):
    pass


class GtpTimeout(Exception):
    pass


class Gnugo:
    """A GNU Go process in GTP mode (score_game starts a fresh one for every
    game; a timeout kills it)."""

    def __init__(self, exe, rules, level):
        self.argv = [exe, "--mode", "gtp", "--%s-rules" % rules]
        if level is not None:
            self.argv += ["--level", str(level)]
        self.proc = None
        self.lines = None
        self.err = None

    def start(self):
        self.err = tempfile.TemporaryFile(mode="w+b")
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, start_new_session=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines),
                         daemon=True).start()

    @staticmethod
    def _pump(stream, q):
        try:
            for raw in iter(stream.readline, b""):
                q.put(raw.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass
        finally:
            q.put(None)
            try:
                stream.close()
            except OSError:
                pass

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # our own session only
            except OSError:
                pass
        self._reap()

    def _reap(self):
        if self.proc is not None:
            self.proc.wait()
            try:
                self.proc.stdin.close()  # stdout is closed by _pump at EOF
            except OSError:
                pass
        if self.err is not None:
            self.err.close()
        self.proc, self.err = None, None

    def stderr_pos(self):
        self.err.flush()
        self.err.seek(0, os.SEEK_END)
        return self.err.tell()

    def stderr_since(self, pos):
        self.err.flush()
        self.err.seek(pos)
        return self.err.read().decode("utf-8", "replace")

    def cmd(self, line, deadline):
        if self.proc is None or self.proc.poll() is not None:
            self.kill()
            raise GtpError("GNU Go is not running (it died before %r)" % line.split()[0])
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except OSError as e:
            self.kill()
            raise GtpError("GNU Go died: %s" % e)
        got = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise GtpTimeout(line.split()[0])
            try:
                out = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if out is None:
                self.kill()
                raise GtpError("GNU Go exited while answering %r" % line.split()[0])
            out = out.rstrip("\r\n")
            if out == "":
                if got:
                    break
                continue
            got.append(out)
        head = got[0]
        body = "\n".join([head[1:].lstrip()] + got[1:]).strip()
        if head.startswith("="):
            return body
        raise GtpError(body)

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.cmd("quit", time.monotonic() + 10)
                self.proc.wait(timeout=10)
            except Exception:  # noqa: BLE001
                self.kill()
        self._reap()


def find_gnugo(explicit):
    for cand in (explicit, os.environ.get("GNUGO"), "gnugo", "/usr/games/gnugo"):
        if cand and shutil.which(cand):
            return shutil.which(cand)
    sys.exit("gnugo not found: install it (apt-get install -y gnugo) or set GNUGO")


# --------------------------------------------------------------------------
# Scoring one game
# --------------------------------------------------------------------------

def parse_score(text):
    """'W+12.5' -> +12.5 (W minus B), 'B+3.0' -> -3.0, '0' -> 0.0."""
    t = text.strip()
    if t == "0":
        return 0.0
    m = re.match(r"^([BW])\+(\d+(?:\.\d+)?)$", t)
    if not m:
        raise GtpError("unexpected final_score answer %r" % t)
    v = float(m.group(2))
    return v if m.group(1) == "W" else -v


def split_signed(s):
    """W-minus-B score -> (winner, margin)."""
    if abs(s) < 1e-9:
        return "", "0"
    return ("W" if s > 0 else "B"), fmt(abs(s))


def fmt(x):
    return ("%.1f" % x) if x != int(x) else ("%d" % x)


def counting_for(ru, mode):
    if mode != "sgf":
        return mode
    return "chinese" if AREA_RULES.search(ru or "") else "japanese"


def score_game(g, engines, tmpdir, timeout):
    props = g["props"]
    ru = props.get("RU", "")
    ha = int_prop(props, "HA")
    km = float_prop(props, "KM")
    rules = engines["mode_for"](ru)
    row = {"source": g["source"], "member": g["member"], "game": g["game"],
           "gnugo_score": "", "gnugo_winner": "", "gnugo_margin": "", "seconds": "",
           "gnugo_margin_kgs": "", "gnugo_winner_kgs": "", "gnugo_rules": rules, "gnugo_handicap": "",
           "rules_raw": ru, "handicap": ha or "", "komi": "" if km is None else fmt(km),
           "result_raw": props.get("RE", ""), "error": ""}
    path = os.path.join(tmpdir, "game-%d.sgf" % threading.get_ident())
    with open(path, "wb") as f:
        f.write(g["tree"])
    # A fresh GNU Go for every game (starting one takes milliseconds): the
    # result then depends on the game alone, not on the games scored before
    # it. In particular final_score caches its answer for a board identical
    # to the previous one, komi and prisoners ignored (play_gtp.c,
    # finish_and_score_game), which would be wrong for a second game with
    # the same final stones but another komi or other captures.
    gg = engines[rules]
    gg.close()
    gg.start()
    t0 = time.monotonic()
    deadline = t0 + timeout
    try:
        pos = gg.stderr_pos()
        gg.cmd("loadsgf " + path, deadline)
        warn = gg.stderr_since(pos)
        if "Move off board or on occupied position" in warn:
            raise GtpError("GNU Go stopped loading at an illegal move: "
                           + " ".join(warn.split())[:200])
        used_komi = gg.cmd("get_komi", deadline)
        used_handicap = int(gg.cmd("get_handicap", deadline) or 0)
        answer = gg.cmd("final_score", deadline)
        seconds = time.monotonic() - t0
        s = parse_score(answer)
    except GtpTimeout:
        row["error"] = "timeout after %g s" % timeout
        row["seconds"] = "%.2f" % (time.monotonic() - t0)
        return row
    except GtpError as e:
        row["error"] = " ".join(str(e).split())[:300]
        return row
    try:
        row["komi"] = fmt(float(used_komi))
    except ValueError:
        pass
    row["gnugo_score"] = answer
    row["gnugo_winner"], row["gnugo_margin"] = split_signed(s)
    row["gnugo_handicap"] = used_handicap
    area = rules == "chinese"
    gnugo_added = used_handicap if area else 0
    kgs_added = ha if (area and CHINESE_RULES.search(ru) and ha >= 2) else 0
    row["gnugo_winner_kgs"], row["gnugo_margin_kgs"] = split_signed(s - gnugo_added + kgs_added)
    row["seconds"] = "%.2f" % seconds
    return row


# --------------------------------------------------------------------------
# Selection and main
# --------------------------------------------------------------------------

def is_scored(props):
    return bool(SCORED_RE.match(props.get("RE", "")))


def read_game_list(path):
    keys = set()
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            keys.add((r["source"], r.get("member") or "", int(r["game"])))
    return keys


def select(all_games, n, seed):
    total = len(all_games)
    if n is None or n <= 0 or n >= total:
        return all_games
    if seed is not None:
        picked = sorted(random.Random(seed).sample(range(total), n))
    else:
        picked = [i * total // n for i in range(n)]
    return [all_games[i] for i in picked]


def agreement_summary(rows):
    """Agreement of GNU Go's answer with RE on rows whose RE is a score."""
    def agree(r, wcol, mcol):
        m = SCORED_RE.match(r["result_raw"])
        if not m or r[mcol] == "":
            return None
        rw, rm = m.group(1).upper(), float(m.group(2))
        return r[wcol] == rw, r[wcol] == rw and abs(float(r[mcol]) - rm) < 0.01

    out = []
    scored = [r for r in rows if SCORED_RE.match(r["result_raw"])]
    ok = [r for r in scored if r["gnugo_score"] != ""]
    secs = [float(r["seconds"]) for r in rows if r["seconds"] != "" and not r["error"]]
    out.append("%d games, %d with a scored RE, %d scored by GNU Go, %d failed"
               % (len(rows), len(scored), len(ok), sum(1 for r in rows if r["error"])))
    for label, wcol, mcol in (("raw", "gnugo_winner", "gnugo_margin"),
                              ("KGS handicap", "gnugo_winner_kgs", "gnugo_margin_kgs")):
        res = [agree(r, wcol, mcol) for r in ok]
        res = [x for x in res if x is not None]
        if res:
            w = sum(1 for x in res if x[0])
            e = sum(1 for x in res if x[1])
            out.append("  %-13s winner agrees %d/%d (%.1f%%), exact margin %d/%d (%.1f%%)"
                       % (label, w, len(res), 100.0 * w / len(res), e, len(res),
                          100.0 * e / len(res)))
    if secs:
        secs.sort()
        out.append("  seconds/game: mean %.2f, median %.2f, max %.2f (n=%d)"
                   % (sum(secs) / len(secs), secs[len(secs) // 2], secs[-1], len(secs)))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(
        description="Score Go records with GNU Go's final_score (see the header of this file).")
    ap.add_argument("paths", nargs="+", help="SGF files, directories, archives")
    ap.add_argument("--out", help="CSV to write (default: stdout)")
    ap.add_argument("--only-scored", action="store_true",
                    help="only games whose RE is like B+3.5 / W+0.5 (ended by counting)")
    ap.add_argument("--sample", type=int, default=0,
                    help="keep N games, evenly spaced in input order (0 = all)")
    ap.add_argument("--seed", type=int, help="with --sample: a seeded random sample instead")
    ap.add_argument("--games", help="CSV with source,member,game columns: only these games")
    ap.add_argument("--rules", choices=("sgf", "japanese", "chinese"), default="sgf",
                    help="counting: from each record's RU (default), or forced")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per game (default 60)")
    ap.add_argument("--level", type=int, help="GNU Go --level (default: GNU Go's own, 10)")
    ap.add_argument("--gnugo", help="GNU Go executable (default: $GNUGO, gnugo, /usr/games/gnugo)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="games scored at once, each job with its own GNU Go (default 1; "
                         "more jobs make `seconds` include contention)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args()

    exe = find_gnugo(args.gnugo)
    wanted = read_game_list(args.games) if args.games else None
    chosen = []
    for g in games(args.paths):
        if args.only_scored and not is_scored(g["props"]):
            continue
        if wanted is not None and (g["source"], g["member"], g["game"]) not in wanted:
            continue
        chosen.append(g)
    chosen = select(chosen, args.sample, args.seed)
    if not args.quiet:
        sys.stderr.write("gnugo_final_score: %d games to score with %s (rules: %s)\n"
                         % (len(chosen), exe, args.rules))

    tmpdir = tempfile.mkdtemp(prefix="gnugo-final-score-")
    local = threading.local()
    all_engines = []
    lock = threading.Lock()

    def engines():
        if not hasattr(local, "e"):
            e = {"japanese": Gnugo(exe, "japanese", args.level),
                 "chinese": Gnugo(exe, "chinese", args.level),
                 "mode_for": lambda ru: counting_for(ru, args.rules)}
            local.e = e
            with lock:
                all_engines.extend([e["japanese"], e["chinese"]])
        return local.e

    done = [0]

    def work(g):
        row = score_game(g, engines(), tmpdir, args.timeout)
        with lock:
            done[0] += 1
            if not args.quiet:
                where = g["member"] or g["source"]
                sys.stderr.write("[%d/%d] %s#%d RE=%s gnugo=%s %ss %s\n"
                                 % (done[0], len(chosen), where, g["game"], row["result_raw"],
                                    row["gnugo_score"] or "-", row["seconds"] or "-",
                                    row["error"]))
        return row

    rows = []
    try:
        if args.jobs <= 1:
            rows = [work(g) for g in chosen]
        else:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=args.jobs) as ex:
                rows = list(ex.map(work, chosen))
    finally:
        for gg in all_engines:
            gg.close()
        shutil.rmtree(tmpdir, ignore_errors=True)

    out = open(args.out, "w", newline="", encoding="utf-8") if args.out else sys.stdout
    w = csv.DictWriter(out, fieldnames=OUT_COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    if out is not sys.stdout:
        out.close()
    sys.stderr.write(agreement_summary(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
