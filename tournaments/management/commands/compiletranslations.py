"""``manage.py compiletranslations``: compile locale/*/LC_MESSAGES/*.po to .mo.

Django's own ``compilemessages`` needs GNU gettext's msgfmt, which a fresh machine
lacks; polib compiles the same catalogues in Python. The .mo files are build output
and stay out of git; `make run` and `make test` call this first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile the project's translation catalogues (.po -> .mo) without GNU gettext."

    def handle(self, *args: Any, **options: Any) -> None:
        compiled = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                try:
                    polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
                except (OSError, ValueError) as error:
                    raise CommandError(f"{po_path}: {error}") from None
                compiled += 1
        self.stdout.write(f"{compiled} catalogue(s) compiled")
