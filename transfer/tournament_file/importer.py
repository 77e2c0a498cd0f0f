"""Importing a whole tournament file in one transaction: settings, money tables, then the
sheets (transfer.tournament_file.sheets); the rebuilt standings are compared with the file's."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from django.db import transaction

from core.name_checks import name_problem
from core.workbooks import TOURNAMENT_FILES, Limits, WorkbookError, open_workbook
from skat.fees import FeeError
from skat.prizes import PrizeRule, check_prize_rules
from standings.places import standings
from tournaments.models import LostGameFee, PassedOutFee, Prize, TableMoney, Tournament

from ..exports import RANKING_COLUMNS
from .cells import INT_MAX, TransferError, decimal, flag, money, settings_of, sheet_rows, step_number, text, whole
from .sheets import games, players, tables


@dataclass
class TournamentImport:
    tournament: Tournament | None = None
    games: int = 0
    players: int = 0
    differences: list[str] = field(default_factory=list)


def import_tournament(
    source: str | Path | BinaryIO, *, directors=(), limits: Limits = TOURNAMENT_FILES, most_players: int | None = None
) -> TournamentImport:
    """Create the workbook's tournament; raise :class:`TransferError` and write nothing on error.

    ``source``: a path (named in a refusal: the command line's own file) or a binary file
    (named in none: a received body has no name of its own). ``limits``: the guard's
    (:mod:`core.workbooks`) for the archive and every sheet read; a file received
    over the network is read under its sender's, never the command line's huge ones.
    ``most_players``: the most players the file may hold (a publication's bound).
    """
    try:
        workbook = open_workbook(source, limits)
    except WorkbookError as error:
        raise TransferError(f"{source}: {error}" if isinstance(source, str | Path) else str(error)) from None
    try:
        with transaction.atomic():
            return _import(workbook, directors, most_players)
    finally:
        workbook.close()


def _import(workbook, directors, most_players: int | None = None) -> TournamentImport:
    result = TournamentImport()
    settings = settings_of(workbook)
    try:
        date = datetime.date.fromisoformat(text(settings.get("Date"))[:10])
    except ValueError:
        raise TransferError(f"Tournament, Date: {settings.get('Date')!r} is not a date (YYYY-MM-DD)") from None
    name, venue = text(settings.get("Name")), text(settings.get("Venue"))
    for column, value in (("Name", name), ("Venue", venue)):
        if value and (problem := name_problem(value)):
            raise TransferError(f"Tournament, {column}: {problem}")
    tournament = Tournament.objects.create(
        name=name or "Imported tournament",
        date=date,
        venue=venue,
        series_count=whole(settings.get("Number of series"), "Tournament, Number of series"),
        rounds_per_series=whole(settings.get("Rounds per series"), "Tournament, Rounds per series"),
        lot_seed=whole(settings.get("Lot seed"), "Tournament, Lot seed", most=INT_MAX),
        entry_fee=decimal(settings.get("Entry fee"), "Tournament, Entry fee"),
        list_fee=decimal(settings.get("List fee"), "Tournament, List fee"),
        prize_pool_percent=whole(settings.get("Prize pool percent"), "Tournament, Prize pool percent"),
        standings_public=flag(settings.get("Standings public")),
    )
    # Files written before the refund rule keep the model's default.
    if settings.get("List fee refund percent") not in (None, ""):
        tournament.list_fee_refund_percent = whole(
            settings.get("List fee refund percent"), "Tournament, List fee refund percent"
        )
        if tournament.list_fee_refund_percent > 100:
            raise TransferError("Tournament, List fee refund percent: 0 to 100, not more")
        tournament.save(update_fields=["list_fee_refund_percent"])
    # Files written before the choice paid table money in full: they keep it.
    source = text(settings.get("Table money from")) or Tournament.TableMoneyFrom.FULL
    if source not in Tournament.TableMoneyFrom.values:
        raise TransferError(f"Tournament, Table money from: table or full, not {source[:20]!r}")
    tournament.table_money_from = source
    tournament.save(update_fields=["table_money_from"])
    tournament.directors.add(*directors)
    for step in text(settings.get("Lost-game fees")).split():
        nth, _sep, amount = step.partition(":")
        where = f"Tournament, Lost-game fees, {step}"
        LostGameFee.objects.create(
            tournament=tournament, from_lost_game=step_number(nth, where), amount=money(amount, where)
        )
    _money_tables(settings, tournament)
    result.tournament = tournament

    people = players(workbook, tournament, most=most_players)
    result.players = len(people)
    seated = tables(workbook, tournament, people)
    result.games = games(workbook, seated, result.differences)
    _compare_ranking(workbook, tournament, result.differences)
    return result


def _parts(settings: dict, field: str, count: int) -> list[tuple[str, list[str]]]:
    """The ``a:b[:c]`` items of a money table's setting, each with its ``count`` parts.

    An absent field (a file from before the field) is an empty table.
    """
    items = []
    for item in text(settings.get(field)).split():
        parts = item.split(":")
        if len(parts) != count:
            shape = {2: "place:amount", 3: "size:from:amount"}[count]
            raise TransferError(f"Tournament, {field}: {item!r} is not {shape}")
        items.append((item, parts))
    return items


def _money_tables(settings: dict, tournament: Tournament) -> None:
    """Passed-out fees, table money and prizes from the Tournament sheet, each checked."""
    passed, places = set(), set()
    for item, (size, nth, amount) in _parts(settings, "Passed-out fees", 3):
        where = f"Tournament, Passed-out fees, {item}"
        size, nth = whole(size, where), step_number(nth, where)
        if size not in (3, 4) or (size, nth) in passed:
            raise TransferError(f"{where}: a table of 3 or 4, from the 1st passed-out deal on, each step once")
        passed.add((size, nth))
        PassedOutFee.objects.create(
            tournament=tournament, table_size=size, from_passed_out=nth, amount=money(amount, where)
        )
    for item, (size, place, amount) in _parts(settings, "Table money", 3):
        where = f"Tournament, Table money, {item}"
        size, place = whole(size, where), whole(place, where)
        if size not in (3, 4) or not 1 <= place <= size or (size, place) in places:
            raise TransferError(f"{where}: a place at a table of 3 or 4, each once")
        places.add((size, place))
        TableMoney.objects.create(tournament=tournament, table_size=size, place=place, amount=money(amount, where))
    prizes = []
    for item, (place, value) in _parts(settings, "Prizes", 2):
        where = f"Tournament, Prizes, {item}"
        share = value.endswith("%")
        amount = money(value.removesuffix("%"), where, below=10**6)
        prizes.append(
            PrizeRule(step_number(place, where), percent=amount if share else None, amount=None if share else amount)
        )
    try:
        check_prize_rules(prizes)
    except FeeError as error:
        raise TransferError(f"Tournament, Prizes: {error}") from None
    Prize.objects.bulk_create(
        Prize(tournament=tournament, place=p.place, percent=p.percent, amount=p.amount) for p in prizes
    )


def _compare_ranking(workbook, tournament: Tournament, differences: list[str]) -> None:
    """The rebuilt standings against the file's Ranking sheet: any difference is reported."""
    if "Ranking" not in workbook.sheetnames:
        return
    rebuilt = [
        (entry.place, entry.item.name, r.points, r.won, r.lost, r.bonus, r.rating)
        for entry in standings(tournament)
        for r in (entry.rating,)
    ]
    wanted = ("Place", "Name", "Game points", "Won", "Lost", "Bonus", "Rating")
    order = [RANKING_COLUMNS.index(c) for c in wanted]
    for (number, row), mine in zip(sheet_rows(workbook, "Ranking", RANKING_COLUMNS), rebuilt, strict=False):
        theirs = tuple(text(row[i]) if c == "Name" else row[i] for c, i in zip(wanted, order, strict=True))
        if theirs != mine:
            differences.append(f"Ranking, row {number}: the file says {theirs}, the rebuilt standings {mine}")
