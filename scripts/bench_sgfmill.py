#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peer benchmark for recount: replay Go games from .tar.gz archives with sgfmill.

For every SGF member of each archive (read streaming with tarfile, mode 'r:gz')
this does the same per-game work as recount:

  1. parse the SGF bytes with sgfmill.sgf.Sgf_game.from_bytes;
  2. replay the main line: sgfmill.sgf_moves.get_setup_and_moves, then
     sgfmill.boards.Board.play for each move (passes are skipped; a ValueError
     from play, i.e. a stone on an occupied point, is counted as an illegal
     move and skipped);
  3. compute a naive Tromp-Taylor area score of the final board (stones plus
     empty regions that reach only one colour; every stone counts as alive).

Games that get_setup_and_moves rejects (setup stones after the root node,
off-board move coordinates, an illegal setup position, ...) are replayed node
by node instead, skipping whatever cannot be applied, so they are still
counted as replayed.  A game that cannot be read or parsed at all counts as
failed; the script never stops on a bad game.

Output is plain text; the last line is machine-readable for scripts/bench.sh:

  RESULT games=N parsed=N failed=N seconds=S games_per_s=R ...

Usage:
  bench_sgfmill.py ARCHIVE.tar.gz [ARCHIVE.tar.gz ...] [--csv OUT.csv] [--limit N]
