#!/usr/bin/env bash
# Starts Palisade on the embedded database: console and API on http://localhost:${PORT:-8000}.
# Installs what it needs (pnpm via npm, the workspace's dependencies), builds, then runs.
# Honours PORT, DATA_DIR (default ./data), ADMIN_PASSWORD (first start only) and the other
# variables of docs/configuration.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export TURBO_TELEMETRY_DISABLED=1

require_node
ensure_pnpm
install_dependencies
say "Building the API and the console"
pnpm exec turbo run build --filter=@palisade/api --filter=@palisade/web --output-logs=errors-only
say "Starting Palisade on http://localhost:${PORT:-8000} (data in ${DATA_DIR:-./data}; Ctrl-C stops it)"
exec node --enable-source-maps apps/api/dist/main.js
