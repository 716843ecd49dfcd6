#!/usr/bin/env bash
# Builds kamen-base:py311, the stand-in for python:3.11-slim-trixie that CI builds Kamen's image
# on (`docker build --build-arg BASE=kamen-base:py311 .`): the official image cannot be pulled
# here, Debian's package mirror can. A Debian minbase made by debootstrap, with Debian's Python.
#
# What differs from python:3.11-slim-trixie:
#   - Debian 12 (bookworm), not 13 (trixie): this machine's release, whose debootstrap and
#     keyring are at hand. Older libc (2.36), OpenSSL 3.0, SQLite 3.40 under Python's sqlite3.
#   - Debian's build of Python 3.11 (python3.11, 3.11.2 plus Debian's patches), not python.org's
#     latest 3.11 built from source. It lives in /usr/bin and /usr/lib/python3.11, not
#     /usr/local; `python` and `pip` are symlinks in /usr/local/bin to python3.11 and pip3, so
#     the Dockerfile's commands run unchanged. Debian's pip is 23.0 (the official image has a
#     newer one) and marks the system Python externally managed (PEP 668): `pip wheel` and
#     `pip --python VENV install` are not affected, a bare `pip install` would be refused.
#   - `python -m venv` needs Debian's python3-venv (installed here); the official image has it
#     built in. No PYTHON_VERSION or GPG_KEY in the environment.
#   - Python's headers come from Debian's libpython3.11-dev (in /usr/include/python3.11); the
#     official image has its own in /usr/local/include. The build stage compiles against them.
#   - The CA certificates this machine trusts beyond Debian's (/usr/local/share/ca-certificates)
#     are trusted in the image too, so that pip in the build stage reaches PyPI through this
#     workplace's egress; the official image has Debian's certificates only.
# It is made once and kept: skipped when an image of that name exists that was built by this
# very script (its sha256 is the image's label kamen.base-script); KAMEN_BASE_REBUILD=1 forces it.
set -euo pipefail

IMAGE=${1:-kamen-base:py311}
SUITE=bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
script_sum=$(sha256sum "$0" | cut -d' ' -f1)

if [ "${KAMEN_BASE_REBUILD:-0}" != 1 ] \
    && made_by=$(docker image inspect --format '{{ index .Config.Labels "kamen.base-script" }}' "$IMAGE" 2>/dev/null) \
    && [ "$made_by" = "$script_sum" ]; then
    echo "base: $IMAGE exists, built by this script: kept"
    exit 0
fi

command -v debootstrap >/dev/null || {
    echo "base: installing debootstrap (Debian's package)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null \
        || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; }
}

work=$(mktemp -d /tmp/kamen-base.XXXXXX)
rootfs=$work/rootfs
cleanup() {
    for mount in "$rootfs/proc" "$rootfs/dev/pts"; do
        mountpoint -q "$mount" 2>/dev/null && umount -l "$mount"
    done
    rm -rf "$work"
}
trap cleanup EXIT

echo "base: debootstrap --variant=minbase $SUITE from $MIRROR"
debootstrap --variant=minbase \
    --include=python3.11,libpython3.11-dev,python3-venv,python3-pip,ca-certificates \
    "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
    tail -30 "$work/debootstrap.log" >&2
    echo "base: debootstrap failed (it needs root and Debian's mirror, $MIRROR)" >&2
    exit 1
}

# The machine's own CA certificates (see above), then `python` and `pip` as in the official image.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
fi
chroot "$rootfs" /usr/sbin/update-ca-certificates >"$work/ca.log" 2>&1 || {
    cat "$work/ca.log" >&2
    exit 1
}
ln -s /usr/bin/python3.11 "$rootfs/usr/local/bin/python"
ln -s /usr/bin/python3.11 "$rootfs/usr/local/bin/python3"
ln -s /usr/bin/pip3 "$rootfs/usr/local/bin/pip"
ln -s /usr/bin/pip3 "$rootfs/usr/local/bin/pip3"

# Slim, as the official image is: no package lists, caches, documentation or manuals.
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/root/.cache
find "$rootfs" -name __pycache__ -type d -prune -exec rm -rf {} +

echo "base: importing $IMAGE"
tar --numeric-owner -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    --change "LABEL kamen.base-script=$script_sum" \
    --change "LABEL org.opencontainers.image.description=\"Stand-in for python:3.11-slim-trixie: Debian $SUITE minbase, Debian's python3.11\"" \
    - "$IMAGE" >/dev/null
docker image ls "$IMAGE"
