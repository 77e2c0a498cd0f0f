"""The figures behind ``manage.py bench``: what is timed on the synthetic tournament.

Every figure is the median of repeated runs and is printed beside its floor (the
cheapest way the database or library could do the same work) and its target, so a
regression shows as a ratio, not as a feeling. Targets are for the project's 2-core
reference machine (docs, "Benchmarks").

The tournament (:func:`perf.fixtures.build`) lives in a throwaway database
(:func:`perf.scratch.scratch_database`): a temporary SQLite file, or a scratch
database created and dropped on a PostgreSQL server. The user's own database is never
touched.

A figure is one entry of :data:`FIGURES`: a name and a function of the
:class:`Context` that returns a :class:`~perf.timing.Result`. Adding one is a few lines.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.test.utils import override_settings
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as office_urlpatterns
from draw.series import previous_meetings
from office.demo import random_game
from scoring import services
from scoring.models import Game
from skat.draw import Entrant, draw
from standings.places import standings
from tournaments.models import Registration, Series, Table, Tournament

from .durability import measure_save_deal, measure_synchronous
from .fixtures import entry_data, shown_version
from .ranking import measure_pages_while_recomputing
from .standings_change import measure_projector, measure_public_standings
from .timing import MB, MS, Log, Result, median_time, not_available, paired_median_times, peak_memory
from .xlsx import synthetic_rows, xlsx_floor


@dataclass
class Context:
    """What every figure may use: the built tournament and the run's settings."""

    tournament: Tournament
    repeat: int
    log: Log = print
    cache: dict = field(default_factory=dict)

    @property
    def vendor(self) -> str:
        return connection.vendor


@dataclass(frozen=True)
class FigureDef:
    name: str
    measure: Callable[[Context], Result]


# --- the figures ------------------------------------------------------------------------------------

FLOOR_SQL = (
    "SELECT table_id, declarer_seat, COUNT(*), SUM(score), "
    "COUNT(*) FILTER (WHERE won), COUNT(*) FILTER (WHERE lost) "
    "FROM scoring_game GROUP BY table_id, declarer_seat"
)


def measure_standings(ctx: Context) -> Result:
    """Overall standings of every player against one bare GROUP BY over the games.

    The standings themselves read the seat totals the database triggers keep
    (scoring.models.SeatTotal), not the games; the floor is the GROUP BY they replace.

    Both are quick (tens of milliseconds), so each is run at least 21 times, the two
    alternating: a busy moment of the machine then slows both, not just one, and the
    ratio stays fair.
    """
    tournament = ctx.tournament

    def floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute(FLOOR_SQL)
            cursor.fetchall()

    rows = standings(tournament)
    median, floor_median = paired_median_times(lambda: standings(tournament), floor, max(ctx.repeat, 21))
    return Result(
        median,
        floor=floor_median,
        target=0.100 if ctx.vendor == "sqlite" else None,
        target_ratio=2.0,
        note=f"{len(rows)} players, {Game.objects.count()} games; floor: bare GROUP BY (read: the seat totals)",
    )


