"""``python -m perf.serving HOST PORT THREADS [PROCESSES]``: the load test's office, as ``skat-office serve`` serves.

waitress in this process and PROCESSES - 1 spawned ones on the same socket
(office.serve.create_server_on, office.workers, serve_forever) with the settings the
load test's environment gives; the static files are collected already.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.conf import settings

    from office import serve, workers

    host, port, threads = argv[0], int(argv[1]), int(argv[2])
    processes = int(argv[3]) if len(argv) > 3 else 1
    sock = workers.listening_socket(host, port)
    children = workers.Children(sock, processes - 1, serve.child_main, threads, settings.OFFICE_URL, port)
    serve.serve_forever(serve.create_server_on(sock, threads), children)


if __name__ == "__main__":
    main(sys.argv[1:])
