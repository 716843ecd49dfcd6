# Kamen's image. The first stage builds the wheels (Kamen's own and its dependencies') and
# installs them, not editable, into a virtual environment; only that environment reaches the
# final stage, so anything Kamen needs at run time (migrations, fonts, the Oska table) must be
# package data. tests/test_shipping_wheel.py rehearses these steps without a Docker engine;
# .ci/run builds the image for real and runs a container from it (.ci/docker/check.py).
#
#   docker build -t kamen .
#   docker run -d --env-file .env -v kamen-data:/data kamen
#
# BASE is the official slim Python image, the same in both stages. CI, which cannot pull it,
# builds a stand-in (.ci/docker/base.sh) and passes --build-arg BASE=kamen-base:py311.
ARG BASE=python:3.11-slim-trixie

FROM ${BASE} AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# A C compiler for the search kernels (games/ai/*_kernel.c), in this stage only: the final
# one gets the compiled modules inside the wheel. The base has Python's headers. Versions
# follow the base's Debian release, whose mirror drops the old ones (hence no pins).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . .
RUN pip wheel --wheel-dir /wheels . \
    && python -m venv --without-pip /opt/kamen \
    && pip --python /opt/kamen/bin/python install --no-index --find-links /wheels /wheels/kamen-*.whl


FROM ${BASE}

LABEL org.opencontainers.image.title="Kamen" \
      org.opencontainers.image.description="A self-hosted Discord bot for Oska, Lasca and Oware"

# No secret here: DISCORD_TOKEN comes from the environment at run time (an env file).
ENV PATH=/opt/kamen/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/kamen.db \
    HEALTH_HOST=127.0.0.1 \
    HEALTH_PORT=8080

# An ordinary (not --system) user: uid 10001 is outside the system range, and useradd warns
# about --system with it.
RUN groupadd --gid 10001 kamen \
    && useradd --uid 10001 --gid kamen --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin kamen \
    && mkdir /data \
    && chown kamen:kamen /data

COPY --from=build /opt/kamen /opt/kamen

USER 10001:10001
WORKDIR /data
# The database (and its WAL files) live here: mount a named volume or a directory.
VOLUME ["/data"]
# /healthz and /metrics; set HEALTH_HOST=0.0.0.0 to reach them from outside the container.
EXPOSE 8080

# Healthy = connected to Discord's gateway and the database answers (see runtime/health.py).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "runtime.health"]

CMD ["python", "-m", "bot"]
