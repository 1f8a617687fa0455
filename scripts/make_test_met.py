#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes fixtures/bg/met/Kazaross-XG2-sharpened.xml: the shipped
Kazaross-XG2 table with every value p moved to p + 0.1 (p - 1/2) p (1 - p)
(a leader's chances a little higher, a trailer's lower; p + q = 1 stays so),
under another name. A table that is not the built-in one, for checking
`--met` against GNU Backgammon given the same file
(``MET=... scripts/gnubg_play_oracle.py``). Deterministic:

    python3 scripts/make_test_met.py
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "data/met/Kazaross-XG2.xml")
TARGET = os.path.join(ROOT, "fixtures/bg/met/Kazaross-XG2-sharpened.xml")


def sharpen(match):
    p = float(match.group(1))
    return f"<me>{p + 0.1 * (p - 0.5) * p * (1 - p):.6f}</me>"


def main():
    with open(SOURCE, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"<me>\s*([0-9.]+)\s*</me>", sharpen, text)
    text = text.replace("<name>Kazaross XG2 25 point MET</name>",
                        "<name>Kazaross XG2 sharpened (a test table)</name>")
    text = text.replace(
        "     $Id:",
        "     Modified for recount's tests by scripts/make_test_met.py: every\n"
        "     value p made p + 0.1 (p - 1/2) p (1 - p).\n\n     $Id:", 1)
    with open(TARGET, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
