# The league server's container: the office's wheel in python:3.11-slim, the data on a
# volume (/data), PostgreSQL beside it (compose.yaml). Not built on the machine the office
# is developed on: its Docker engine does not run there (only the client), see
# docs/pages/operators/install.md.
#
#   docker compose up -d          (compose.yaml: the office and PostgreSQL 15)
#   docker build -t skat-office . (the office alone)

# 1. The wheel, built from this checkout as CI builds it (python -m build).
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir build && python -m build --wheel --outdir /dist .

# 2. The office: the wheel installed, nothing else of the checkout.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SKAT_OFFICE_DATA=/data
# pg_dump for skat-office backup on PostgreSQL.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY --from=wheel /dist/*.whl /tmp/
RUN pip install --no-cache-dir /tmp/*.whl \
    && rm /tmp/*.whl \
    && useradd --create-home --uid 1000 office \
    && mkdir /data \
    && chown office /data
USER office
VOLUME /data
EXPOSE 8000
# A league server: no demo; the director's password is generated and printed once
# (docker compose logs office). SIGTERM (docker stop) stops it like Ctrl-C.
CMD ["skat-office", "serve", "--bind", "0.0.0.0", "--port", "8000", "--no-input", "--no-demo"]
