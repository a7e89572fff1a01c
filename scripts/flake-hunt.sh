#!/usr/bin/env bash
# Runs the whole suite N times (default 10) against the reference, examples/node and
# examples/plain-python on a loaded machine and lists every check whose outcome changed.
# See scripts/flake_hunt.py.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec "$repo/.venv/bin/python" "$repo/scripts/flake_hunt.py" -n "${1:-10}" "${@:2}"
