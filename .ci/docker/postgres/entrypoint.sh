#!/usr/bin/env bash
# The stand-in's entrypoint (Dockerfile): what the official postgres image's does with the
# settings compose.postgres.yaml gives it. As root: $PGDATA made the postgres user's, then
# this script again as postgres. As postgres, when $PGDATA holds no cluster: initdb with
# POSTGRES_USER as the superuser and POSTGRES_PASSWORD as its password, a server on the Unix
# socket alone (no TCP, so that a TCP health check fails until the initialisation is over)
# that creates POSTGRES_DB and runs /docker-entrypoint-initdb.d/*.sh and *.sql, stopped again.
# Then the server itself, as PID 1, listening on every address, port 5432.
set -Eeuo pipefail

if [ "${1:-}" = postgres ] && [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA"
    chown postgres:postgres "$PGDATA"
    chmod 700 "$PGDATA"
    install -d -o postgres -g postgres -m 3777 /var/run/postgresql
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_USER:=postgres}"
    : "${POSTGRES_DB:=$POSTGRES_USER}"
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "error: the database is not initialised and POSTGRES_PASSWORD is not set" >&2
        exit 1
    fi
    echo "initialising the database in $PGDATA for user $POSTGRES_USER, database $POSTGRES_DB"
    # The password over a pipe, never in the process list. Local (Unix socket) connections are
    # trusted, as in the official image; TCP ones, loopback's too, need the password.
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 ${POSTGRES_INITDB_ARGS:-}
    printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"

    pg_ctl --pgdata="$PGDATA" --wait --options="-c listen_addresses='' -p 5432" start
    psql=(psql -v ON_ERROR_STOP=1 --no-psqlrc --username="$POSTGRES_USER" --dbname=postgres)
    if [ "$POSTGRES_DB" != postgres ]; then
        "${psql[@]}" --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
    fi
    shopt -s nullglob
    for script in /docker-entrypoint-initdb.d/*; do
        case "$script" in
            *.sh) echo "running $script"; . "$script" ;;
            *.sql) echo "running $script"; "${psql[@]}" --dbname="$POSTGRES_DB" -f "$script" ;;
            *) echo "ignoring $script" ;;
        esac
    done
    pg_ctl --pgdata="$PGDATA" --wait --mode=fast stop
    echo "initialised: the server starts"
fi

if [ "${1:-}" = postgres ]; then
    shift
    exec postgres -c listen_addresses='*' -p 5432 "$@"
fi
exec "$@"
