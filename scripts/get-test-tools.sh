#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the tools the report tests use besides cargo (.ci/run calls it):
#
# 1. Debian's chromium, in which tests/tests/html.rs opens report.html
#    headless (console errors, a screenshot, the figures); through apt-get
#    when `chromium` is missing (needs root; skipped with NO_APT=1);
# 2. DuckDB's Python package in a venv, .venv-duckdb/ at the repository
#    root, in which tests/tests/duckdb.rs loads every report and joins them.
#
#   bash scripts/get-test-tools.sh     # prints chromium's and DuckDB's paths
#
# Without them those tests say why and pass; with RECOUNT_TEST_TOOLS=1
# (set by .ci/run) they fail instead.
#
# Environment:
#   VENV=DIR          venv folder (default .venv-duckdb)
#   DUCKDB_VERSION=V  pip requirement version (default 2.0.1)
#   PYTHON=EXE        interpreter to build the venv from (default python3)
#   NO_APT=1          do not install chromium
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV=${VENV:-.venv-duckdb}
DUCKDB_VERSION=${DUCKDB_VERSION:-2.0.1}
PYTHON=${PYTHON:-python3}

if ! command -v chromium >/dev/null 2>&1 && [ -z "${NO_APT:-}" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        chromium fonts-dejavu-core >/dev/null
fi

if ! "$VENV/bin/python" -c "import duckdb" >/dev/null 2>&1; then
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check "duckdb==$DUCKDB_VERSION"
fi

command -v chromium || echo "chromium: not installed"
echo "$PWD/$VENV/bin/python: duckdb $("$VENV/bin/python" -c 'import duckdb; print(duckdb.__version__)')"
