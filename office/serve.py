"""Serving the hall: waitress in the command's processes, with the production settings, on the laptop's network.

``skat-office serve`` and ``manage.py serve`` (``make run``) put these together: the
address phones use (from ``OFFICE_URL`` or the interfaces, ``config.hall``), the
production settings (DEBUG off, plain HTTP unless ``SECURE=1``, the secret key file in
the data directory: config.datadir.prepare sets them before Django starts), the static
files collected for whitenoise, and waitress serving in the command's own process and,
on a laptop with more than one core, in spawned processes sharing its socket
(office.workers), so Ctrl-C stops it on Windows, macOS and Linux alike (no ``exec``).
waitress was chosen by measurement (docs: Benchmarks): it runs everywhere, and with the
spectator admission (config.admission) it keeps the entries' targets at three times the hall.
"""

from __future__ import annotations

import errno
import logging
import os
import select
import signal
import socket
import sys
import threading

from django.conf import settings

from config import hall
from core.addresses import is_loopback
from office import cores, workers

logger = logging.getLogger("office.serve")


#: ``--bind`` values that listen on every interface: the hall address is then detected.
EVERY_INTERFACE = ("", "0.0.0.0", "::", "[::]")


def hall_url(port: int, bind: str = "0.0.0.0") -> tuple[str, hall.HallAddress | None]:
    """The office's address: ``OFFICE_URL`` as set (and None); else the address it listens on.

    Bound to every interface (``--bind 0.0.0.0``) the hall address is detected; bound to
    loopback (``--bind 127.0.0.1``) the office opens on this computer only, and says so
    (its address is loopback, and None); bound to one address, that address, with the
    interface that has it (None for a name or an address no interface lists)."""
    configured = os.environ.get("OFFICE_URL", "").strip().rstrip("/")
    if configured:
        return configured, None
    bind = bind.strip()
    if is_loopback(bind):
        return hall.office_url(hall.LOOPBACK if bind.lower().startswith("localhost") else bind.strip("[]"), port), None
    if bind not in EVERY_INTERFACE:
        host = bind.strip("[]")
        name = next((found.name for found in hall.interfaces() if found.address == host), None)
        return hall.office_url(host, port), hall.HallAddress(host, name) if name else None
    found = hall.detect()
    return hall.office_url(found.host, port), found


#: The WSGI servers the load test compares (``loadtest --server``); the office serves with the first.
SERVERS = ("waitress", "gunicorn", "granian", "hypercorn")
#: waitress's threads in each serving process: the spectators' page computations
#: (SPECTATOR_SLOTS, 2: config.admission) and the other requests (SERVE_OTHERS_AT_ONCE,
#: 2: office.dispatch) at their most still leave one for the entries. Not more: the
#: threads of a process share its interpreter lock, so each thread running beside an
#: entry makes the entry slower; at three times the hall 4 threads a process answered
#: every request where 8 let 2,877 entries time out (docs: Benchmarks).
DEFAULT_THREADS = 5


def default_workers() -> int:
    """gunicorn's processes in the load test's comparison: one per core, two to four."""
    return max(2, min(4, cores.usable()))


