#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Derive fixtures/expected/gnugo-replay.csv: for every .sgf under fixtures/go/
# (sorted by path, byte order), the captures and the final position after
# replaying the main line, as computed by GNU Go -- an implementation
# independent of recount's own replay.
#
#   file,captures_by_black,captures_by_white,final_position
#
# captures_by_black = WHITE stones captured by Black (prisoners Black holds);
# final_position = rows top (SGF row a) to bottom, '/'-separated, X black,
# O white, k = run of k empty points. Details, and why GTP `captures black`
# means "captured BY black", are in scripts/gnugo_oracle.py.
#
# Before any fixture, the helper runs a self-test on a hand-made 5x5 game
# (Black takes 1 stone, White takes 2, an asymmetric final position, passes
# written as B[] and W[tt]); the run stops if GNU Go's answers do not match.
#
# Needs GNU Go (Debian: apt-get install gnugo, installs /usr/games/gnugo;
# the CSV in the repository was made with GNU Go 3.8, Debian 3.8-11) and
# python3. Override the binary with GNUGO=/path/to/gnugo.
#
# A file GNU Go cannot load completely gets a row with empty values and a
# warning on stderr; the run goes on.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=fixtures/expected/gnugo-replay.csv
mkdir -p "$(dirname "$out")"

# fixtures/go/formats/ is checked against its own SGF twins
# (tests/tests/goformats.rs), not GNU Go: the other formats are not SGF.
mapfile -t files < <(find fixtures/go -type f -name '*.sgf' -not -path 'fixtures/go/formats/*' | LC_ALL=C sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "no .sgf files under fixtures/go" >&2
  exit 1
fi

tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
python3 scripts/gnugo_oracle.py --root "$root" --out "$tmp" "${files[@]}"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out ($(( $(wc -l < "$out") - 1 )) rows)" >&2
