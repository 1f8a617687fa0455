#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fetches GNU Backgammon's data files (neural net weights, bearoff
# databases, match equity table) from the PyPI wheel of `gnubg` (GNU
# Backgammon as a Python extension) into .gnubg-data/ at the repository
# root, without installing anything:
#
#   bash scripts/get-gnubg-weights.sh     # prints the folder path last
#
# What lands there (the wheel's gnubg/data/, checked against the wheel's
# RECORD sha256 digests):
#
#   gnubg.weights         the nets as text: "GNU Backgammon 1.01", then six
#                         nets (contact, race, crashed, pruning contact,
#                         pruning crashed, pruning race)
#   gnubg.wd              the same nets in gnubg's binary format (f32 magic
#                         472.3782, f32 version 1.01, then the six nets)
#   gnubg_os0.bd          one-sided bearoff database (6 points, 15 chequers)
#   gnubg_ts0.bd          two-sided bearoff database (6 points, 6 chequers);
#                         recount builds its own, this copy is only for the
#                         test that compares the two value by value
#   met/Kazaross-XG2.xml  the match equity table this build loads
#   SOURCE                which wheel the files came from, and their sha256
#
# The wheel also carries gnubg_os.db, a byte-identical copy of
# gnubg_os0.bd under a name gnubg never opens (it looks for gnubg_os.bd);
# it is not copied.
#
# Idempotent: when every file above is present, nothing is fetched. A new
# folder is filled as a temporary folder and renamed into place, so an
# interrupted run leaves no half-filled .gnubg-data/.
#
# Needs python3 with pip (Debian: apt-get install python3-pip) and access
# to PyPI (or to the index pip is configured with).
#
# Environment:
#   GNUBG_DATA=DIR     destination (default .gnubg-data at the repo root)
#   GNUBG_VERSION=V    wheel version (default 1.1.0a16, the version of
#                      .venv-gnubg, see scripts/gnubg-venv.sh)
#   PYTHON=EXE         interpreter that runs pip (default python3)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

DEST=${GNUBG_DATA:-$PWD/.gnubg-data}
GNUBG_VERSION=${GNUBG_VERSION:-1.1.0a16}
PYTHON=${PYTHON:-python3}
FILES=(gnubg.weights gnubg.wd gnubg_os0.bd gnubg_ts0.bd met/Kazaross-XG2.xml)

die() {
    echo "get-gnubg-weights.sh: $*" >&2
    exit 1
}

complete() {
    local f
    for f in "${FILES[@]}" SOURCE; do
        [ -s "$DEST/$f" ] || return 1
    done
}

if complete; then
    echo "get-gnubg-weights.sh: $DEST already holds gnubg's data files; nothing to do" >&2
    echo "$DEST"
    exit 0
fi

command -v "$PYTHON" >/dev/null 2>&1 \
    || die "'$PYTHON' not found: install Python 3 (Debian: apt-get install python3 python3-pip)"
"$PYTHON" -m pip --version >/dev/null 2>&1 \
    || die "'$PYTHON -m pip' does not work: install pip (Debian: apt-get install python3-pip)"

if [ -e "$DEST" ] && [ ! -d "$DEST" ]; then
    die "$DEST exists and is not a folder"
fi
parent=$(dirname "$DEST")
mkdir -p "$parent" || die "cannot create $parent"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gnubg-wheel.XXXXXX") || die "cannot make a temporary folder"
stage=""
cleanup() {
    rm -rf "$tmp"
    if [ -n "$stage" ]; then rm -rf "$stage"; fi
}
trap cleanup EXIT

pipdl=("$PYTHON" -m pip download --disable-pip-version-check --no-deps
       --only-binary=:all: --dest "$tmp" "gnubg==$GNUBG_VERSION")

