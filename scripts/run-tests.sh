#!/usr/bin/env bash
# Runs the whole Palisade test suite on a fresh Debian machine: installs what it needs (pnpm via
# npm; PostgreSQL and Chromium via apt when run as root), starts PostgreSQL, then runs lint,
# type checks, the api-client staleness check, unit and integration tests (real PostgreSQL), the
# production build, the console end-to-end tests (Playwright driving Debian Chromium) and the
# system tests (real WireGuard tooling and wireguard-go in network namespaces; needs root).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
export TURBO_TELEMETRY_DISABLED=1 CI=true
RESULTS="$PWD/.tmp/test-results"
rm -rf "$RESULTS" && mkdir -p "$RESULTS"
started=$(date +%s)

require_node
ensure_pnpm
if [ ! -x /usr/bin/chromium ]; then
  say "Installing Chromium (apt) for the console end-to-end tests"
  apt_install chromium
fi
if ! command -v wg >/dev/null || ! command -v wireguard-go >/dev/null || ! command -v nft >/dev/null; then
  say "Installing WireGuard tools, wireguard-go and nftables (apt) for the system tests"
  apt_install wireguard-tools wireguard-go nftables iproute2 iputils-ping
fi
if ! command -v gpg >/dev/null; then
  say "Installing GnuPG (apt) for the YubiKey provisioning station tests"
  apt_install gnupg
fi
if [ ! -x /usr/sbin/slapd ] || ! command -v ldapmodify >/dev/null; then
  say "Installing OpenLDAP (apt) for the LDAP tests (a private slapd per test file)"
  apt_install slapd ldap-utils
fi
bash scripts/ensure-postgres.sh
install_dependencies

say "Lint (Biome)"
pnpm exec biome ci --reporter=summary .

say "Type checks"
pnpm exec turbo run typecheck --output-logs=errors-only

say "api-client matches the API's OpenAPI document"
pnpm check:api-client

say "Gateway protocol: buf lint, generated code up to date"
pnpm --filter @palisade/proto lint
pnpm --filter @palisade/proto check

say "Unit, integration and gateway system tests (vitest; real PostgreSQL, wireguard-go)"
for pkg in contracts wireguard api web gateway provisioner cli; do
  dir=packages/$pkg; [ -d "$dir" ] || dir=apps/$pkg
  (cd "$dir" && pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest-$pkg.json")
done

say "Production build"
pnpm exec turbo run build --filter=@palisade/api --filter=@palisade/web --output-logs=errors-only

say "Console end-to-end tests (Playwright + Debian Chromium)"
(cd e2e && PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/playwright.json" pnpm exec playwright test --reporter=list,json)

say "System tests (real WireGuard tooling in network namespaces)"
(cd e2e && PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/playwright-system.json" pnpm exec playwright test -c playwright.system.config.ts --reporter=list,json)

node scripts/summarize-tests.mjs "$RESULTS"
echo "All checks passed in $(( $(date +%s) - started )) s."
