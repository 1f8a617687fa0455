#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what the Python package's and the Spark recipe's tests use
# (.ci/run calls it):
#
# 1. a venv, .venv-python/ at the repository root, with maturin (builds
#    python/, the package), pyarrow, pyspark, and pandas (pyspark's
#    mapInArrow needs it);
# 2. Java for Spark, Debian's default-jre-headless, through apt-get when
#    `java` is missing (needs root; skipped with NO_APT=1).
#
#   bash scripts/get-python-tools.sh     # prints what it found
#
# The tests (tests/tests/python.rs) build the package into the venv
# themselves (`maturin develop`), so it is never older than the code.
# Without the venv or Java they say why and pass; with RECOUNT_TEST_TOOLS=1
# (set by .ci/run) they fail instead.
#
# Environment:
#   VENV=DIR       venv folder (default .venv-python)
#   PYTHON=EXE     interpreter to build the venv from (default python3)
#   NO_APT=1       do not install Java
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV=${VENV:-.venv-python}
PYTHON=${PYTHON:-python3}
MATURIN_VERSION=${MATURIN_VERSION:-1.16.0}
PYARROW_VERSION=${PYARROW_VERSION:-26.0.1}
PYSPARK_VERSION=${PYSPARK_VERSION:-4.3.0}
# mapInArrow needs pandas installed, though the recipe uses none of it.
PANDAS_VERSION=${PANDAS_VERSION:-3.1.1}

if ! command -v java >/dev/null 2>&1 && [ -z "${NO_APT:-}" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        default-jre-headless >/dev/null
fi

if ! [ -x "$VENV/bin/maturin" ] || ! "$VENV/bin/python" -c "import pyarrow, pyspark, pandas" >/dev/null 2>&1; then
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
        "maturin==$MATURIN_VERSION" "pyarrow==$PYARROW_VERSION" "pyspark==$PYSPARK_VERSION" "pandas==$PANDAS_VERSION"
fi

command -v java >/dev/null && java -version 2>&1 | head -1 || echo "java: not installed"
"$VENV/bin/python" -c 'import pyarrow, pyspark; print("pyarrow", pyarrow.__version__, "pyspark", pyspark.__version__)'
"$VENV/bin/maturin" --version
