#!/bin/sh
# Runs the official MCP filesystem server's own test suite (its source, src/filesystem of
# github.com/modelcontextprotocol/servers) with its path-validation.js and lib.js aliased to
# fsnative's. Needs npm/ installed (cd npm && npm ci). Usage:
#   bench/mcp_filesystem_suite/run.sh /path/to/servers/src/filesystem [vitest args...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: run.sh SERVERS_CHECKOUT/src/filesystem [vitest args]}
shift
cd "$src"
[ -d node_modules ] || npm install
# structured-content.test.ts starts the built server (dist/index.js).
[ -f dist/index.js ] || npm run build
npx vitest run --config "$here/vitest.config.mjs" --root "$src" "$@"
