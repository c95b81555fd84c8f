#!/usr/bin/env bash
# Builds the container image from the root Dockerfile as users build it, runs it, and checks what an operator relies on:
# /readyz, the start banner, one agent turn with the offline model, a non-root process, the HEALTHCHECK, a graceful
# stop on SIGTERM, the one-container trial (embedded PostgreSQL in a volume), the migration command compose and
# Kubernetes run, and an upgrade from the previous release's database. Run as root: `bash scripts/image-test.sh`
# (`.ci/run` runs it when buildah can be installed). IMAGE_TEST_FULL=1 also builds the `full` target and opens a page
# with its browser tool (about 8 more minutes: Chromium's packages).
#
# No registry is reachable here, so the base image users pull (debian:trixie-slim) is made once with debootstrap from
# the Debian mirror apt is configured with, slimmed like Debian's official slim image, and kept in buildah's storage
# under the same name; later runs reuse it and buildah's layer cache. Containers run with `buildah run --isolation
# chroot` (podman cannot set a container's rlimits in this sandbox), which shares the host's network: the container
# reaches the host's PostgreSQL on 127.0.0.1 and listens on a free port of the host.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

BASE=docker.io/library/debian:trixie-slim
IMAGE=localhost/agent-platform:image-test
CACHE=${IMAGE_TEST_CACHE:-/var/cache/agent-platform-image-test}
PG_ADMIN_URL=${IMAGE_TEST_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/postgres}
WORK=$(mktemp -d /tmp/ap-image-test.XXXXXX)
START=$SECONDS

phase() { printf '[image-test] +%ss %s\n' "$((SECONDS - START))" "$*"; }
fail() {
  printf '[image-test] FAILED: %s\n' "$*" >&2
  for log in "$WORK"/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -n 40 "$log" >&2; }; done
  exit 1
}

CONTAINERS=()
DATABASES=()
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for ctr in "${CONTAINERS[@]}"; do buildah rm "$ctr" >/dev/null 2>&1 || true; done
  for db in "${DATABASES[@]}"; do psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || fail "run as root (buildah's chroot isolation and debootstrap need it)"

