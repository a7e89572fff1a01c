#!/usr/bin/env bash
# Installs the pinned MCP peers that agentconf checks as real implementations, each into its
# own folder under the peers cache, with `npm ci` from the committed lockfile (so a fresh
# machine and CI get exactly the versions the peer pages were written from).
#
#   scripts/install-peers.sh        # into .cache/peers/<peer>/ of this checkout
#
# The profiles find it from their own folder: {profile_dir}/../../.cache/peers/<peer>/...
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$repo/.cache/peers"

if ! command -v npm >/dev/null 2>&1; then
    echo "install-peers: npm is not on PATH; install Node.js 20 or newer first" >&2
    exit 2
fi

for peer_dir in "$repo"/fixtures/peers/*/; do
    peer="$(basename "$peer_dir")"
    target="$cache/$peer"
    mkdir -p "$target"
    cp "$peer_dir/package.json" "$peer_dir/package-lock.json" "$target/"
    echo "install-peers: $peer -> $target"
    # --ignore-scripts: a peer under test gets no install-time code execution on the host.
    (cd "$target" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
done
