"""The database's share of a slower machine: PostgreSQL's backends of the run's database in the run's cgroup.

On a director's laptop the database server shares the one slow CPU with the office. With
``--cpu-quota`` and ``--database postgres://...`` naming a server on this machine (a
loopback host or a socket, its processes visible in /proc), the backends serving the
run's scratch database join the run's group (:mod:`perf.quota.cgroups`): those
``pg_stat_activity`` lists with ``datname`` the scratch database, each confirmed by its
``/proc/<pid>/cmdline`` ("postgres: <user> <database> ..."). ``loadtest`` starts a
watcher thread beside the served office that looks every 0.5 s and moves those not moved
yet (the office keeps its connections, so this settles within a second of the start);
``bench`` moves its one connection's backend (``pg_backend_pid()``) with itself.

The postmaster and the backends of other databases are left alone: the server may have
other users. Each backend's own group is recorded from ``/proc/<pid>/cgroup`` before it
moves, and it goes back there when the run ends, before the group is removed
(:meth:`perf.quota.cgroups.CpuQuota.remove` stops the watcher first): no backend of the shared
server is ever left in our group or a removed one. Where the server is elsewhere, its
processes are not visible here (another pid namespace: a container) or cannot be moved
(permission), the run goes on and the quota line says the database is outside the quota.
"""

from __future__ import annotations

import ipaddress
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .cgroups import CpuQuota, home, join

#: Seconds between two looks for new backends.
POLL = 0.5
PROC = Path("/proc")


def on_this_machine(host: str | None) -> bool:
    """A socket (no host, or a folder) or a loopback address: a server whose processes may be here."""
    if not host or host.startswith("/") or host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def where(settings: dict[str, Any]) -> str:
    """The server and database for the report: ``127.0.0.1:5432/bench_load_42``."""
    return f"{settings.get('HOST') or 'localhost'}:{settings.get('PORT') or 5432}/{settings['NAME']}"


