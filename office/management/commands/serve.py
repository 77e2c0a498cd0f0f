"""``manage.py serve`` (``make run``): the office as the evening needs it.

A production server (gunicorn, whitenoise, DEBUG off, the secret key generated once
beside the database) listening on the laptop's network (``--bind``, 0.0.0.0; port
``--port`` or ``PORT``, 8000), after it has migrated the database, created the
director's login on the first start (office.director) and loaded the demo into an
empty database. It prints the address phones use and its QR code; Ctrl-C stops it.
"""

from __future__ import annotations

import getpass
import os
import sys
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from core.addresses import url_is_loopback
from office import serve
from office.demo import create_demo
from office.director import DIRECTOR, DirectorLogin, ensure_director, password_message
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Serve the office to the hall: gunicorn on the laptop's network, DEBUG off, the demo in an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default=os.environ.get("HOST") or "0.0.0.0", help="address to listen on")
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument("--workers", type=int, default=serve.default_workers(), help="gunicorn processes")
        parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn process")
        parser.add_argument("--no-demo", action="store_true", help="do not load the demo, even into an empty database")
        parser.add_argument(
            "--no-input",
            action="store_false",
            dest="interactive",
            help="generate the director's password, ask nothing",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(serve.terminal_language()):
            self.prepare_and_serve(options)

    def prepare_and_serve(self, options: dict[str, Any]) -> None:
        port = options["port"]
        office_url, detected = serve.hall_url(port)
        env = serve.server_env(office_url, port)
        call_command("migrate", interactive=False, verbosity=0)
        ask = self.ask_password if options["interactive"] and sys.stdin.isatty() else None
        login = ensure_director(ask)
        if not options["no_demo"] and not Tournament.objects.exists():
            create_demo(login.user if login.user.is_superuser else None)
            self.stdout.write(_("The demo tournament is loaded (the database was empty)."))
        serve.collect_static(env)
        self.banner(office_url, detected, login)
        argv = serve.gunicorn_argv(options["bind"], port, options["workers"], options["threads"])
        serve.exec_server(argv, env)

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

    def banner(self, office_url: str, detected, login: DirectorLogin) -> None:
        write = self.stdout.write
        write("")
        write(_("Phones in the hall open: %(url)s/") % {"url": office_url})
        write(_("(the table cards' QR codes carry this address; scan this one to try it)"))
        write(serve.terminal_qr(office_url + "/"), ending="")
        if url_is_loopback(office_url):
            self.stderr.write(
                _(
                    "No network found: %(url)s opens on this computer only. Join the hall's Wi-Fi and start "
                    "again, or set OFFICE_URL to the address phones reach, before printing table cards."
                )
                % {"url": office_url}
            )
        elif detected is not None:
            write(
                _("(found on the network interface %(name)s; set OFFICE_URL to use another)")
                % {"name": detected.interface}
            )
        write(password_message(login))
        write(_("Stop the office with Ctrl-C."))
