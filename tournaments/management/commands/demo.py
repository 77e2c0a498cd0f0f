"""``manage.py demo``: make a fresh install usable at once.

Creates the director's login (``director`` / ``skat``, override with ``--password``)
if it does not exist, and prints where to start. Safe to run again: it never
overwrites an existing user.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

DIRECTOR = "director"


class Command(BaseCommand):
    help = "Create the demo director login (and, once tournaments exist, the demo tournament)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", default="skat", help="password for a newly created director login")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        if users.objects.filter(username=DIRECTOR).exists():
            self.stdout.write(f"Director login exists: {DIRECTOR} (password unchanged)")
        else:
            users.objects.create_superuser(DIRECTOR, email="", password=options["password"])
            self.stdout.write(f"Director login created: {DIRECTOR} / {options['password']}")
        self.stdout.write("Open http://127.0.0.1:8000/ and log in as the director.")
