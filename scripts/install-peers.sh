#!/usr/bin/env bash
# Installs the pinned MCP peers that agentconf checks as real implementations, each into its
# own folder under the peers cache, with `npm ci` from the committed lockfile (so a fresh
# machine and CI get exactly the versions the peer pages were written from).
#
#   scripts/install-peers.sh                      # every npm peer of peers/
#   scripts/install-peers.sh server-filesystem    # only these
#
# into .cache/peers/<peer>/ of this checkout. `agentconf matrix` installs the same way, and
# pypi peers too (each into its own venv).
# The profiles find it through {peers_cache}: by default .cache/peers beside the peers folder.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$repo/.cache/peers"

if ! command -v npm >/dev/null 2>&1; then
    echo "install-peers: npm is not on PATH; install Node.js 20 or newer first" >&2
    exit 2
fi

if [ "$#" -eq 0 ]; then
    set -- $(cd "$repo/peers" && for lock in */package-lock.json; do dirname "$lock"; done)
fi
for peer in "$@"; do
    peer_dir="$repo/peers/$peer"
    if [ ! -f "$peer_dir/package-lock.json" ]; then
        echo "install-peers: peers/$peer has no package-lock.json (not an npm peer)" >&2
        exit 2
    fi
    target="$cache/$peer"
    mkdir -p "$target"
    cp "$peer_dir/package.json" "$peer_dir/package-lock.json" "$target/"
    echo "install-peers: $peer -> $target"
    # --ignore-scripts: a peer under test gets no install-time code execution on the host.
    (cd "$target" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
done