"""

import argparse
import csv
import sys
import tarfile
import time

try:
    import sgfmill
    from sgfmill import boards, sgf, sgf_moves, sgf_properties
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("bench_sgfmill.py: sgfmill is not installed "
             "(pip install -r scripts/requirements-bench.txt)")


class Stats:
    def __init__(self):
        self.games = 0            # SGF members seen
        self.parsed = 0           # games parsed and replayed
        self.failed = 0           # games that could not be read/parsed/replayed
        self.fallback = 0         # games replayed node by node (see module doc)
        self.moves = 0            # stones played
        self.passes = 0           # pass moves (B[], B[tt] on <=19x19)
        self.illegal = 0          # moves on an occupied point (Board.play ValueError)
        self.bad_moves = 0        # off-board / unparsable move values, skipped
        self.fail_reasons = {}    # short reason -> count

    def fail(self, reason):
        self.failed += 1
        key = reason.splitlines()[0][:70] if reason else "error"
        self.fail_reasons[key] = self.fail_reasons.get(key, 0) + 1


def tromp_taylor(board):
    """Return (black_area, white_area) of a sgfmill Board.

    Area = own stones + empty regions whose border reaches only that colour.
    Empty regions that touch both colours (or none) count for nobody.
    """
    size = board.side
    grid = board.board
    black = white = 0
    seen = [[False] * size for _ in range(size)]
    for r in range(size):
        row = grid[r]
        for c in range(size):
            colour = row[c]
            if colour == "b":
                black += 1
                continue
            if colour == "w":
                white += 1
                continue
            if seen[r][c]:
                continue
            # flood-fill this empty region
            seen[r][c] = True
            stack = [(r, c)]
            count = 0
            touches_b = touches_w = False
            while stack:
                y, x = stack.pop()
                count += 1
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= ny < size and 0 <= nx < size:
                        p = grid[ny][nx]
                        if p is None:
                            if not seen[ny][nx]:
                                seen[ny][nx] = True
                                stack.append((ny, nx))
                        elif p == "b":
                            touches_b = True
                        else:
                            touches_w = True
            if touches_b and not touches_w:
                black += count
            elif touches_w and not touches_b:
                white += count
    return black, white


def play_moves(board, moves, st):
    n = 0
    for colour, move in moves:
        if move is None:
            st.passes += 1
            continue
        row, col = move
        try:
            board.play(row, col, colour)
        except ValueError:       # occupied point
            st.illegal += 1
            continue
        except IndexError:       # off-board (cannot happen via sgfmill, but be safe)
            st.bad_moves += 1
            continue
        n += 1
    st.moves += n
    return n


def replay_leniently(game, st):
    """Node-by-node replay for games get_setup_and_moves refuses."""
    size = game.get_size()
    board = boards.Board(size)
    moves = 0
    for node in game.get_main_sequence():
        if node.has_setup_stones():
            try:
                ab, aw, ae = node.get_setup_stones()
                board.apply_setup(ab, aw, ae)
            except (ValueError, IndexError):
                st.bad_moves += 1
        try:
            colour, raw = node.get_raw_move()
        except (ValueError, KeyError):
            st.bad_moves += 1
            continue
        if colour is None:
            continue
        try:
            move = sgf_properties.interpret_go_point(raw, size)
        except ValueError:
            st.bad_moves += 1
            continue
        moves += play_moves(board, [(colour, move)], st)
    return board, moves


def replay_one(data, st):
    """Parse, replay and score one game. Returns a result row or raises."""
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    try:
        board, moves = sgf_moves.get_setup_and_moves(game)
        n = play_moves(board, moves, st)
    except ValueError:
        st.fallback += 1
        board, n = replay_leniently(game, st)
    black, white = tromp_taylor(board)
    try:
        komi = game.get_komi()
    except ValueError:
        komi = 0.0
    return size, n, black, white, komi


def run(paths, csv_path=None, limit=None):
    st = Stats()
    writer = None
    out = None
    if csv_path:
        out = open(csv_path, "w", newline="", encoding="utf-8")
        writer = csv.writer(out)
        writer.writerow(["archive", "member", "size", "moves", "black_area",
                         "white_area", "komi", "margin"])
    t0 = time.perf_counter()
    try:
        for path in paths:
            try:
                tf = tarfile.open(path, mode="r:gz")
            except (OSError, tarfile.TarError) as e:
                print(f"bench_sgfmill: cannot open {path}: {e}", file=sys.stderr)
                continue
            with tf:
                while True:
                    try:
                        member = tf.next()
                    except (OSError, EOFError, tarfile.TarError) as e:
                        print(f"bench_sgfmill: {path}: archive read error: {e}",
                              file=sys.stderr)
                        break
                    if member is None:
                        break
                    if not member.isfile() or not member.name.lower().endswith(".sgf"):
                        continue
                    if limit is not None and st.games >= limit:
                        break
                    st.games += 1
                    try:
                        f = tf.extractfile(member)
                        data = f.read() if f is not None else b""
                        size, n, black, white, komi = replay_one(data, st)
                    except Exception as e:  # never stop on a bad game
                        st.fail(f"{type(e).__name__}: {e}")
                        continue
                    st.parsed += 1
                    if writer is not None:
                        writer.writerow([path, member.name, size, n, black, white,
                                         komi, black - white - komi])
            if limit is not None and st.games >= limit:
                break
    finally:
        if out is not None:
            out.close()
    return st, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("archives", nargs="+", help=".tar.gz archives of SGF files")
    ap.add_argument("--csv", help="also write one CSV row per replayed game")
    ap.add_argument("--limit", type=int, help="stop after N games")
    args = ap.parse_args()

    st, secs = run(args.archives, args.csv, args.limit)
    rate = st.games / secs if secs > 0 else 0.0
    version = getattr(sgfmill, "__version__", "?")
    print(f"sgfmill {version}, Python {sys.version.split()[0]}, "
          f"{len(args.archives)} archive(s)")
    print(f"games: {st.games}  parsed+replayed: {st.parsed}  failed: {st.failed}  "
          f"(lenient replays: {st.fallback})")
    print(f"moves played: {st.moves}  passes: {st.passes}  "
          f"illegal (occupied point): {st.illegal}  bad/off-board skipped: {st.bad_moves}")
    for reason, count in sorted(st.fail_reasons.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  failure: {count} x {reason}")
    print(f"time: {secs:.2f} s = {rate:.0f} games/s")
    print(f"RESULT games={st.games} parsed={st.parsed} failed={st.failed} "
          f"fallback={st.fallback} moves={st.moves} illegal={st.illegal} "
          f"bad_moves={st.bad_moves} seconds={secs:.4f} games_per_s={rate:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