class Backends:
    """The backends of one database moved into a quota's group for the run, and back to their own groups after.

    ``find`` gives the pids serving the database now (``pg_stat_activity``); ``outside``,
    where set, says why the database stays outside the quota, and nothing is moved. The
    quota reports it (:meth:`words`) and stops it before its group is removed.
    """

    def __init__(
        self,
        quota: CpuQuota,
        database: str,
        find: Callable[[], Iterable[int]],
        *,
        where: str,
        outside: str | None = None,
        proc: Path = PROC,
        poll: float = POLL,
        close: Callable[[], None] | None = None,
    ) -> None:
        self.quota = quota
        self.database = database
        self.find = find
        self.where = where
        self.outside = outside
        self.proc = proc
        self.poll = poll
        self.close = close
        self.moved: dict[int, dict[Path, Path]] = {}  # pid: {controller root: the group it came from}
        self.stopped = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # one look or the return at a time
        quota.database = self

    def is_backend(self, pid: int) -> bool:
        """``pid`` is a process here serving our database: its title names the database after "postgres:"."""
        try:
            title = (self.proc / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            return False
        return title.startswith("postgres") and f" {self.database} " in f" {title} "

    def look(self) -> int:
        """One look: every backend of the database not moved yet goes into the group, its own group recorded.

        Returns how many moved. A pid that is not such a process here means the server's
        processes are not visible (another pid namespace); a write refused means they
        cannot be moved: either way the database stays outside, and those moved so far go back.
        """
        with self._lock:
            if self.outside is not None or self.stopped:
                return 0
            new = sorted(set(self.find()) - set(self.moved))
            for pid in new:
                if not self.is_backend(pid):
                    if not (self.proc / str(pid)).exists():  # it ended since (the start checked they are visible)
                        continue
                    self._give_up(f"its backend {pid} is not a process here (another pid namespace: a container?)")
                    return 0
                cgroup = self.proc / str(pid) / "cgroup"
                self.moved[pid] = {root: home(root, cgroup) for root, _group in self.quota.groups()}
                try:
                    join(self.quota.procs_files(), pid)
                except OSError as error:
                    self._give_up(f"its backend {pid} cannot be moved: {error.strerror or error}")
                    return 0
            return len(set(new) & set(self.moved))

    def _give_up(self, reason: str) -> None:
        self.outside = reason
        self._return()
        self.moved.clear()

    def start(self) -> Backends:
        """Look now, then every ``poll`` seconds in a thread of its own until :meth:`stop`."""
        self.look()
        if self.outside is None:
            self._thread = threading.Thread(target=self._watch, name="cpu-quota-postgres", daemon=True)
            self._thread.start()
        return self

    def _watch(self) -> None:
        while not self._stop.wait(self.poll):
            try:
                self.look()
            except Exception as error:  # the watcher's connection lost: the run goes on, the line says so
                self.outside = f"watching stopped: {error}"
                return

    def stop(self) -> None:
        """The watcher stopped, every moved backend still running back in its own group, the connection closed.

        Never raises: it runs while a run ends, maybe on its way out with an error of its own.
        """
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
        held = self._lock.acquire(timeout=10)  # a look stuck on a lost connection must not keep them in
        try:
            if not self.stopped:
                self.stopped = True
                self._return()
        finally:
            if held:
                self._lock.release()
        if self.close is not None:
            close, self.close = self.close, None
            try:
                close()
            except Exception as error:
                print(f"{self.quota.option}: closing the watcher's connection: {error}", file=sys.stderr)

    def _return(self) -> None:
        for pid, homes in self.moved.items():
            if not self.is_backend(pid):  # it ended (its pid may be another process's by now)
                continue
            for group in homes.values():
                try:
                    join([group / "cgroup.procs"], pid)
                except OSError as error:
                    message = f"{self.quota.option}: could not move backend {pid} back to {group}: {error}"
                    print(message, file=sys.stderr)

    def words(self) -> str:
        """The quota line's end: `` and PostgreSQL's 9 backends of the run's database``, or why it is outside."""
        if self.outside is not None and not self.moved:
            return f"; the database outside it ({self.where}: {self.outside})"
        count = len(self.moved)
        note = f" ({self.outside})" if self.outside is not None else ""
        return f" and PostgreSQL's {count} backend{'s' * (count != 1)} of the run's database{note}"


def _outside(quota: CpuQuota, settings: dict[str, Any]) -> Backends | None:
    """The database outside the quota for a reason known before connecting, or None."""
    if not on_this_machine(settings.get("HOST")):
        reason = "the PostgreSQL server is not on this machine"
        return Backends(quota, settings["NAME"], set, where=where(settings), outside=reason)
    return None


def watch(quota: CpuQuota | None, url: str) -> Backends | None:
    """A watcher moving the backends of ``url``'s database into ``quota``'s group, started; None without a
    quota or on SQLite. Its own connection (to the same database, left out) asks ``pg_stat_activity``."""
    if quota is None or not url.startswith(("postgres://", "postgresql://")):
        return None
    import dj_database_url
    import psycopg

    settings = dj_database_url.parse(url)
    outside = _outside(quota, settings)
    if outside is not None:
        return outside
    try:
        connection = psycopg.connect(
            dbname=settings["NAME"],
            user=settings.get("USER") or None,
            password=settings.get("PASSWORD") or None,
            host=settings.get("HOST") or None,
            port=settings.get("PORT") or None,
            autocommit=True,
            application_name="skat-office cpu quota watcher",
        )
    except psycopg.Error as error:
        reason = f"no connection to watch it: {str(error).strip()}"
        return Backends(quota, settings["NAME"], set, where=where(settings), outside=reason)
    own = connection.execute("SELECT pg_backend_pid()").fetchone()[0]

    def find() -> set[int]:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [settings["NAME"]]
        )
        return {pid for (pid,) in rows}

    backends = Backends(quota, settings["NAME"], find, where=where(settings), close=connection.close)
    if not backends.is_backend(own):
        backends.outside = "its processes are not visible in /proc here (another pid namespace: a container?)"
        backends.stop()
        return backends
    return backends.start()


def join_connection(quota: CpuQuota | None, connection: Any) -> Backends | None:
    """The backend of a Django ``connection`` to PostgreSQL (``pg_backend_pid()``) into ``quota``'s group
    now, back with :meth:`CpuQuota.leave`; None without a quota or on another database."""
    if quota is None or connection.vendor != "postgresql":
        return None
    settings = connection.settings_dict
    outside = _outside(quota, settings)
    if outside is not None:
        return outside
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    backends = Backends(quota, settings["NAME"], lambda: {pid}, where=where(settings))
    if not backends.is_backend(pid):
        backends.outside = "its processes are not visible in /proc here (another pid namespace: a container?)"
    backends.look()
    return backends
