# The league server's container: the office's wheel and its help in python:3.11-slim, the
# data on a volume (/data), the backups on another (/backups), PostgreSQL beside it
# (compose.yaml). Not built on the machine the office is developed on: its Docker engine
# does not run there (only the client); tests/test_container.py lints this file
# (hadolint) and checks what it promises, and starts its command outside a container
# against PostgreSQL. See docs/pages/operators/container.md.
#
#   docker compose up -d          (compose.yaml: the office and PostgreSQL 15)
#   docker build -t skat-office . (the office alone)
#
# Debian 12 (bookworm) in both stages: its postgresql-client is 15, the server's version
# in compose.yaml, so pg_dump's backups restore with the same pg_restore.

# 1. The builder: the help pages, then the wheel that carries them (config/resources).
FROM python:3.11-slim-bookworm AS builder
WORKDIR /src
COPY . .
# The checkout's version (.git stays out of the image): docker build --build-arg
# SKAT_OFFICE_VERSION="$(python setup.py --version)" .; without it 0.3.dev0+unknown.
ARG SKAT_OFFICE_VERSION=""
# The help built here, as `make run` builds it without a browser (the screenshots are a
# browser test's, not in the image; not --strict, which wants them): whether or not the
# wheel's own build builds it, the wheel finds docs/site built and takes it in. Only the
# docs' own packages, at the versions pyproject.toml's docs extra pins (read from it).
# hadolint ignore=DL3013
RUN python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['docs'], sep='\n')" > /tmp/docs.txt \
    && pip install --no-cache-dir -r /tmp/docs.txt "build>=1.2" \
    && NO_MKDOCS_2_WARNING=1 mkdocs build --quiet \
    && test -f docs/site/index.html \
    && python -m build --wheel --outdir /dist .

# 2. The office: the wheel installed, nothing else of the checkout.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SKAT_OFFICE_DATA=/data \
    SKAT_OFFICE_BACKUP_DIR=/backups \
    PORT=8000 \
    DEBUG=0
# pg_dump and pg_restore for skat-office backup and restore on PostgreSQL (bookworm: 15).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY --from=builder /dist/*.whl /tmp/
# Not root: the user office (1000) owns the data and the backups' folder, nothing else.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir /tmp/*.whl \
    && rm /tmp/*.whl \
    && useradd --create-home --uid 1000 office \
    && mkdir /data /backups \
    && chown office:office /data /backups
USER 1000:1000
VOLUME ["/data", "/backups"]
EXPOSE 8000
# Healthy when /healthz answers 200 (the database and the cache answer) on loopback, with
# Python's own urllib: the slim image has no curl. The first start migrates and collects
# the static files: failures in its first five minutes do not count.
HEALTHCHECK --interval=30s --timeout=10s --start-period=300s --retries=3 \
    CMD ["python", "-m", "office.healthcheck"]
# A league server: no demo; the director's password is generated and printed once
# (docker compose logs office; a new one: docker compose exec office skat-office
# changepassword director). The port is PORT's (8000). SIGTERM (docker stop) stops it
# like Ctrl-C.
CMD ["skat-office", "serve", "--bind", "0.0.0.0", "--no-input", "--no-demo"]
