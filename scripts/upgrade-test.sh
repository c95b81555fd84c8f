#!/usr/bin/env bash
# The upgrade path of docs/operating.md ("Upgrading"), with the previous release's code: run by scripts/image-test.sh
# as `bash scripts/upgrade-test.sh <image> <PostgreSQL admin URL> <work folder>`.
#
# The previous release is the main line's commit before the one that added the newest migration (each merge on main's
# first-parent line is a release; UPGRADE_FROM=<git revision> chooses another), so there is always a migration to
# apply. Its code is taken from git, installed with pnpm and its JavaScript
# emitted with this checkout's esbuild script. It runs as ROLE=all on a fresh database, writes a finished turn, and is
# in the middle of a second one (a `/wait` of the offline model) when this image starts on the same database: the image
# applies the new migrations (forward-only) while the old process keeps working, the old process is stopped with
# SIGTERM and finishes its turn (its lease) on the migrated schema while it drains, and both sessions read back through
# the new image's API.
set -euo pipefail
IMAGE=$1
PG_ADMIN_URL=$2
WORK=$3
ROOT=$(pwd)
say() { printf '  %s\n' "$*"; }
fail() {
  printf '[upgrade-test] FAILED: %s\n' "$*" >&2
  for log in "$WORK"/upgrade-*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }; done
  exit 1
}

newest=$(find prisma/migrations -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tail -n 1)
if [ -z "${UPGRADE_FROM:-}" ]; then
  added=$(git log --first-parent --diff-filter=A --format=%H -n 1 -- "prisma/migrations/$newest/migration.sql")
  [ -n "$added" ] || fail "no commit adds prisma/migrations/$newest (a shallow clone? set UPGRADE_FROM)"
  UPGRADE_FROM="$added^"
fi
from=$(git rev-parse --short "$UPGRADE_FROM")
say "previous release: $from (before $newest was added)"

PREV=$WORK/previous
mkdir -p "$PREV"
git archive "$UPGRADE_FROM" | tar -x -C "$PREV"
(cd "$PREV" && pnpm install --frozen-lockfile --prefer-offline >"$WORK/upgrade-install.log" 2>&1) || fail "pnpm install of $from"
for pkg in packages/contract packages/db apps/server; do
  (cd "$PREV/$pkg" && node "$ROOT/scripts/emit-js.mjs" >>"$WORK/upgrade-install.log" 2>&1) || fail "emit $pkg of $from"
done
say "installed and built $from"

free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
DB="ap_image_test_$$_upgrade"
psql "$PG_ADMIN_URL" -qc "CREATE DATABASE \"$DB\"" >/dev/null
URL="${PG_ADMIN_URL%/*}/$DB"
KEY="ap_upgrade_$(openssl rand -hex 16)"
SECRETS_KEY=$(openssl rand -base64 32)
OLD_PORT=$(free_port)
NEW_PORT=$(free_port)
CTR=""
# SIGTERM to the container's PID 1 (tini), found as the parent of the process listening on its port.
stop_new() {
  local node
  node=$(ss -Hltnp "sport = :$NEW_PORT" | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)
  if [ -n "$node" ]; then kill -TERM "$(ps -o ppid= -p "$node" | tr -d ' ')" 2>/dev/null || true; fi
  wait "$NEW_PID" 2>/dev/null || true
}
cleanup() {
  if [ -n "${OLD_PID:-}" ]; then kill -TERM "$OLD_PID" 2>/dev/null || true; fi
  if [ -n "${NEW_PID:-}" ]; then stop_new; fi
  if [ -n "$CTR" ]; then buildah rm "$CTR" >/dev/null 2>&1 || true; fi
  psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# The old release, as its operators ran it (its worker drains for WORKER_DRAIN_MS, 10 s, on SIGTERM).
(cd "$PREV" && ROLE=all HOST=127.0.0.1 PORT=$OLD_PORT DATABASE_URL=$URL SECRETS_KEY=$SECRETS_KEY BOOTSTRAP_API_KEY=$KEY \
  DATA_DIR=$WORK/upgrade-old-data exec node apps/server/dist/main.js >"$WORK/upgrade-old.log" 2>&1) &
OLD_PID=$!
for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:$OLD_PORT/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -sf "http://127.0.0.1:$OLD_PORT/readyz" >/dev/null || fail "the previous release did not start"

node "$ROOT/scripts/image-test-api.mjs" start-turn "http://127.0.0.1:$OLD_PORT" "$KEY" builtin/script \
  "/wait 5000"$'\n'"/say finished during the upgrade" "$WORK/upgrade-state.json" || fail "writing with the previous release"
say "previous release: a finished turn and one in progress"

# The new image on the same database, while the old process still runs.
CTR=$(buildah from --pull=never "$IMAGE")
buildah run --isolation chroot --env TINI_SUBREAPER=1 --env DATABASE_URL="$URL" --env SECRETS_KEY="$SECRETS_KEY" \
  --env BOOTSTRAP_API_KEY="$KEY" --env HOST=127.0.0.1 --env PORT="$NEW_PORT" "$CTR" -- \
  /usr/bin/tini -- node /app/dist/main.js >"$WORK/upgrade-new.log" 2>&1 &
NEW_PID=$!
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$NEW_PORT/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -sf "http://127.0.0.1:$NEW_PORT/readyz" >/dev/null || fail "the new image did not start on the previous release's database"
grep -q "migrations applied" "$WORK/upgrade-new.log" && grep -q "$newest" "$WORK/upgrade-new.log" ||
  fail "the new image did not apply $newest"
curl -sf "http://127.0.0.1:$OLD_PORT/healthz" >/dev/null || fail "the previous release stopped during the migration"
say "new image: applied the pending migrations ($newest …) while the previous release kept running"

# The rolling restart's second half: the old process stops claiming and finishes the turn it holds.
kill -TERM "$OLD_PID"
code=0
wait "$OLD_PID" || code=$?
OLD_PID=""
[ "$code" = 0 ] || fail "the previous release exited with $code on SIGTERM"

node "$ROOT/scripts/image-test-api.mjs" check-upgrade "http://127.0.0.1:$NEW_PORT" "$KEY" "$WORK/upgrade-state.json" \
  "written by the previous release" "finished during the upgrade" || fail "reading and finishing with the new image"
say "the old process finished its turn on the migrated schema while draining"
stop_new
NEW_PID=""
