# Shared helpers for the set-up scripts (sourced, not run).
say() { printf '\n==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

require_node() {
  command -v node >/dev/null || die "Node.js >= 20.19 is required (https://nodejs.org or your distribution's nodejs package)."
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
    die "Node.js >= 20.19 is required; found $(node --version)."
}

ensure_pnpm() {
  if ! command -v pnpm >/dev/null || ! pnpm --version 2>/dev/null | grep -q '^10\.'; then
    say "Installing pnpm 10 with npm"
    npm install -g pnpm@10.34.9 >/dev/null 2>&1 || die "could not install pnpm with npm (try: sudo npm install -g pnpm@10)"
  fi
}

install_dependencies() {
  say "Installing dependencies (pnpm install)"
  CI=true pnpm install --frozen-lockfile --reporter=append-only 2>&1 | grep -vE '^\s*$|Progress|^\+|^-' | tail -n 5 || true
  [ -d node_modules/.pnpm ] || die "pnpm install failed"
}

is_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
  is_root || die "missing system packages: $*; re-run as root or install them: apt-get install -y $*"
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
