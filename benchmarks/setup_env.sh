#!/usr/bin/env bash
# Create (or update) the dedicated benchmark virtualenv with numbadlx
# (editable, with its cli and dask extras for memory.py and dask_cluster.py) and the
# peer solvers pinned in benchmarks/requirements.txt. See benchmarks/README.md.
#
#   bash benchmarks/setup_env.sh            # venv at <repo>/.venv-bench
#   NUMBADLX_BENCH_VENV=/tmp/v bash benchmarks/setup_env.sh
#   PYTHON=python3.12 bash benchmarks/setup_env.sh
#
# Idempotent: reuses an existing venv; pip skips satisfied pins.
# Then: <venv>/bin/python benchmarks/peers.py --selftest
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
VENV="${NUMBADLX_BENCH_VENV:-$ROOT/.venv-bench}"
PY="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "setup_env: creating virtualenv $VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi
# keep the venv out of git status wherever it lives
[ -f "$VENV/.gitignore" ] || printf '*\n' > "$VENV/.gitignore"

VPY="$VENV/bin/python"
PIP=("$VPY" -m pip install --quiet --disable-pip-version-check)
if [ -f "$ROOT/pyproject.toml" ] || [ -f "$ROOT/setup.py" ]; then
    # one resolver run, so numbadlx's own numpy/numba ranges must agree with our pins
    echo "setup_env: installing pinned benchmark requirements + numbadlx[cli,dask]" \
         "(editable) from $ROOT"
    "${PIP[@]}" -r "$HERE/requirements.txt" -e "$ROOT[cli,dask]"
else
    echo "setup_env: WARNING: no pyproject.toml/setup.py in $ROOT yet;" \
         "installing peers only, numbadlx NOT installed" >&2
    "${PIP[@]}" -r "$HERE/requirements.txt"
fi

"$VPY" "$HERE/peers.py" --versions
echo "setup_env: ready: $VPY (smoke test: $VPY $HERE/peers.py --selftest)"
