#!/usr/bin/env bash
# Real PostgreSQL, Redis and memcached for `interleave real` and
# `tests/real.rs`, on loopback ports, in a directory this script owns.
#
#   scripts/services.sh up      install what is missing (Debian packages
#                               postgresql, redis-server, memcached), start
#                               all three, wait until each answers, write
#                               the URLs to $DIR/env and print them
#   scripts/services.sh status  say which answer
#   scripts/services.sh down    stop them and remove $DIR
#
# After `up`: `source "$DIR/env"` (default DIR: /tmp/interleave-services)
# exports INTERLEAVE_POSTGRES_URL, INTERLEAVE_REDIS_URL and
# INTERLEAVE_MEMCACHED_URL. Only 127.0.0.1 is ever used; no system service
# is started (PostgreSQL runs its own initdb cluster, as the `postgres`
# user when this runs as root, since postgres refuses to run as root).
# Idempotent: `up` twice leaves the running services alone.

set -euo pipefail

DIR=${INTERLEAVE_SERVICES_DIR:-/tmp/interleave-services}
PG_PORT=${INTERLEAVE_PG_PORT:-55432}
REDIS_PORT=${INTERLEAVE_REDIS_PORT:-56379}
MEMCACHED_PORT=${INTERLEAVE_MEMCACHED_PORT:-51211}
HOST=127.0.0.1

say() { echo "services: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else say "need root to run: $*"; return 1
  fi
}

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

install_missing() {
  local packages=()
  pg_bin >/dev/null || packages+=(postgresql)
  command -v redis-server >/dev/null || packages+=(redis-server)
  command -v memcached >/dev/null || packages+=(memcached)
  if [ ${#packages[@]} -gt 0 ]; then
    say "installing ${packages[*]} (apt)"
    as_root apt-get update -qq
    # Debian's maintainer scripts would start system services; no thanks.
    as_root env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 \
      apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2
  fi
}

# Runs a command as the user that owns the PostgreSQL cluster.
as_pg_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"
  else "$@"
  fi
}

postgres_answers() { "$(pg_bin)/pg_isready" -q -h "$HOST" -p "$PG_PORT" 2>/dev/null; }
redis_answers() { [ "$(redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }
memcached_answers() {
  local reply
  reply=$(timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$MEMCACHED_PORT; printf 'version\r\n' >&3; head -c 7 <&3" 2>/dev/null) || return 1
  [ "$reply" = VERSION ]
}

wait_for() {
  local name=$1 check=$2
  for _ in $(seq 1 100); do
    if $check; then return 0; fi
    sleep 0.1
  done
  say "$name did not answer within 10 s"
  return 1
}

start_postgres() {
  postgres_answers && return 0
  local bin data=$DIR/postgres
  bin=$(pg_bin)
  mkdir -p "$data"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$data"; fi
  if [ ! -f "$data/PG_VERSION" ]; then
    as_pg_user "$bin/initdb" -D "$data" -U interleave --auth=trust -E UTF8 >"$DIR/initdb.log" 2>&1
  fi
  as_pg_user "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 30 \
    -o "-c listen_addresses=$HOST -p $PG_PORT -k $data -c fsync=off -c max_connections=200" \
    start >/dev/null
  wait_for postgres postgres_answers
}

start_redis() {
  redis_answers && return 0
  mkdir -p "$DIR/redis"
  redis-server --bind "$HOST" --port "$REDIS_PORT" --daemonize yes \
    --dir "$DIR/redis" --pidfile "$DIR/redis/redis.pid" --logfile "$DIR/redis/redis.log" \
    --save "" --appendonly no >/dev/null
  wait_for redis redis_answers
}

start_memcached() {
  memcached_answers && return 0
  mkdir -p "$DIR/memcached"
  local user=()
  if [ "$(id -u)" -eq 0 ]; then user=(-u root); fi
  memcached -d -l "$HOST" -p "$MEMCACHED_PORT" -U 0 "${user[@]}" \
    -P "$DIR/memcached/memcached.pid"
  wait_for memcached memcached_answers
}

write_env() {
  cat >"$DIR/env" <<EOF
export INTERLEAVE_POSTGRES_URL=postgres://interleave@$HOST:$PG_PORT/postgres
export INTERLEAVE_REDIS_URL=redis://$HOST:$REDIS_PORT/
export INTERLEAVE_MEMCACHED_URL=memcache://$HOST:$MEMCACHED_PORT
EOF
  cat "$DIR/env"
}

up() {
  install_missing
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  start_postgres
  start_redis
  start_memcached
  write_env
  say "up; source $DIR/env"
}

down() {
  if [ -f "$DIR/postgres/postmaster.pid" ]; then
    as_pg_user "$(pg_bin)/pg_ctl" -D "$DIR/postgres" -m fast -w stop >/dev/null || true
  fi
  if redis_answers; then redis-cli -h "$HOST" -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true; fi
  if [ -f "$DIR/memcached/memcached.pid" ]; then
    kill "$(cat "$DIR/memcached/memcached.pid")" 2>/dev/null || true
  fi
  for _ in $(seq 1 50); do
    postgres_answers || redis_answers || memcached_answers || break
    sleep 0.1
  done
  rm -rf "$DIR"
  say "down"
}

status() {
  local all=0
  for service in postgres redis memcached; do
    if "${service}_answers"; then echo "$service: up"; else echo "$service: down"; all=1; fi
  done
  return $all
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