# The data files are the same in every wheel of a version; a wheel for this
# interpreter is tried first, then the CPython 3.11 manylinux x86_64 one
# (pip can fetch a wheel for another platform; nothing is installed).
if ! "${pipdl[@]}" >"$tmp/pip.log" 2>&1; then
    echo "get-gnubg-weights.sh: no gnubg $GNUBG_VERSION wheel for this Python/platform;" \
         "trying the cp311 manylinux x86_64 wheel" >&2
    if ! "${pipdl[@]}" --platform manylinux_2_28_x86_64 --python-version 3.11 \
            --implementation cp --abi cp311 >>"$tmp/pip.log" 2>&1; then
        cat "$tmp/pip.log" >&2
        die "pip could not download the gnubg $GNUBG_VERSION wheel (see pip's output above;" \
            "network access to PyPI is needed)"
    fi
fi

shopt -s nullglob
wheels=("$tmp"/gnubg-*.whl)
shopt -u nullglob
[ ${#wheels[@]} -eq 1 ] || die "expected one gnubg wheel in $tmp, found ${#wheels[@]}"
wheel=${wheels[0]}

stage=$(mktemp -d "$parent/.gnubg-data.tmp.XXXXXX") || die "cannot make a folder in $parent"

# Extract gnubg/data/* (but the duplicate gnubg_os.db), checking each file's
# sha256 against the wheel's RECORD.
"$PYTHON" - "$wheel" "$stage" "${FILES[@]}" <<'EOF' || die "extracting $(basename "$wheel") failed"
import base64
import csv
import hashlib
import io
import os
import sys
import zipfile

wheel, stage, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
prefix = "gnubg/data/"
skip = {"gnubg_os.db"}

with zipfile.ZipFile(wheel) as z:
    records = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")]
    if len(records) != 1:
        sys.exit("no RECORD in the wheel")
    digests = {}
    for row in csv.reader(io.TextIOWrapper(z.open(records[0]), "utf-8")):
        if len(row) >= 2 and row[1].startswith("sha256="):
            digests[row[0]] = row[1][len("sha256="):]
    sums = []
    for name in sorted(z.namelist()):
        if not name.startswith(prefix) or name.endswith("/"):
            continue
        rel = name[len(prefix):]
        if rel in skip:
            continue
        data = z.read(name)
        h = hashlib.sha256(data)
        got = base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode()
        if digests.get(name) != got:
            sys.exit("%s: sha256 does not match the wheel's RECORD" % name)
        out = os.path.join(stage, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
        sums.append("%s  %s" % (h.hexdigest(), rel))
    missing = [w for w in wanted if not os.path.isfile(os.path.join(stage, w))]
    if missing:
        sys.exit("the wheel lacks %s" % ", ".join(missing))
    with open(os.path.join(stage, "SOURCE"), "w") as f:
        f.write("Extracted by scripts/get-gnubg-weights.sh from the PyPI wheel\n")
        f.write("%s\n\nsha256:\n" % os.path.basename(wheel))
        f.write("\n".join(sums) + "\n")
EOF

# Header sanity: the text weights' version line and the binary magic.
head -1 "$stage/gnubg.weights" | grep -q '^GNU Backgammon 1\.01$' \
    || die "gnubg.weights: unexpected first line: $(head -1 "$stage/gnubg.weights")"
"$PYTHON" -c '
import struct, sys
magic, version = struct.unpack("<ff", open(sys.argv[1], "rb").read(8))
sys.exit(0 if (magic, version) == (struct.unpack("<f", struct.pack("<f", 472.3782))[0],
                                   struct.unpack("<f", struct.pack("<f", 1.01))[0]) else 1)
' "$stage/gnubg.wd" || die "gnubg.wd: not a gnubg 1.01 binary weights file"

# A new folder is renamed into place whole; an existing, incomplete one
# (an earlier run's leftovers) gets the files copied over it (nothing in it
# is deleted).
if [ -d "$DEST" ]; then
    cp -R "$stage"/. "$DEST"/ || die "cannot copy the files into $DEST"
else
    mv "$stage" "$DEST" || die "cannot move the files into $DEST"
    stage=""
fi
chmod -R u+rwX,go+rX "$DEST"

echo "get-gnubg-weights.sh: gnubg's data files from $(basename "$wheel") are in $DEST" >&2
echo "$DEST"
