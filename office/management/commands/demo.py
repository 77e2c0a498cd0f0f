"""``manage.py demo``: make a fresh install usable at once.

Creates the director's login (``director`` / ``skat``, override with ``--password``)
and the demo tournament, unless they exist. Safe to run again: it overwrites nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from office.demo import DEMO_NAME, create_demo
from tournaments.models import Tournament

DIRECTOR = "director"


class Command(BaseCommand):
    help = "Create the demo director login and the demo tournament (24 players, 2 series)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", default="skat", help="password for a newly created director login")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        director = users.objects.filter(username=DIRECTOR).first()
        if director is not None:
            self.stdout.write(f"Director login exists: {DIRECTOR} (password unchanged)")
        else:
            director = users.objects.create_superuser(DIRECTOR, email="", password=options["password"])
            self.stdout.write(f"Director login created: {DIRECTOR} / {options['password']}")
        tournament = Tournament.objects.filter(name=DEMO_NAME).first()
        if tournament is None:
            tournament = create_demo(director)
            self.stdout.write(f"Demo tournament created: {tournament}")
        self.stdout.write(
            "Open http://127.0.0.1:8000/, log in as the director and click the demo tournament: "
            "its dashboard shows series 2 half played; 'Tables and links' opens any table's entry page."
        )
