"""``python -m perf.serving HOST PORT THREADS``: the load test's office, served as ``skat-office serve`` does.

waitress in this process (office.serve.create_server and serve_forever) with the
settings the load test's environment gives; the static files are collected already.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from office import serve

    host, port, threads = argv[0], int(argv[1]), int(argv[2])
    serve.serve_forever(serve.create_server(host, port, threads))


if __name__ == "__main__":
    main(sys.argv[1:])
