"""The bench's price of durability: a deal posted one after another, SQLite ``synchronous``
NORMAL against FULL.

In WAL mode FULL flushes the write-ahead log to the disk at every commit (a confirmed deal
survives a power cut); NORMAL leaves it to the next checkpoint (the last commits may roll
back). The office runs FULL (config.settings). This figure enters deals through the table
link as the phone does, one request after another, alternating the two settings request by
request (each request opens its connection with the setting's ``init_command``), so a busy
moment of the machine slows both alike: the median and the 99th percentile of each.
"""

from __future__ import annotations

import random
import statistics
import time

from django.db import connection
from django.test import Client
from django.test.utils import override_settings

from rehearsal.deals import random_game
from scoring import services
from scoring.models import Game
from tournaments.models import Series

from .fixtures import entry_data, shown_version
from .timing import MS, Result

#: The office's own SQLite options, with one of the two settings measured.
MODES = {"NORMAL": "PRAGMA synchronous=NORMAL", "FULL": "PRAGMA synchronous=FULL"}
LEVELS = {"NORMAL": 1, "FULL": 2}


def p99(times: list[float]) -> float:
    """The 99th percentile (the slowest of a hundred): what a scorekeeper meets now and then."""
    return statistics.quantiles(times, n=100, method="inclusive")[98]


def init_command(mode: str, office_command: str) -> str:
    """The office's ``init_command`` with its ``synchronous`` set to ``mode``."""
    kept = [part.strip() for part in office_command.split(";") if part.strip() and "synchronous" not in part]
    return "; ".join([*kept, MODES[mode]]) + ";"


def measure_synchronous(ctx) -> Result:
    """Deals entered through the table link, alternately under NORMAL and FULL (SQLite only).

    The median is FULL's, the floor NORMAL's: the ratio is what durability costs a phone.
    """
    if connection.vendor != "sqlite":
        return Result(None, available=False, target=0.025, note="SQLite only (PostgreSQL: synchronous_commit)")
    tournament = ctx.tournament
    series = tournament.series.order_by("-number").first()
    count = max(ctx.repeat * 40, 100)  # per setting: enough requests for a 99th percentile
    tables = list(series.tables.order_by("number")[: 2 * count // 36 + 1])
    Game.objects.filter(table__in=tables).delete()
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    options = connection.settings_dict["OPTIONS"]
    office_command = options.get("init_command", "")
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    rng = random.Random(11)
    try:
        with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
            client = Client()
            turn = 0
            for table in tables:
                url = table.entry_url()
                response = client.get(url)
                for deal in range(1, tournament.deals_per_table(table.size) + 1):
                    mode = ("NORMAL", "FULL")[turn % 2]
                    turn += 1
                    # A new dict: the scratch database's options may be the office's own object.
                    connection.close()
                    command = init_command(mode, office_command)
                    connection.settings_dict["OPTIONS"] = {**options, "init_command": command}
                    data = entry_data(random_game(rng, deal, table.size)) | shown_version(response.content)
                    start = time.perf_counter()
                    response = client.post(url, data, HTTP_HX_REQUEST="true")
                    times[mode].append(time.perf_counter() - start)
                    if response.status_code != 200 or b"entered" not in response.content:
                        raise RuntimeError(f"entry refused ({response.status_code}): {response.content[:400]!r}")
                    if turn <= 2:  # each setting in force as measured (untimed)
                        with connection.cursor() as cursor:
                            cursor.execute("PRAGMA synchronous")
                            if cursor.fetchone()[0] != LEVELS[mode]:
                                raise RuntimeError(f"synchronous={mode} was not in force")
    finally:
        connection.close()
        connection.settings_dict["OPTIONS"] = options
        Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
    full, normal = times["FULL"], times["NORMAL"]
    return Result(
        statistics.median(full),
        floor=statistics.median(normal),
        target=0.025,
        note=(
            f"{len(full)} deals each, alternating; p99 FULL {p99(full) / MS:.1f} ms, NORMAL {p99(normal) / MS:.1f} ms;"
            " floor: NORMAL; test client, htmx POST + its answer"
        ),
    )


def measure_save_deal(ctx) -> Result:
    """One deal stored by scoring.services.save_deal in its own transaction (the table's lock,
    the engine's valuing, the triggers, the commit), alternately under NORMAL and FULL on
    one connection: the flush of the commit without the request around it."""
    if connection.vendor != "sqlite":
        return Result(None, available=False, target=0.010, note="SQLite only (PostgreSQL: synchronous_commit)")
    series = ctx.tournament.series.order_by("-number").first()
    count = max(ctx.repeat * 40, 100)
    tables = list(series.tables.order_by("-number")[: 2 * count // 36 + 1])
    Game.objects.filter(table__in=tables).delete()
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    rng = random.Random(13)
    turn = 0
    try:
        for table in tables:
            for deal in range(1, ctx.tournament.deals_per_table(table.size) + 1):
                mode = ("NORMAL", "FULL")[turn % 2]
                turn += 1
                with connection.cursor() as cursor:
                    cursor.execute(MODES[mode])
                game = random_game(rng, deal, table.size)
                game.table = table
                start = time.perf_counter()
                services.save_deal(game)
                times[mode].append(time.perf_counter() - start)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(MODES["FULL"])
    full, normal = times["FULL"], times["NORMAL"]
    return Result(
        statistics.median(full),
        floor=statistics.median(normal),
        target=0.010,
        note=(
            f"{len(full)} deals each, alternating; p99 FULL {p99(full) / MS:.1f} ms, NORMAL {p99(normal) / MS:.1f} ms;"
            " floor: NORMAL; save_deal in its transaction"
        ),
    )
