#!/usr/bin/env bash
# Throwaway PostgreSQL for the server tests: loopback only, trust auth, fsync off.
#
#   tools/pg_test_server.sh start   # installs Debian's postgresql if absent, starts a cluster on a
#                                   # free 127.0.0.1 port, prints its DSN (last line of stdout)
#   tools/pg_test_server.sh stop    # stops it and removes its files
#
# The cluster lives under build/pgtest/ (or a /tmp directory when the postgres user cannot reach
# build/, e.g. a clone under /root). As root the server runs as the postgres user (initdb refuses
# root). State (data dir, port) is kept in build/pgtest/state for `stop`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
STATE_DIR=$ROOT/build/pgtest
STATE=$STATE_DIR/state

log() { echo "pg_test_server: $*" >&2; }

pg_bin() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install_pg() {
    if [ -n "$(pg_bin)" ]; then return; fi
    if [ "$(id -u)" != 0 ]; then log "PostgreSQL is not installed and this is not root: apt-get install postgresql"; exit 1; fi
    log "installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends postgresql >&2
    [ -n "$(pg_bin)" ] || { log "postgresql installed but no initdb found"; exit 1; }
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    install_pg
    local bin port data
    bin=$(pg_bin)
    if [ -f "$STATE" ]; then stop || true; fi
    mkdir -p "$STATE_DIR"
    data=$STATE_DIR/data.$$
    mkdir -p "$data"
    if [ "$(id -u)" = 0 ]; then
        id postgres >/dev/null 2>&1 || { log "no postgres user"; exit 1; }
        chown postgres "$data"
        if ! runuser -u postgres -- test -w "$data"; then
            rmdir "$data"
            data=$(mktemp -d /tmp/mt-pgtest.XXXXXX)
            chown postgres "$data"
        fi
    fi
    chmod 700 "$data"
    as_pg "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$STATE_DIR/initdb.log" 2>&1 || { cat "$STATE_DIR/initdb.log" >&2; exit 1; }
    for attempt in 1 2 3; do
        port=$(free_port)
        if as_pg "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
            -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=128MB" \
            start >&2; then
            printf 'DATA=%q\nPORT=%q\nBIN=%q\n' "$data" "$port" "$bin" >"$STATE"
            echo "postgresql://postgres@127.0.0.1:$port/postgres"
            return 0
        fi
        log "start on port $port failed (attempt $attempt)"
        tail -n 5 "$data/server.log" >&2 || true
    done
    exit 1
}

stop() {
    [ -f "$STATE" ] || return 0
    # shellcheck disable=SC1090
    . "$STATE"
    as_pg "$BIN/pg_ctl" -D "$DATA" -m immediate -w stop >&2 2>/dev/null || true
    rm -rf "$DATA" "$STATE"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