phase "tools"
missing=()
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The Debian mirror and npm registry this machine reaches (the image's defaults are the public ones).
MIRROR=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=$(awk '/^URIs:/ && /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
SECURITY_MIRROR=${SECURITY_MIRROR:-${MIRROR%/debian}/debian-security}
REGISTRY=$(npm config get registry 2>/dev/null || echo https://registry.npmjs.org/)
# The CA certificates this machine trusts, for a proxy that intercepts TLS on the way to the registry.
CA_SECRET=()
CA_FILE=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
[ -s "$CA_FILE" ] && CA_SECRET=(--secret "id=ca,src=$CA_FILE")

phase "base image $BASE"
if buildah inspect --type image "$BASE" >/dev/null 2>&1; then
  echo "  in buildah's storage already"
else
  mkdir -p "$CACHE"
  if [ ! -f "$CACHE/trixie-slim.tar" ]; then
    echo "  debootstrap --variant=minbase trixie from $MIRROR (once; a few minutes)"
    rootfs="$CACHE/rootfs.tmp"
    rm -rf "$rootfs"
    debootstrap --variant=minbase trixie "$rootfs" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || fail "debootstrap"
    # As Debian's slim images are made: no documentation, manuals or translations, now or from later installs.
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
EOF
    find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    rm -rf "$rootfs"/usr/share/{man,groff,info,lintian,linda,locale}/* "$rootfs"/var/lib/apt/lists/* \
      "$rootfs"/var/cache/apt/* "$rootfs"/var/log/*.log "$rootfs/etc/apt/sources.list"
    # The official image's apt sources, on Debian's public mirror: builds point them elsewhere with build arguments.
    cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie trixie-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: trixie-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    tar -C "$rootfs" -cf "$CACHE/trixie-slim.tar.tmp" . && mv "$CACHE/trixie-slim.tar.tmp" "$CACHE/trixie-slim.tar"
    rm -rf "$rootfs"
  fi
  ctr=$(buildah from scratch)
  mnt=$(buildah mount "$ctr")
  tar -C "$mnt" -xf "$CACHE/trixie-slim.tar"
  buildah umount "$ctr" >/dev/null
  buildah config --cmd bash --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
  buildah commit --quiet --rm "$ctr" "$BASE" >/dev/null
  echo "  imported as $BASE"
fi

# No --layers: intermediate images would pile up in buildah's storage with every source change; the package store is a
# cache mount instead (kept by buildah between runs), so a rebuild downloads nothing the lockfile did not change.
build() { # <target> <tag>
  local previous
  previous=$(buildah images --quiet "$2" 2>/dev/null | head -n 1 || true)
  # Each output line stamped with the seconds since the build began, to print the slowest steps below.
  local began=$SECONDS
  set +e
  buildah bud --isolation chroot --pull=never --no-cache --force-rm --format docker --target "$1" \
    --build-arg DEBIAN_MIRROR="$MIRROR" --build-arg DEBIAN_SECURITY_MIRROR="$SECURITY_MIRROR" \
    --build-arg NPM_REGISTRY="$REGISTRY" "${CA_SECRET[@]}" -t "$2" . 2>&1 |
    while IFS= read -r line; do printf '%5d %s\n' "$((SECONDS - began))" "$line"; done >"$WORK/build-$1.log"
  local code=${PIPESTATUS[0]}
  set -e
  [ "$code" = 0 ] || fail "buildah bud --target $1"
  # The Dockerfile's steps that took longest (a step lasts until the next one starts).
  awk '/ STEP [0-9]+\/[0-9]+: / { if (step) print $1 - at, step; at = $1; step = substr($0, index($0, "STEP"), 90) }
    END { if (step) print '"$((SECONDS - began))"' - at, step }' "$WORK/build-$1.log" |
    sort -rn | head -n 4 | awk '{ printf "  %4d s  %s\n", $1, substr($0, index($0, $2)) }'

  # The image this tag named before, unless it is the same (nothing changed).
  if [ -n "$previous" ] && [ "$previous" != "$(buildah images --quiet "$2" | head -n 1)" ]; then
    buildah rmi "$previous" >/dev/null 2>&1 || true
  fi
}
size_of() { buildah images --format '{{.Size}}' "$1" | head -n 1; }

phase "build (target slim)"
build slim "$IMAGE"
echo "  $IMAGE: $(size_of "$IMAGE")"
config=$(buildah inspect --type image "$IMAGE" | node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(0)).Docker.config))')
node -e '
  const c = JSON.parse(process.argv[1]);
  const problems = [];
  if (!/^\d+$/.test(c.User ?? "") && (c.User ?? "") !== "agent-platform") problems.push(`User is ${c.User}`);
  if (!c.Healthcheck?.Test?.join(" ").includes("healthcheck")) problems.push("no HEALTHCHECK");
  if (JSON.stringify(c.Cmd) !== JSON.stringify(["node", "/app/dist/main.js"])) problems.push(`Cmd is ${c.Cmd}`);
  if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
' "$config" || fail "image configuration"
mapfile -t ENTRY < <(node -e 'const c = JSON.parse(process.argv[1]); for (const a of [...(c.Entrypoint ?? []), ...c.Cmd]) console.log(a)' "$config")

free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
new_database() {
  local name="ap_image_test_$$_$1"
  psql "$PG_ADMIN_URL" -qc "CREATE DATABASE \"$name\"" >/dev/null || fail "create database $name"
  DATABASES+=("$name")
  echo "${PG_ADMIN_URL%/*}/$name"
}
# Starts the image's entrypoint and command in a new container (`docker run`'s equivalent): run <name> [--volume …]
# [--env …]; the container's output goes to $WORK/<name>.log, its `buildah run` pid to RUN_PID.
run() {
  local name=$1; shift
  local ctr
  ctr=$(buildah from --pull=never --name "ap-image-test-$$-$name" "${RUN_IMAGE:-$IMAGE}")
  CONTAINERS+=("$ctr")
  buildah run --isolation chroot --env TINI_SUBREAPER=1 "$@" "$ctr" -- "${ENTRY[@]}" >"$WORK/$name.log" 2>&1 &
  RUN_PID=$!
  PIDS+=("$RUN_PID")
}
wait_ready() { # <port> <log>
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  fail "/readyz on port $1 did not answer 200 within 60 s (log: $2)"
}
# The supervisor prints the banner once every child serves; /readyz answers as soon as the first one does.
wait_banner() { # <log>
  for _ in $(seq 1 300); do
    grep -q "Agent Platform is running" "$1" && return 0
    sleep 0.2
  done
  fail "no banner within 60 s of /readyz (log: $1)"
}
# The pid listening on a port, and its user id.
listener_uid() { awk '/^Uid:/ { print $2 }' "/proc/$(ss -Hltnp "sport = :$1" | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)/status"; }
# SIGTERM as `docker stop` sends it, to PID 1 (tini: the parent of the process listening on the port), then the exit
# code of the container's process.
stop() { # <run pid> <port> <log>
  local node tini
  node=$(ss -Hltnp "sport = :$2" | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)
  tini=$(ps -o ppid= -p "$node" | tr -d ' ')
  grep -q tini "/proc/$tini/cmdline" || fail "the server's parent is not tini: $(tr '\0' ' ' <"/proc/$tini/cmdline")"
  kill -TERM "$tini"
  local code=0
  wait "$1" || code=$?
  [ "$code" = 0 ] || fail "the container exited with $code after SIGTERM (log: $3)"
  grep -q '"shutting down"' "$3" || fail "no graceful shutdown in $3"
}
# One turn with builtin/echo through the HTTP API, as the README's quick start does it.
agent_turn() { # <base url> <api key>
  node scripts/image-test-api.mjs turn "$1" "$2" builtin/echo "Hello from the image" "Hello from the image" ||
    fail "agent turn"
}

phase "run: ROLE=all against the host's PostgreSQL"
PORT=$(free_port)
URL=$(new_database all)
KEY="ap_image_test_$(openssl rand -hex 16)"
run all --env DATABASE_URL="$URL" --env SECRETS_KEY="$(openssl rand -base64 32)" --env BOOTSTRAP_API_KEY="$KEY" \
  --env HOST=127.0.0.1 --env PORT="$PORT"
wait_ready "$PORT" "$WORK/all.log"
wait_banner "$WORK/all.log"
# One process per core under a supervisor (PROCESSES, default the CPUs the container sees): the banner says how many.
grep -Eq "Agent Platform is running \(ROLE=all(, [0-9]+ processes)?\)" "$WORK/all.log" || fail "no banner"
[ "$(grep -c "Agent Platform is running" "$WORK/all.log")" = 1 ] || fail "the banner was printed more than once"
grep -q "Base URL:   http://127.0.0.1:$PORT" "$WORK/all.log" || fail "the banner's base URL"
grep -q "Console:    http://127.0.0.1:$PORT/console" "$WORK/all.log" || fail "the banner's console URL"
uid=$(listener_uid "$PORT")
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "the server runs as uid '$uid', not an unprivileged user"
echo "  /readyz 200, banner printed, server uid $uid"
for path in /healthz /console /docs /v1/openapi.json; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT$path")
  [ "$code" = 200 ] || fail "GET $path answered $code"
done
echo "  /healthz, /console, /docs, /v1/openapi.json: 200"
ctr_all=${CONTAINERS[-1]}
buildah run --isolation chroot --env HOST=127.0.0.1 --env PORT="$PORT" "$ctr_all" -- node /app/healthcheck.mjs ||
  fail "the HEALTHCHECK command failed against a running server"
echo "  HEALTHCHECK command: healthy"
agent_turn "http://127.0.0.1:$PORT" "$KEY"
stop "$RUN_PID" "$PORT" "$WORK/all.log"
echo "  SIGTERM: graceful shutdown, exit code 0"

phase "run: the one-container trial (embedded PostgreSQL in the /data volume, default HOST)"
DATA=$WORK/data
mkdir -p "$DATA"
chown 10001:10001 "$DATA"
chmod 0700 "$DATA"
PORT=$(free_port)
run trial --volume "$DATA:/data" --env PORT="$PORT"
wait_ready "$PORT" "$WORK/trial.log"
wait_banner "$WORK/trial.log"
grep -q "Base URL:   http://127.0.0.1:$PORT" "$WORK/trial.log" || fail "the trial's banner does not show a URL to open"
[ -s "$DATA/api-key" ] || fail "no api-key in the data volume"
grep -q "API key:    $(cat "$DATA/api-key")" "$WORK/trial.log" || fail "the banner does not print the generated key"
agent_turn "http://127.0.0.1:$PORT" "$(cat "$DATA/api-key")"
stop "$RUN_PID" "$PORT" "$WORK/trial.log"
[ "$(stat -c %u "$DATA/postgres")" = 10001 ] || fail "the embedded database is not owned by the image's user"
echo "  embedded PostgreSQL under /data (uid 10001), key saved to /data/api-key, stopped cleanly"

phase "run: the migration command (compose's migrate service, Kubernetes' Job)"
URL=$(new_database migrate)
ctr=$(buildah from --pull=never "$IMAGE")
CONTAINERS+=("$ctr")
buildah run --isolation chroot --env DATABASE_URL="$URL" "$ctr" -- \
  node /app/node_modules/@agent-platform/db/dist/cli/migrate.js >"$WORK/migrate.log" 2>&1 || fail "migrate"
grep -q "^Applied: " "$WORK/migrate.log" || fail "migrate applied nothing"
buildah run --isolation chroot --env DATABASE_URL="$URL" "$ctr" -- \
  node /app/node_modules/@agent-platform/db/dist/cli/migrate.js >"$WORK/migrate-again.log" 2>&1 || fail "migrate again"
grep -q "No pending migrations." "$WORK/migrate-again.log" || fail "a second migrate was not a no-op"
echo "  $(wc -w <<<"$(sed 's/^Applied: //; s/,//g' "$WORK/migrate.log")") migrations applied, then none pending"

phase "upgrade: the previous release's database to this image"
bash scripts/upgrade-test.sh "$IMAGE" "$PG_ADMIN_URL" "$WORK" || fail "upgrade"

if [ "${IMAGE_TEST_FULL:-0}" = 1 ]; then
  phase "build (target full)"
  build full "$IMAGE-full"
  echo "  $IMAGE-full: $(size_of "$IMAGE-full")"

  # buildah's chroot isolation cannot host the bubblewrap boundary: the kernel refuses a new user namespace to a
  # chrooted process. So the boundary is tested on the host (test/tools/browser-confinement.test.ts); here, that the
  # image's Chromium, bubblewrap and socat are there and that the browser tool works with BROWSER_CONFINEMENT=none.
  phase "run: the full image's browser tool (unconfined: see above)"
  ctr=$(buildah from --pull=never "$IMAGE-full")
  CONTAINERS+=("$ctr")
  buildah run --isolation chroot "$ctr" -- sh -c 'chromium --version && bwrap --version && socat -V | head -n 2' \
    >"$WORK/full-tools.log" 2>&1 || fail "chromium, bwrap or socat missing from the full image"
  sed 's/^/  /' "$WORK/full-tools.log" | head -n 3
  # A page on the host's loopback for the browser to open (the operator opens loopback with EGRESS_ALLOW_CIDRS).
  PAGE_PORT=$(free_port)
  node -e '
    require("http").createServer((_, res) => res.end("<title>Image test page</title><h1>Hello from the host</h1>"))
      .listen(Number(process.argv[1]), "127.0.0.1");
  ' "$PAGE_PORT" &
  PIDS+=("$!")
  PORT=$(free_port)
  URL=$(new_database full)
  RUN_IMAGE=$IMAGE-full run full --env DATABASE_URL="$URL" --env SECRETS_KEY="$(openssl rand -base64 32)" \
    --env BOOTSTRAP_API_KEY="$KEY" --env HOST=127.0.0.1 --env PORT="$PORT" --env EGRESS_ALLOW_CIDRS=127.0.0.1/32 \
    --env BROWSER_CONFINEMENT=none
  wait_ready "$PORT" "$WORK/full.log"
  node scripts/image-test-api.mjs turn "http://127.0.0.1:$PORT" "$KEY" builtin/script \
    "/call browser {\"action\": \"navigate\", \"url\": \"http://127.0.0.1:$PAGE_PORT/\"}"$'\n'"/say done" done browser \
    >"$WORK/full-turn.log" 2>&1 || fail "browser turn ($(cat "$WORK/full-turn.log"))"
  cat "$WORK/full-turn.log"
  grep -q "Hello from the host" "$WORK/full-turn.log" || fail "the browser did not read the host's page"
  stop "$RUN_PID" "$PORT" "$WORK/full.log"
fi

phase "done: slim image $(size_of "$IMAGE"), $((SECONDS - START)) s in all"
