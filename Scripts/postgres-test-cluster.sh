#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the PostgreSQL sync store's tests, locally and in CI.
#
#   url=$(Scripts/postgres-test-cluster.sh start /tmp/boutique-pg)   # prints postgresql://postgres@127.0.0.1:PORT/postgres
#   BOUTIQUE_TEST_POSTGRES_URL=$url swift test --filter PostgreSQL
#   Scripts/postgres-test-cluster.sh stop /tmp/boutique-pg           # stops it and removes the folder
#
# `start DIR` creates the cluster in DIR/data (DIR must be missing or empty), with trust authentication
# for the `postgres` user, listening on 127.0.0.1 on a free port and on a unix socket in DIR. It waits
# until the server accepts connections, then prints the URL on stdout and writes it to DIR/url.
# PostgreSQL refuses to run as root, so as root the binaries run as the `postgres` user; otherwise as
# the current user. The cluster is for tests only: it does not fsync, and anyone on the machine can
# connect to it.
#
# `stop DIR` stops the server (fast shutdown) and removes DIR, only if DIR holds a cluster this script
# made.
#
# PG_BIN overrides where the binaries are (default /usr/lib/postgresql/15/bin).
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
MARKER=.boutique-postgres-test-cluster

usage() {
    echo "usage: $0 start DIR | stop DIR" >&2
    exit 2
}

# Runs a PostgreSQL binary as the user that owns the cluster.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    local dir=$1
    if [ ! -x "$PG_BIN/initdb" ]; then
        echo "error: $PG_BIN/initdb not found (install postgresql-15, or set PG_BIN)" >&2
        exit 1
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ -n "$(ls -A "$dir")" ]; then
        echo "error: $dir is not empty" >&2
        exit 1
    fi
    touch "$dir/$MARKER"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
        if ! runuser -u postgres -- test -w "$dir"; then
            echo "error: the postgres user cannot reach $dir (a parent folder is private); use a folder under /tmp" >&2
            exit 1
        fi
    fi

    as_owner "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }

    # Another process may take the port between choosing it and the server binding it: try a few.
    local port attempt
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        # Many tests run at once, each with a database and a few connections of its own.
        if as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
            start >/dev/null; then
            break
        fi
        echo "warning: the server did not start on port $port (attempt $attempt)" >&2
        port=
    done
    if [ -z "$port" ]; then
        tail -n 30 "$dir/postgres.log" >&2 || true
        echo "error: the server did not start" >&2
        exit 1
    fi

    local ready=
    for attempt in $(seq 1 60); do
        if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres; then
            ready=1
            break
        fi
        sleep 0.5
    done
    if [ -z "$ready" ]; then
        tail -n 30 "$dir/postgres.log" >&2 || true
        echo "error: the server on port $port is not ready" >&2
        exit 1
    fi

    local url="postgresql://postgres@127.0.0.1:$port/postgres"
    echo "$url" >"$dir/url"
    echo "$url"
}

stop() {
    local dir=$1
    if [ ! -e "$dir/$MARKER" ]; then
        echo "error: $dir holds no cluster made by $0; leaving it alone" >&2
        exit 1
    fi
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
    fi
    rm -rf "$dir"
}

[ $# -eq 2 ] || usage
case $1 in
start) start "$2" ;;
stop) stop "$2" ;;
*) usage ;;
esac
