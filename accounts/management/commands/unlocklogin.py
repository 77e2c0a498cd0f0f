"""``manage.py unlocklogin USERNAME [--address IP]``: lift a login lock at once.

The throttle (accounts/throttle.py) locks a username after repeated failures, also
against its owner; the tournament office lifts it here instead of waiting the window out.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.throttle import clear_failures, locked_for


class Command(BaseCommand):
    help = (
        "Forget a username's failed logins, its trusted browsers' too (and an address's with --address), "
        "so it may log in again now."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--address", default="", help="also forget this address's failures (an IPv6 address's and its /64's)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username, address = options["username"], options["address"]
        was = locked_for(username, address or "-")
        clear_failures(username, address or "-", address_too=bool(address))
        state = f"was locked for {was} more seconds" if was else "was not locked"
        self.stdout.write(f"{username}: unlocked ({state}).")
