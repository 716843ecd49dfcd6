#!/usr/bin/env bash
# CI's check that the compose files are read by the Compose tools a self-hoster has: Compose v2
# (`docker compose`, where its plugin is installed) and Debian 12's docker-compose 1.29 (which
# run.sh installs): `config` of each combination the README gives, with an .env made from
# .env.example, beside copies of the files (their `env_file: .env` must exist). A tool that
# refuses a file fails the run; docker-compose missing fails it too.
set -euo pipefail
cd "$(dirname "$0")/../.."

work=$(mktemp -d /tmp/kamen-compose.XXXXXX)
trap 'rm -rf "$work"' EXIT
{ sed -e 's/^DISCORD_TOKEN=$/DISCORD_TOKEN=placeholder/' .env.example; echo "POSTGRES_PASSWORD=placeholder"; } >"$work/.env"
cp compose.yaml compose.postgres.yaml compose.shards.yaml "$work"
cd "$work"

tools=("docker-compose")
command -v docker-compose >/dev/null || { echo "[compose] FAILED: no docker-compose (Debian's docker-compose)" >&2; exit 1; }
docker compose version >/dev/null 2>&1 && tools+=("docker compose")

for tool in "${tools[@]}"; do
    # shellcheck disable=SC2086  # "docker compose" is two words, unquoted on purpose below
    version=$($tool version --short 2>/dev/null || $tool version | head -1)
    for files in compose.yaml compose.yaml:compose.postgres.yaml \
        compose.yaml:compose.postgres.yaml:compose.shards.yaml; do
        args=()
        IFS=: read -ra names <<<"$files"
        for name in "${names[@]}"; do args+=(-f "$name"); done
        services=$($tool "${args[@]}" config --services) || {
            echo "[compose] FAILED: $tool ($version) refuses $files" >&2
            exit 1
        }
        echo "[compose] $tool $version: $files: $(echo $services | tr '\n' ' ')"
    done
done
