#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the GNU Backgammon oracles' tools:
#
# 1. a Python venv holding gnubg's Python bindings, the PyPI package `gnubg`
#    (GNU Backgammon built as a Python extension), in which the backgammon
#    oracles scripts/gnubg_ids.py and scripts/gnubg_legal.py run;
# 2. the gnubg program itself, Debian's package `gnubg` (/usr/games/gnubg),
#    through apt-get when it is missing: the PyPI build cannot read SGF (its
#    SGF parser is stubbed out), so scripts/gnubg_ids.py hands .sgf files
#    to that program's embedded Python. Needs root; skipped with NO_APT=1.
#
#   bash scripts/gnubg-venv.sh          # then: .venv-gnubg/bin/python ...
#
# Environment:
#   VENV=DIR          venv folder (default .venv-gnubg at the repo root;
#                     .gitignore already ignores /.venv*/)
#   GNUBG_VERSION=V   pip requirement version (default 1.1.0a16, the one
#                     fixtures/expected/bg-ids.csv was made with; "" = newest)
#   PYTHON=EXE        interpreter to build the venv from (default python3)
#   NO_APT=1          do not install Debian's gnubg (no .sgf in the oracle)
#
# Prints the venv's python path on its last line.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV=${VENV:-.venv-gnubg}
GNUBG_VERSION=${GNUBG_VERSION-1.1.0a16}
PYTHON=${PYTHON:-python3}

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi

req=gnubg
if [ -n "$GNUBG_VERSION" ]; then
    req="gnubg==$GNUBG_VERSION"
fi

# The package is a pre-release (1.1.0aN): --pre lets pip pick it when no
# version is pinned.
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --pre "$req" >&2
"$VENV/bin/python" -c 'import gnubg, sys; print("gnubg", gnubg.__version__, file=sys.stderr)'

if [ "${NO_APT:-0}" != 1 ] && [ ! -x /usr/games/gnubg ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnubg >&2
    else
        echo "gnubg-venv.sh: not root: install Debian's gnubg by hand for .sgf files" >&2
    fi
fi
if [ -x /usr/games/gnubg ]; then
    /usr/games/gnubg --version 2>/dev/null | head -1 >&2
fi
echo "$PWD/$VENV/bin/python"
