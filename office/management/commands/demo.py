"""``manage.py demo``: make a fresh install usable at once.

Creates the director's login (``director``, office.director: a generated password
printed once, or ``--password``) and the demo tournament, unless they exist. Safe to
run again: it overwrites nothing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from office import terminal
from office.demo import DEMO_NAME, create_demo
from office.director import ensure_director, password_message
from office.terminal import language
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Create the demo director login and the demo tournament (24 players, 2 series)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", default="", help="password for a newly created director login")

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(language()):
            self.create(options)

    def create(self, options: dict[str, Any]) -> None:
        login = ensure_director(password=options["password"])
        terminal.write(self.stdout, password_message(login))  # any console or file encoding
        tournament = Tournament.objects.filter(name=DEMO_NAME).first()
        if tournament is None:
            tournament = create_demo(login.user)
            self.stdout.write(f"Demo tournament created: {tournament}")
        address = settings.OFFICE_URL or "http://127.0.0.1:8000"
        self.stdout.write(
            f"Open {address}/, log in as the director and click the demo tournament: "
            "its dashboard shows series 2 half played; 'Tables and links' opens any table's entry page."
        )