def gunicorn_argv(bind: str, port: int, workers: int, threads: int) -> list[str]:
    """gunicorn as the office ran before it served in-process (Linux and macOS only): the load test's yardstick."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"{bind}:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--worker-class",
        "gthread",
        "--timeout",
        "60",
        "--graceful-timeout",
        "5",
        "--log-level",
        "warning",
    ]


def _another_port(port: int) -> str:
    """How to ask for ``port`` the way the office was started: ``make run`` takes no
    ``--port`` (its recipe runs under make, which exports MAKELEVEL), but ``PORT=``."""
    if os.environ.get("MAKELEVEL"):
        return f"make run PORT={port}"
    return f"--port {port}"


def port_problem(bind: str, port: int) -> str | None:
    """One line saying what to do when ``bind:port`` cannot be listened on, or None."""
    if not 0 < port < 65536:
        return f"--port {port} is not a port: choose one from 1 to 65535, e.g. --port 8000."
    try:
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            # As the server binds: a port left in TIME_WAIT by the last start is free, one listened on is not.
            if os.name == "nt":
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
            else:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((bind, port))
    except OSError as error:
        if error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            return (
                f"Port {port} is in use on {bind} (another office or program listens there): "
                f"stop it, or start with another port, e.g. {_another_port(port + 1 if port < 65535 else 8000)}."
            )
        if error.errno in (errno.EACCES, getattr(errno, "WSAEACCES", -1)):
            return (
                f"Port {port} on {bind} may not be used by this user: start with a port above 1023, e.g. --port 8000."
            )
        return f"Cannot listen on {bind}:{port} ({error.strerror or error}): check --bind, e.g. --bind 0.0.0.0."
    return None


def use_office_url(office_url: str, port: int) -> None:
    """The settings of this process, which serves: the hall address on cards and QR codes, and accepted as host."""
    settings.OFFICE_URL = office_url
    settings.PORT = port
    host = hall.url_host(office_url)
    if host and host not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, host]


def collect_static() -> None:
    """The static files for whitenoise, with the hashed names DEBUG off serves (into the data
    directory): collected once per version of the code, durably (config.staticfiles)."""
    from config import staticfiles

    staticfiles.collect()


#: The connections one serving process holds open at once (``SERVE_CONNECTION_LIMIT``).
#: waitress's loop looks at every open connection on each of its turns (it builds its
#: poll set anew), so its own work grows with them: at three times the hall, 4,000 per
#: process let the loop take the interpreter from the threads that answer, and the
#: server collapsed (docs: Benchmarks). Connections beyond wait in the listening
#: socket's backlog, which costs nothing. Windows has no poll(); its select() takes
#: 512 sockets at most (Python's FD_SETSIZE there) in any case.
CONNECTION_LIMIT = 500


def connection_limit() -> int:
    """The open connections a serving process holds at most: ``SERVE_CONNECTION_LIMIT``
    when it is a whole number of at least 10 (below 500 on Windows), else :data:`CONNECTION_LIMIT`."""
    value = os.environ.get("SERVE_CONNECTION_LIMIT", "").strip()
    ceiling = 10_000 if hasattr(select, "poll") else CONNECTION_LIMIT
    # ASCII digits: "²" passes isdigit() but int() refuses it, a traceback at the start.
    if value.isascii() and value.isdigit() and len(value) <= 9 and int(value) >= 10:
        return min(int(value), ceiling)
    if value:
        logger.warning(
            "SERVE_CONNECTION_LIMIT=%r is not a whole number of at least 10: %d are used", value[:40], CONNECTION_LIMIT
        )
    return CONNECTION_LIMIT


def create_server(bind: str, port: int, threads: int):
    """waitress listening on ``bind:port`` (office.workers.listening_socket): see :func:`create_server_on`."""
    return create_server_on(workers.listening_socket(bind, port), threads)


def create_server_on(sock, threads: int):
    """waitress on the listening socket ``sock``: pure Python, the same on Windows, macOS and Linux.

    ``threads`` serve requests in this process, a spectator flood held to SPECTATOR_SLOTS
    of them (config.admission). Many short connections (phones on Wi-Fi, one request
    each): a high connection limit; poll() where the system has it (select() alone stops
    at 512 or 1,024 sockets). Every serving process (office.workers) shares ``sock``.
    """
    from waitress.server import create_server as waitress_server

    from config.wsgi import application  # after collectstatic: whitenoise indexes the files on import
    from office.dispatch import EntriesFirst, ShedStale

    dispatcher = EntriesFirst()
    dispatcher.set_thread_count(threads)
    return waitress_server(
        ShedStale(application),  # a page that waited too long for a thread: "busy, again in N s"
        _dispatcher=dispatcher,  # entries and spectators before the other waiting requests
        sockets=[sock],
        threads=threads,
        backlog=2048,
        connection_limit=connection_limit(),
        channel_timeout=60,
        asyncore_use_poll=hasattr(select, "poll"),
        ident="skat-office",
        clear_untrusted_proxy_headers=not behind_proxy(),
    )


def child_main(sock, series_finished, threads: int, office_url: str, port: int) -> None:
    """A spawned serving process (office.workers.Children): Django set up from the inherited
    environment, waitress on the first process's socket ``sock``.

    The environment (data directory, DEBUG off, the secret key's file) is the first
    process's, so sessions, CSRF tokens and seat PINs signed by one process hold in all.
    """
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        django.setup()
        child_setup(series_finished, office_url, port)
        workers.serve_child(create_server_on(sock, threads))
    except KeyboardInterrupt:
        # Ctrl-C reaches every process of the terminal (or the first process stops this
        # one) while it is still starting: it stops without a traceback, as serving it would.
        pass


def child_setup(series_finished, office_url: str, port: int) -> None:
    """A child's settings as the first process's, and its finished series told to the first
    process (``series_finished``, a multiprocessing Semaphore), which alone keeps the backups."""
    from core.backups import forward_series

    use_office_url(office_url, port)
    forward_series(series_finished.release)


def behind_proxy() -> bool:
    """Whether a reverse proxy's headers reach Django: with ``SECURE=1`` (waitress speaks no
    TLS, so a proxy does and says so in X-Forwarded-Proto) or ``PROXY_COUNT`` (the login
    throttle reads X-Forwarded-For). Otherwise waitress drops them, so a phone cannot
    claim another address. Dropped behind a proxy, ``SECURE=1`` would redirect every
    request to https for ever (compose.yaml)."""
    return bool(settings.PROXY_COUNT or settings.SECURE_PROXY_SSL_HEADER)


def serve_forever(server, children: workers.Children | None = None) -> None:
    """Start the other serving processes (``children``, not started yet) and serve in this
    process until Ctrl-C (SIGINT) or SIGTERM (``docker stop``): then close, stop the
    children and return. A Ctrl-C while the children are still starting (pressed as soon
    as the banner shows) stops the office the same way, never with a traceback."""
    # The evening's backups (core.backups): every BACKUP_EVERY_MINUTES and after each
    # finished series, in this one serving process.
    from core.backups import start_background

    backups = start_background()
    previous = None
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C stops it even when started where SIGINT was ignored (a shell's background job).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if hasattr(signal, "SIGTERM"):
            previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if children is not None:
            children.start()
        server.run()  # returns on KeyboardInterrupt, after closing its sockets
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        if children is not None:
            children.stop()
        backups.stop()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
