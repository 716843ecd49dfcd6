#!/usr/bin/env bash
# Builds the stand-in for the official postgres:16 (postgres/Dockerfile, postgres/entrypoint.sh)
# on the stand-in base and tags it postgres:16 in CI's own dockerd, so that compose.postgres.yaml
# is used unchanged (its `image: postgres:16` is found locally, never pulled): the official image
# cannot be pulled here, Debian's package mirror can.
#
# What differs from postgres:16:
#   - PostgreSQL 15 (Debian 12's postgresql-15), not 16: the only major version Debian 12 has.
#     pg_dump and pg_restore run in the same container as the server, so they match it.
#   - Debian's binaries in /usr/lib/postgresql/15/bin (first in PATH), no gosu (setpriv drops
#     root), locale C.UTF-8 (the official image's default is en_US.utf8).
#   - TCP connections from loopback need the password too (the official image trusts them); the
#     bot connects with the password from .env either way.
#   - Of the official entrypoint's settings only POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB
#     and POSTGRES_INITDB_ARGS, and *.sh and *.sql in /docker-entrypoint-initdb.d.
# Kept between runs: skipped when postgres:16 exists with the label kamen.postgres-script equal
# to the sha256 of this script, the Dockerfile and the entrypoint and the base image's id;
# KAMEN_POSTGRES_REBUILD=1 forces it.
set -euo pipefail
cd "$(dirname "$0")"

BASE=${1:-kamen-base:py311}
IMAGE=postgres:16
base_id=$(docker image inspect --format '{{.Id}}' "$BASE")
sum=$({ cat postgres.sh postgres/Dockerfile postgres/entrypoint.sh; echo "$base_id"; } | sha256sum | cut -d' ' -f1)

if [ "${KAMEN_POSTGRES_REBUILD:-0}" != 1 ] \
    && made_by=$(docker image inspect --format '{{ index .Config.Labels "kamen.postgres-script" }}' "$IMAGE" 2>/dev/null) \
    && [ "$made_by" = "$sum" ]; then
    echo "postgres: $IMAGE exists, the stand-in built by this script: kept"
    exit 0
fi

log=${LOGS:-/tmp}/postgres-build.log
echo "postgres: docker build --build-arg BASE=$BASE -t $IMAGE .ci/docker/postgres (Debian's postgresql-15)"
DOCKER_BUILDKIT=0 docker build --network host --build-arg "BASE=$BASE" \
    --label "kamen.postgres-script=$sum" \
    --label "org.opencontainers.image.description=Stand-in for postgres:16: Debian's postgresql-15 on $BASE" \
    -t "$IMAGE" postgres >"$log" 2>&1 || {
    tail -40 "$log" >&2
    echo "postgres: the stand-in's build failed (it needs Debian's mirror; log: $log)" >&2
    exit 1
}
docker image ls "$IMAGE"
