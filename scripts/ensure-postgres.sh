#!/usr/bin/env bash
# Ensures a local PostgreSQL server on 127.0.0.1:5432 with role `palisade` (password `palisade`,
# CREATEDB) for the test suite. Idempotent; installs PostgreSQL with apt when missing (as root).
set -euo pipefail
say() { printf '==> %s\n' "$*"; }

if ! command -v pg_ctlcluster >/dev/null; then
  say "Installing PostgreSQL (apt)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
V=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$V main"; then
  say "Creating PostgreSQL $V cluster"
  pg_createcluster "$V" main >/dev/null
fi
if ! pg_lsclusters -h | awk -v v="$V" '$1==v && $2=="main" {print $4}' | grep -q online; then
  say "Starting PostgreSQL $V"
  pg_ctlcluster "$V" main start
fi
for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL did not become ready" >&2; exit 1; }
su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname='palisade'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"create role palisade login createdb password 'palisade'\""
# The tests drop their databases WITH (FORCE): that ends the sessions still in them, autovacuum
# workers included, which a role may only do as a member of pg_signal_backend.
su postgres -c "psql -qtAc \"select 1 where pg_has_role('palisade', 'pg_signal_backend', 'member')\"" | grep -q 1 ||
  su postgres -c "psql -qc 'grant pg_signal_backend to palisade'"
say "PostgreSQL $V ready on 127.0.0.1:5432"