def measure_entry(ctx: Context) -> Result:
    """One deal through the table link: a full htmx POST as the phone sends it.

    Tables of the last series are re-opened (their games deleted, untimed) so each
    request enters the table's next deal; the answer carries only what changed (the new
    row, the totals, the next form: tablelink.answers), the whole sheet for a table's
    first and last deal. Every table is entered to its last deal, so the median covers
    short and full sheets alike. Its floor is the next figure's (:func:`bare_entry`).
    """
    tournament = ctx.tournament
    series = tournament.series.order_by("-number").first()
    count = max(ctx.repeat * 4, 20)
    tables = list(series.tables.order_by("number")[: count // 36 + 1])
    Game.objects.filter(table__in=tables).delete()
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    rng = random.Random(7)
    with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        client = Client()
        times = []
        for table in tables:
            url = table.entry_url()
            response = client.get(url)
            for deal in range(1, tournament.deals_per_table(table.size) + 1):
                data = entry_data(random_game(rng, deal, table.size)) | shown_version(response.content)
                start = time.perf_counter()
                response = client.post(url, data, HTTP_HX_REQUEST="true")
                times.append(time.perf_counter() - start)
                if response.status_code != 200 or b"entered" not in response.content:
                    raise RuntimeError(f"entry refused ({response.status_code}): {response.content[:400]!r}")
    Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
    return Result(
        statistics.median(times),
        target=0.005,
        note=f"{len(times)} deals, test client, htmx POST + what changed on the sheet",
    )


# --- the entry's floor -------------------------------------------------------------------------------
# The floor of a deal entered through the table link: the same deal saved under the table's lock in a
# transaction by a bare view that answers 204, and nothing else (find the table, take its lock, value
# and store the deal: scoring.services.save_deal, the triggers, the commit). It is mounted only here:
# :data:`urlpatterns` is the office's URLconf with it added, put in force by
# ``override_settings(ROOT_URLCONF="perf.bench")`` for the figure's run; config/urls.py never includes
# it, so the served office has no such address.

#: The bare view's address (under the office's own table links' prefix).
FLOOR_PATH = "s/bench-floor/<str:token>/"


@require_POST
def bare_entry(request: HttpRequest, token: str) -> HttpResponse:
    """Store the posted deal on the token's table under its lock: no form, no checks, no answer."""
    table = Table.objects.only("pk", "size").get(token=token)
    fields = {}
    for name in Game.ENTERED_FIELDS:
        field = Game._meta.get_field(name)
        raw = request.POST.get(name)
        if raw is None:
            fields[name] = False if field.get_internal_type() == "BooleanField" else field.get_default()
        else:
            fields[name] = raw == "on" if field.get_internal_type() == "BooleanField" else field.to_python(raw)
    game = Game(table=table, number=int(request.POST["number"]), **fields)
    with transaction.atomic():
        Table.objects.lock(table.pk)
        services.save_deal(game, locked=True)
    return HttpResponse(status=204)


urlpatterns = [*office_urlpatterns, path(FLOOR_PATH, bare_entry, name="bench_floor")]


def measure_entry_against_floor(ctx) -> Result:
    """Deals entered through the table link against the same deals stored by :func:`bare_entry`.

    The last series' tables are re-opened (their games deleted, untimed) and paired: the
    first of each pair is entered through its link, the second gets the same deals through
    the bare view, request by request in turn. Every table is entered to its last deal,
    so the median covers the lean answer of a deal appended and the whole sheet of the
    first and the last deal alike.
    """
    tournament = ctx.tournament
    series = tournament.series.order_by("-number").first()
    count = max(ctx.repeat * 4, 20)
    pairs = count // 36 + 1
    tables = list(series.tables.order_by("number")[: 2 * pairs])
    if len(tables) < 2:
        return Result(None, available=False, note="needs two tables in the last series")
    Game.objects.filter(table__in=tables).delete()
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    rng = random.Random(7)
    entry: list[float] = []
    floor: list[float] = []
    try:
        with override_settings(ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False, ROOT_URLCONF=__name__):
            client = Client()
            for real, twin in zip(tables[0::2], tables[1::2], strict=False):
                url, bare = real.entry_url(), f"/s/bench-floor/{twin.token}/"
                shown = shown_version(client.get(url).content)
                for deal in range(1, tournament.deals_per_table(real.size) + 1):
                    data = entry_data(random_game(rng, deal, real.size))
                    start = time.perf_counter()
                    response = client.post(url, data | shown, HTTP_HX_REQUEST="true")
                    entry.append(time.perf_counter() - start)
                    if response.status_code != 200 or b"entered" not in response.content:
                        raise RuntimeError(f"entry refused ({response.status_code}): {response.content[:400]!r}")
                    shown = shown_version(response.content)
                    start = time.perf_counter()
                    response = client.post(bare, data, HTTP_HX_REQUEST="true")
                    floor.append(time.perf_counter() - start)
                    if response.status_code != 204:
                        raise RuntimeError(f"bare entry failed ({response.status_code}): {response.content[:400]!r}")
    finally:
        Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED)
    return Result(
        statistics.median(entry),
        floor=statistics.median(floor),
        target=5 * MS,
        target_ratio=2.0,
        note=f"{len(entry)} deals each, alternating; floor: the same deal saved under the table's lock, answer 204",
    )


def _draw_input(ctx: Context) -> tuple[list[Entrant], list[tuple[int, int]], list[int]]:
    if "draw" not in ctx.cache:
        tournament = ctx.tournament
        registrations = Registration.objects.filter(tournament=tournament).select_related("player")
        entrants = [Entrant(r.player_id, club=r.player.club_id, team=r.team_id) for r in registrations]
        ranking = [row.item.player_id for row in standings(tournament)]
        ranked = set(ranking)
        ranking += [e.id for e in entrants if e.id not in ranked]
        ctx.cache["draw"] = (entrants, previous_meetings(tournament), ranking)
    return ctx.cache["draw"]


def measure_draw(seeded: bool) -> Callable[[Context], Result]:
    def measure(ctx: Context) -> Result:
        entrants, met, ranking = _draw_input(ctx)
        results = []

        def run() -> None:
            results.append(draw(entrants, seed=len(results) + 1, met=met, ranking=ranking if seeded else None))

        median = median_time(run, ctx.repeat, warm=False)
        last = results[-1]
        return Result(
            median,
            target=2.0,
            note=(
                f"{len(entrants)} players, {len(met)} earlier meetings; left: {last.repeat_meetings} repeat,"
                f" {last.club_meetings} club, {last.team_meetings} team"
            ),
        )

    return measure


#: Where the scoresheet PDFs live (a bench of an older office looks there first).
PDF_MODULES = ("printing.documents",)


def _pdf_module():
    """The module with ``table_sheet_pdf`` and ``series_sheets_pdf``, or None when none is installed."""
    import importlib

    for name in PDF_MODULES:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as error:
            # Missing: the module itself or a package it lies in; anything else is a bug.
            if not (name == error.name or name.startswith(f"{error.name}.")):
                raise
    return None


def measure_sheet_pdf(ctx: Context) -> Result:
    pdf = _pdf_module()
    if pdf is None:
        return not_available("printing.documents", target=0.100)
    table_sheet_pdf = pdf.table_sheet_pdf
    table = ctx.tournament.series.order_by("number").first().tables.order_by("number").first()
    return Result(median_time(lambda: table_sheet_pdf(table, filled=True), ctx.repeat), target=0.100)


def measure_series_pdf(ctx: Context) -> Result:
    pdf = _pdf_module()
    if pdf is None:
        return not_available("printing.documents", target=12.0)
    series_sheets_pdf = pdf.series_sheets_pdf
    series = ctx.tournament.series.order_by("number").first()

    def run() -> None:
        series_sheets_pdf(series, filled=True, out=io.BytesIO())

    return Result(
        median_time(run, min(ctx.repeat, 3), warm=False),
        target=12.0,
        note=f"{series.tables.count()} sheets, filled",
    )


def measure_start_cards(ctx: Context) -> Result:
    """Every registered player's start card, as the director prints them at the door: the
    query, each player's private link and its QR code, the PDF written."""
    pdf = _pdf_module()
    if pdf is None or not hasattr(pdf, "start_cards_pdf"):
        return not_available("printing.documents.start_cards_pdf", target=3.0)
    tournament = ctx.tournament

    def run() -> None:
        pdf.start_cards_pdf(tournament, absolute_url=lambda path: f"http://192.168.1.20:8000{path}", out=io.BytesIO())

    players = Registration.objects.filter(tournament=tournament, withdrawn_after_series__isnull=True).count()
    return Result(median_time(run, min(ctx.repeat, 3), warm=False), target=3.0, note=f"{players} cards")


def measure_league_xlsx(ctx: Context) -> Result:
    try:
        from transfer.exports import league_xlsx
    except ModuleNotFoundError as error:
        if error.name != "transfer.exports":
            raise
        return not_available("transfer.exports", target_ratio=1.3)
    tournament = ctx.tournament
    repeat = min(ctx.repeat, 3)
    games = Game.objects.filter(table__series__tournament=tournament).count()
    median = median_time(lambda: league_xlsx(tournament, io.BytesIO()), repeat, warm=False)
    floor = median_time(lambda: xlsx_floor(synthetic_rows(games), io.BytesIO()), repeat, warm=False)
    ctx.cache["xlsx"] = lambda: league_xlsx(tournament, io.BytesIO())
    return Result(median, floor=floor, target_ratio=1.3, note=f"{games} rows; floor: bare openpyxl write-only")


def measure_league_xlsx_memory(ctx: Context) -> Result:
    try:
        from transfer.exports import league_xlsx
    except ModuleNotFoundError as error:
        if error.name != "transfer.exports":
            raise
        return not_available("transfer.exports", target=300 * MB, unit="B")
    tournament = ctx.tournament
    _seconds, peak, baseline = peak_memory(lambda: league_xlsx(tournament, io.BytesIO()))
    return Result(
        peak,
        target=300 * MB,
        unit="B",
        note=f"peak RSS of a process that only exports; at start {baseline / MB:.0f} MB",
    )


#: The figures, in the order printed. A new one is a name and a function of the Context.
FIGURES: list[FigureDef] = [
    FigureDef("overall standings", measure_standings),
    FigureDef("enter one game through the table link", measure_entry),
    FigureDef("enter one game against its floor (the deal saved under the lock, 204)", measure_entry_against_floor),
    FigureDef("deal posted one after another, SQLite synchronous NORMAL vs FULL", measure_synchronous),
    FigureDef("save_deal one after another, SQLite synchronous NORMAL vs FULL", measure_save_deal),
    FigureDef("draw a series at random", measure_draw(seeded=False)),
    FigureDef("draw a series seeded", measure_draw(seeded=True)),
    FigureDef("one filled scoresheet PDF", measure_sheet_pdf),
    FigureDef("all scoresheets of a series PDF", measure_series_pdf),
    FigureDef("start cards PDF, every player", measure_start_cards),
    FigureDef("league XLSX of the tournament", measure_league_xlsx),
    FigureDef("league XLSX peak memory", measure_league_xlsx_memory),
    FigureDef("ranking pages while it recomputes", measure_pages_while_recomputing),
    FigureDef("standings page, first request after one deal", measure_public_standings),
    FigureDef("projector page, first request after one deal", measure_projector),
]
