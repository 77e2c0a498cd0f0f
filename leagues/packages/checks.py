"""Django's system checks of the package import's settings (``manage.py check``; also
shown when ``serve`` and the other commands start)."""

from __future__ import annotations

from django.conf import settings
from django.core import checks

from .fetching import shown_entries, unusable_servers


@checks.register()
def league_servers(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """packages.W001: entries of SKAT_LEAGUE_SERVERS that name no http(s) host, which
    :mod:`leagues.packages.fetching` admits nothing by (and with no other entry, nothing at all)."""
    bad = unusable_servers()
    if not bad:
        return []
    shown = shown_entries(bad)
    if len(bad) == len([entry for entry in settings.SKAT_LEAGUE_SERVERS if entry.strip()]):
        effect = "so the office fetches match-day packages from no league server"
    else:
        effect = "left out: the office fetches only from the others"
    return [
        checks.Warning(
            f"SKAT_LEAGUE_SERVERS: {shown}: no league server's http(s) host ({effect})",
            hint="Give base URLs or hosts, comma-separated: https://liga.example.org or liga.example.org[:port].",
            id="packages.W001",
        )
    ]
