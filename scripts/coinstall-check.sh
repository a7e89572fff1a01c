#!/usr/bin/env bash
# Does agentconf-kit install beside the agent frameworks it checks in-process? A `python:`
# implementation runs in the kit's own environment, so the kit's dependency ranges must leave room
# for theirs. This builds the wheel, installs it with the frameworks in ONE fresh venv (one
# resolver pass, as a user's `pip install` would), runs `pip check`, then, from a folder outside
# any checkout, `agentconf run` against the reference (must be GREEN) and, unless --quick,
# `pytest --agentconf-impl reference` (the packaged suites through pytest's own front door).
#
#   scripts/coinstall-check.sh            # the frameworks below, full check
#   scripts/coinstall-check.sh --quick    # install + pip check + agentconf run on one category
#   scripts/coinstall-check.sh --lowest   # the kit alone at the LOWEST version of every range
#
# Everything happens in a temporary folder that is removed at the end, whatever happens.
set -euo pipefail

FRAMEWORKS=(strands-agents-tools==0.8.10 deepagents==0.7.32)
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quick=0
lowest=0
[ "${1:-}" = "--quick" ] && quick=1
[ "${1:-}" = "--lowest" ] && lowest=1 && quick=1

work="$(mktemp -d -t agentconf-coinstall-XXXXXX)"
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "build the wheel"
python3 -m pip wheel -q --no-deps "$repo" -w "$work/dist" 2>&1 | grep -v '^WARNING: Location' || true
wheel="$(ls "$work"/dist/agentconf_kit-*.whl)"
echo "$(basename "$wheel")"

python3 -m venv "$work/venv"
py="$work/venv/bin/python"
if [ "$lowest" -eq 1 ]; then
    # Every `>=X,<Y` dependency pinned to X: the oldest versions the ranges promise to work with.
    python3 - "$repo/pyproject.toml" > "$work/lowest.txt" <<'PY'
import re, sys, tomllib
for requirement in tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]:
    name, low = re.match(r"([A-Za-z0-9_.-]+)\s*>=\s*([^,;\s]+)", requirement).groups()
    print(f"{name}=={low}")
PY
    FRAMEWORKS=()
    step "one venv: the wheel at the lowest versions: $(tr '\n' ' ' < "$work/lowest.txt")"
    "$py" -m pip install -q "$wheel" -c "$work/lowest.txt" 2>&1 | grep -v '^WARNING: Location' || true
else
    step "one venv: the wheel + ${FRAMEWORKS[*]}"
    "$py" -m pip install -q "$wheel" "${FRAMEWORKS[@]}" 2>&1 | grep -v '^WARNING: Location' || true
fi
"$py" -m pip list --format=freeze 2>/dev/null \
    | grep -iE '^(agentconf-kit|strands-agents|strands-agents-tools|deepagents|mcp|pydantic|jsonschema|hypothesis|pytest|pytest-xdist|syrupy|ripgrep|langchain-core|langgraph)=' \
    || true

step "pip check"
"$py" -m pip check

# Outside any checkout: the packaged suites and fixtures must be found in site-packages.
mkdir -p "$work/elsewhere"
cd "$work/elsewhere"

if [ "${#FRAMEWORKS[@]}" -gt 0 ]; then
    step "import the frameworks beside agentconf"
    "$py" -c 'import agentconf, strands_tools, deepagents; print("agentconf", agentconf.__version__)'
fi

if [ "$quick" -eq 1 ]; then
    step "agentconf run --clauses CONFINE,EDIT (outside a checkout)"
    "$work/venv/bin/agentconf" run --clauses CONFINE,EDIT -n 2 --report "$work/report"
    step "pytest --agentconf-impl reference --agentconf-clauses READ (the packaged suites)"
    "$py" -m pytest -q -n 2 -p no:cacheprovider --agentconf-impl reference \
        --agentconf-clauses READ | tail -n 3
else
    step "agentconf run (outside a checkout): must be GREEN"
    "$work/venv/bin/agentconf" run -n 2 --report "$work/report"
    step "pytest --agentconf-impl reference (the packaged suites)"
    "$py" -m pytest -q -n 2 -p no:cacheprovider --agentconf-impl reference | tail -n 3
fi
step "co-install check passed"
