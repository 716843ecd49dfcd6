#!/usr/bin/env bash
# CI's docker part (.ci/run calls it): Kamen's image built and run for real.
#   1. a Docker engine: Debian's docker.io (and docker-compose 1.29) installed if missing, dockerd
#      started in the background if none answers (and stopped again at the end); the compose
#      files read by docker-compose 1.29 and Compose v2 where it is there (.ci/docker/compose.sh);
#   2. the stand-in base kamen-base:py311 (.ci/docker/base.sh; kept between runs);
#   3. docker build --build-arg BASE=kamen-base:py311 -t kamen:ci .
#   4. the container check (.ci/docker/check.py): healthy, not root, plays, keeps its database
#      in the volume across a restart;
#   5. the stand-in for postgres:16 (Debian's PostgreSQL on the stand-in base), tagged postgres:16
#      in this dockerd so that compose.postgres.yaml runs unchanged (.ci/docker/postgres.sh;
#      kept between runs);
#   6. the README's Docker backup and restore commands for SQLite and for PostgreSQL, run as
#      written there (.ci/docker/backups.py).
# Needs root (apt-get, dockerd, debootstrap), Debian's mirror and PyPI (the build stage's pip),
# and a kernel that lets dockerd make namespaces and cgroups. Whatever is missing fails the run
# with a message saying what: nothing here is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."

BASE_IMAGE=kamen-base:py311
IMAGE=kamen:ci
LOGS=/tmp/kamen-ci-docker
mkdir -p "$LOGS"
began=$SECONDS
mark=$SECONDS
lap() { # how long the step that just ended took
    echo "[docker] $1: $((SECONDS - mark)) s"
    mark=$SECONDS
}
die() {
    echo "[docker] FAILED: $*" >&2
    exit 1
}

# ---------------------------------------------------------------- 1. the engine
if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null \
    || ! command -v docker-compose >/dev/null; then
    [ "$(id -u)" = 0 ] || die "no Docker engine, and installing Debian's docker.io needs root"
    echo "[docker] installing Debian's docker.io, docker-compose (and debootstrap)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io docker-compose debootstrap; } \
        >"$LOGS/apt.log" 2>&1 || { tail -20 "$LOGS/apt.log" >&2; die "apt-get install docker.io docker-compose failed"; }
fi

started_pid=
stop_engine() {
    if [ -n "$started_pid" ] && kill -0 "$started_pid" 2>/dev/null; then
        echo "[docker] stopping the dockerd this run started (pid $started_pid)"
        kill -TERM "$started_pid"
        for _ in $(seq 30); do kill -0 "$started_pid" 2>/dev/null || break; sleep 1; done
    fi
}
trap stop_engine EXIT

if ! docker info >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || die "no Docker engine answers, and starting dockerd needs root"
    echo "[docker] starting dockerd (log: $LOGS/dockerd.log)"
    # No bridge and no iptables rules: everything here runs on the host's network (loopback).
    setsid dockerd --bridge=none --iptables=false --ip6tables=false \
        >"$LOGS/dockerd.log" 2>&1 </dev/null &
    started_pid=$!
    for _ in $(seq 60); do
        docker info >/dev/null 2>&1 && break
        kill -0 "$started_pid" 2>/dev/null || break
        sleep 1
    done
    docker info >/dev/null 2>&1 || {
        tail -20 "$LOGS/dockerd.log" >&2
        die "dockerd did not start: it needs root with the capabilities to make namespaces," \
            "cgroups and mounts (CAP_SYS_ADMIN), and a storage driver (overlay2 or vfs) on" \
            "/var/lib/docker; its log is above"
    }
fi
echo "[docker] engine: $(docker version --format 'client {{.Client.Version}}, server {{.Server.Version}}')"
lap "the engine"
bash .ci/docker/compose.sh || die "the compose files (.ci/docker/compose.sh)"
lap "the compose files"

# ---------------------------------------------------------------- 2. the stand-in base
bash .ci/docker/base.sh "$BASE_IMAGE"
lap "the stand-in base"

# ---------------------------------------------------------------- 3. the image
# The legacy builder: BuildKit needs the buildx plugin, which Debian 12 does not package.
# The build stage's pip reaches PyPI over the host's network, as the tests' pip does.
echo "[docker] docker build --build-arg BASE=$BASE_IMAGE -t $IMAGE ."
DOCKER_BUILDKIT=0 docker build --network host --build-arg "BASE=$BASE_IMAGE" -t "$IMAGE" . \
    >"$LOGS/build.log" 2>&1 || { tail -40 "$LOGS/build.log" >&2; die "docker build failed"; }
grep -E '^Step [0-9]+/' "$LOGS/build.log" | sed 's/^/[docker]   /'
docker image ls --format '[docker] {{.Repository}}:{{.Tag}} {{.Size}}' "$IMAGE"
docker image ls --format '[docker] {{.Repository}}:{{.Tag}} {{.Size}}' "$BASE_IMAGE"
lap "the image's build"

# ---------------------------------------------------------------- 4. the container check
.venv/bin/python .ci/docker/check.py "$IMAGE" || die "the container check (.ci/docker/check.py)"
lap "the container check"

# ---------------------------------------------------------------- 5. the stand-in postgres:16
LOGS=$LOGS bash .ci/docker/postgres.sh "$BASE_IMAGE" || die "the stand-in for postgres:16 (.ci/docker/postgres.sh)"
docker image ls --format '[docker] {{.Repository}}:{{.Tag}} {{.Size}}' postgres:16
lap "the stand-in postgres:16"

# ---------------------------------------------------------------- 6. the README's backups
.venv/bin/python .ci/docker/backups.py "$IMAGE" || die "the README's backups (.ci/docker/backups.py)"
lap "the README's Docker backups"
echo "[docker] all of the docker part: $((SECONDS - began)) s"
