"""``skat-office serve`` / ``manage.py serve`` (``make run``): the office as the evening needs it.

A production server (waitress in this process and ``--processes`` - 1 more, whitenoise, DEBUG off, the secret key
generated once in the data directory) listening on the laptop's network (``--bind``,
0.0.0.0; port ``--port`` or ``PORT``, 8000), after it has compiled the translations,
migrated the database, created the director's login on the first start
(office.director) and loaded the demo into an empty database (not with ``--no-demo``:
a league server). It prints the address phones use and its QR code; Ctrl-C stops it.
A data directory that cannot be written, a port in use, another office on the same data
folder, a damaged database or one that may lose confirmed deals stop it with one line (office.start).
"""

from __future__ import annotations

import getpass
import io
import os
import sys
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from config import datadir, hall
from core.addresses import is_loopback, url_is_loopback
from core.datalock import DataLock
from office import serve, start, terminal, upgrades, workers
from office.demo import create_demo
from office.director import DIRECTOR, ensure_director, password_message
from skat import __version__
from tournaments.models import Tournament


class Command(BaseCommand):
    #: The data folder's lock while this command prepares and serves (office.start.hold).
    lock: DataLock | None = None
    help = (
        "Serve the office to the hall: waitress in this process (and --processes - 1 more) on the laptop's "
        "network, DEBUG off, the data in "
        "the data directory, the demo in an empty database (--no-demo: none, for a league server)."
    )

    def get_version(self) -> str:
        """``serve --version``: the office's version, not Django's alone."""
        return f"skat-office {__version__} (Django {django.get_version()})"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default=os.environ.get("HOST") or "0.0.0.0", help="address to listen on")
        # A string default is read by ``type`` as if typed: PORT=abc is "invalid int value", not a traceback.
        parser.add_argument("--port", type=int, default=os.environ.get("PORT") or 8000)
        parser.add_argument(
            "--threads",
            type=int,
            default=serve.DEFAULT_THREADS,
            help=f"threads serving requests in each process (default {serve.DEFAULT_THREADS})",
        )
        parser.add_argument(
            "--processes",
            type=int,
            default=os.environ.get("SERVE_PROCESSES") or workers.default_processes(),
            help="processes serving requests, all on the same port (default: one per core, at most 4)",
        )
        parser.add_argument("--no-demo", action="store_true", help="do not load the demo, even into an empty database")
        parser.add_argument(
            "--no-input",
            action="store_false",
            dest="interactive",
            help="generate the director's password, ask nothing",
        )
        # Taken by the entry points before the settings load (config.datadir.prepare); listed for --help.
        parser.add_argument(
            "--data-dir",
            help=f"the folder for the database, key, cache and backups (default: {datadir.ENV}, else the "
            "checkout's folder or the platform's user data folder)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Before any German text is looked up: a catalogue missing now would stay missing in this process.
        call_command("compiletranslations", verbosity=0, stdout=io.StringIO())
        with translation.override(terminal.language()):
            try:
                self.prepare_and_serve(options)
            except KeyboardInterrupt:
                # Ctrl-C before the office served (a migration, the demo, the password
                # prompt): each of those is one transaction or writes nothing, so nothing
                # is half done; said as a stop is said, not with a traceback.
                self.say("")
                self.say(_("The office has stopped."))
            finally:
                if self.lock is not None:  # the data folder is free for the next office or a restore
                    self.lock.release()

    def prepare_and_serve(self, options: dict[str, Any]) -> None:
        if settings.DEBUG:
            raise CommandError(
                "DEBUG is on: the hall is served with DEBUG off. Start it with `skat-office serve` or "
                "`python manage.py serve`, which set it, or unset DEBUG."
            )
        problem = datadir.refusal(Path(settings.DATA_DIR))
        if problem:
            raise CommandError(problem)
        bind, port = options["bind"], options["port"]
        if problem := serve.port_problem(bind, port):
            raise CommandError(problem)
        if options["threads"] < 1:
            raise CommandError("--threads must be at least 1, e.g. --threads 8.")
        if not 1 <= options["processes"] <= workers.MAX_PROCESSES:
            raise CommandError(
                f"--processes must be from 1 to {workers.MAX_PROCESSES}, "
                f"e.g. --processes {workers.default_processes()}."
            )
        self.lock = start.hold(Path(settings.DATA_DIR))  # one office per data folder, until it stops
        start.check_database()  # damaged, or may lose commits: one line, before anything is migrated
        office_url, detected = serve.hall_url(port, bind)
        serve.use_office_url(office_url, port)
        if not os.environ.get("SECRET_KEY", "").strip():
            # Generated already when the settings loaded (config.datadir.prepare); made private here.
            for line in start.secret_key():
                self.say(line, error=True)
        if problem := upgrades.refusal(Path(settings.DATA_DIR)):
            raise CommandError(problem)
        with start.damage_told():  # a damaged file that migrate trips on: the same one line
            upgrades.migrate(Path(settings.DATA_DIR))
        ask = self.ask_password if options["interactive"] and sys.stdin.isatty() else None
        login = ensure_director(ask)
        # First, before anything that could fail: a generated password is shown only now.
        self.say(password_message(login))
        self.stdout.flush()
        if not options["no_demo"] and not Tournament.objects.exists():
            create_demo(login.user if login.user.is_superuser else None)
            self.say(_("The demo tournament is loaded (the database was empty)."))
        serve.collect_static()
        try:
            sock = workers.listening_socket(bind, port)
        except OSError as error:  # taken between the check and now
            raise CommandError(serve.port_problem(bind, port) or f"Cannot listen on {bind}:{port}: {error}") from None
        server = serve.create_server_on(sock, options["threads"])
        children = workers.Children(
            sock, options["processes"] - 1, serve.child_main, options["threads"], office_url, port
        )
        self.banner(office_url, detected, bind, port)
        self.say(_("Data directory: %(path)s") % {"path": settings.DATA_DIR})
        self.stdout.flush()
        serve.serve_forever(server, children)
        self.say(_("The office has stopped."))

    def ask_password(self, user) -> str:
        """The director's chosen password, typed twice; empty: generate one."""
        while True:
            first = getpass.getpass(
                _("Password for the director's login %(name)s (empty: generate one): ") % {"name": DIRECTOR}
            )
            if not first:
                return ""
            if getpass.getpass(_("The same password again: ")) != first:
                self.stderr.write(_("The two passwords differ; once more."))
                continue
            try:
                validate_password(first, user)
            except ValidationError as error:
                self.stderr.write(" ".join(error.messages))
                continue
            return first

    def say(self, text: str, ending: str = "\n", error: bool = False) -> None:
        """A line to the terminal that no console or file encoding can turn into a failed start (office.terminal)."""
        terminal.write(self.stderr if error else self.stdout, text, ending)

    def banner(self, office_url: str, detected, bind: str, port: int) -> None:
        say = self.say
        say("")
        say(_("Phones in the hall open: %(url)s/") % {"url": office_url})
        if terminal.can_draw_qr(terminal.stream_encoding(self.stdout)):
            say(_("(the table cards' QR codes carry this address; scan this one to try it)"))
            say(terminal.terminal_qr(office_url + "/"), ending="")
        else:
            say(_("(the table cards' QR codes carry this address; this output cannot draw one: see the dashboard)"))
        if url_is_loopback(office_url) and is_loopback(bind):
            lan = hall.detect()
            phones = hall.office_url(lan.host, port) + "/" if not lan.loopback else _("the hall's Wi-Fi address")
            say(
                _(
                    "Listening on %(bind)s: the office opens on this computer only. For phones, start it "
                    "with --bind 0.0.0.0; they would open %(phones)s"
                )
                % {"bind": bind, "phones": phones},
                error=True,
            )
        elif url_is_loopback(office_url):
            say(
                _(
                    "No network found: %(url)s opens on this computer only. Join the hall's Wi-Fi and start "
                    "again, or set OFFICE_URL to the address phones reach, before printing table cards."
                )
                % {"url": office_url},
                error=True,
            )
        elif detected is not None:
            say(
                _("(found on the network interface %(name)s; set OFFICE_URL to use another)")
                % {"name": detected.interface}
            )
        say(_("Stop the office with Ctrl-C."))
