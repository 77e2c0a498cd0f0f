"""Rebuilding a tournament from its league workbook (``manage.py import_tournament``).

The workbook written by :func:`scoring.exports.league_xlsx` carries the settings
(sheet Tournament), the registrations (Players), the series with every seat (Tables)
and every deal as entered (Games). The import creates a new tournament from them in
one transaction. Every game is valued again by the engine
(:meth:`scoring.models.Game.apply_rules`); the file's game values are never trusted,
only compared: differences are reported, the engine's values are stored. A game the
engine refuses stops the import and nothing is written.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction

from scoring.exports import FORMAT_VERSION, FORMULA_STARTS, GAMES_COLUMNS, PLAYERS_COLUMNS, TABLES_COLUMNS
from scoring.models import Game
from scoring.rules import RuleError

from .models import (
    Club,
    LostGameFee,
    PassedOutFee,
    Player,
    Prize,
    Registration,
    Seat,
    Series,
    Table,
    TableMoney,
    Team,
    Tournament,
)


class TransferError(ValueError):
    """The workbook cannot be imported; the message names the sheet, row and column."""


@dataclass
class TournamentImport:
    tournament: Tournament | None = None
    games: int = 0
    players: int = 0
    differences: list[str] = field(default_factory=list)


def _rows(workbook, name: str, columns: tuple[str, ...]):
    if name not in workbook.sheetnames:
        raise TransferError(f"sheet {name!r} is missing; export the tournament with this office")
    sheet = workbook[name]
    # A streamed workbook states no dimensions; without this openpyxl would read each
    # sheet twice, once only to measure it. Rows then end at their last value.
    sheet.reset_dimensions()
    rows = sheet.iter_rows(values_only=True)
    header = next(rows, ())
    positions = {title: i for i, title in enumerate(header) if title is not None}
    missing = [c for c in columns if c not in positions]
    if missing:
        raise TransferError(f"sheet {name}: missing columns {', '.join(missing)}")
    index = [positions[c] for c in columns]
    for number, values in enumerate(rows, start=2):
        if values is None or all(v is None for v in values):
            continue
        padded = list(values) + [None] * (len(header) - len(values))
        yield number, [padded[i] for i in index]


def _int(value, where: str, *, optional: bool = False) -> int | None:
    if value is None or value == "":
        if optional:
            return None
        raise TransferError(f"{where}: a whole number is required")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        try:
            return int(value.strip())
        except ValueError:  # "²" passes isdigit(); thousands of digits exceed int()'s limit
            pass
    raise TransferError(f"{where}: {value!r} is not a whole number")


def _text(value) -> str:
    """A text cell; the apostrophe the export puts before formula-like text is removed."""
    text = "" if value is None else str(value).strip()
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text


def _flag(value) -> bool:
    return _text(value).casefold() in {"x", "1", "true", "yes", "ja"}


def _settings(workbook) -> dict[str, object]:
    if "Tournament" not in workbook.sheetnames:
        raise TransferError("sheet 'Tournament' is missing; export the tournament with this office")
    values = {}
    for row in workbook["Tournament"].iter_rows(min_row=2, values_only=True):
        if row and row[0] is not None:
            values[str(row[0])] = row[1] if len(row) > 1 else None
    if _int(values.get("Format"), "Tournament, Format", optional=True) != FORMAT_VERSION:
        raise TransferError(f"Tournament, Format: this office reads format {FORMAT_VERSION}")
    return values


def _decimal(value, where: str) -> Decimal:
    try:
        return Decimal(str(value if value is not None else "0"))
    except InvalidOperation:
        raise TransferError(f"{where}: {value!r} is not an amount") from None


def import_tournament(path: str | Path, *, directors=()) -> TournamentImport:
    """Create the workbook's tournament; raise :class:`TransferError` and write nothing on error."""
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a file that is not a workbook
        raise TransferError(f"{path}: not a readable XLSX workbook ({error})") from None
    try:
        with transaction.atomic():
            return _import(workbook, directors)
    finally:
        workbook.close()


def _import(workbook, directors) -> TournamentImport:
    result = TournamentImport()
    settings = _settings(workbook)
    try:
        date = datetime.date.fromisoformat(_text(settings.get("Date"))[:10])
    except ValueError:
        raise TransferError(f"Tournament, Date: {settings.get('Date')!r} is not a date (YYYY-MM-DD)") from None
    tournament = Tournament.objects.create(
        name=_text(settings.get("Name")) or "Imported tournament",
        date=date,
        venue=_text(settings.get("Venue")),
        series_count=_int(settings.get("Number of series"), "Tournament, Number of series"),
        rounds_per_series=_int(settings.get("Rounds per series"), "Tournament, Rounds per series"),
        lot_seed=_int(settings.get("Lot seed"), "Tournament, Lot seed"),
        entry_fee=_decimal(settings.get("Entry fee"), "Tournament, Entry fee"),
        list_fee=_decimal(settings.get("List fee"), "Tournament, List fee"),
        prize_pool_percent=_int(settings.get("Prize pool percent"), "Tournament, Prize pool percent"),
        standings_public=_flag(settings.get("Standings public")),
    )
    tournament.directors.add(*directors)
    for step in _text(settings.get("Lost-game fees")).split():
        nth, _sep, amount = step.partition(":")
        where = f"Tournament, Lost-game fees, {step}"
        LostGameFee.objects.create(
            tournament=tournament, from_lost_game=_count(nth, where), amount=_amount(amount, where)
        )
    _money_tables(settings, tournament)
    result.tournament = tournament

    players = _players(workbook, tournament)
    result.players = len(players)
    tables = _tables(workbook, tournament, players)
    result.games = _games(workbook, tables, result.differences)
    _compare_ranking(workbook, tournament, result.differences)
    return result


def _parts(settings: dict, field: str, count: int) -> list[tuple[str, list[str]]]:
    """The ``a:b[:c]`` items of a money table's setting, each with its ``count`` parts.

    An absent field (a file from before the field) is an empty table.
    """
    items = []
    for item in _text(settings.get(field)).split():
        parts = item.split(":")
        if len(parts) != count:
            shape = {2: "place:amount", 3: "size:from:amount"}[count]
            raise TransferError(f"Tournament, {field}: {item!r} is not {shape}")
        items.append((item, parts))
    return items


#: The largest value of a PositiveSmallIntegerField on every database (PostgreSQL's smallint).
SMALLINT_MAX = 32767


def _count(value, where: str) -> int:
    """A step or a place: a whole number from 1 to what its column holds, or a named refusal."""
    number = _int(value, where)
    if not 1 <= number <= SMALLINT_MAX:
        raise TransferError(f"{where}: {number} is not a number from 1 to {SMALLINT_MAX}")
    return number


def _amount(value: str, where: str, *, below: int = 10**4) -> Decimal:
    """An amount in cents, 0 or more and below ``below`` (the model's column: a fee has
    6 digits, a prize 8), so PostgreSQL never refuses what this let through."""
    amount = _decimal(value, where)
    if not amount.is_finite() or not 0 <= amount < below or amount != amount.quantize(Decimal("0.01")):
        raise TransferError(f"{where}: {value!r} is not an amount of 0 to {below - 1}.99 in cents")
    return amount


def _money_tables(settings: dict, tournament: Tournament) -> None:
    """Passed-out fees, table money and prizes from the Tournament sheet, each checked."""
    from scoring.fees import FeeError, PrizeRule, check_prize_rules

    passed, money = set(), set()
    for item, (size, nth, amount) in _parts(settings, "Passed-out fees", 3):
        where = f"Tournament, Passed-out fees, {item}"
        size, nth = _int(size, where), _count(nth, where)
        if size not in (3, 4) or (size, nth) in passed:
            raise TransferError(f"{where}: a table of 3 or 4, from the 1st passed-out deal on, each step once")
        passed.add((size, nth))
        PassedOutFee.objects.create(
            tournament=tournament, table_size=size, from_passed_out=nth, amount=_amount(amount, where)
        )
    for item, (size, place, amount) in _parts(settings, "Table money", 3):
        where = f"Tournament, Table money, {item}"
        size, place = _int(size, where), _int(place, where)
        if size not in (3, 4) or not 1 <= place <= size or (size, place) in money:
            raise TransferError(f"{where}: a place at a table of 3 or 4, each once")
        money.add((size, place))
        TableMoney.objects.create(tournament=tournament, table_size=size, place=place, amount=_amount(amount, where))
    prizes = []
    for item, (place, value) in _parts(settings, "Prizes", 2):
        where = f"Tournament, Prizes, {item}"
        share = value.endswith("%")
        amount = _amount(value.removesuffix("%"), where, below=10**6)
        prizes.append(
            PrizeRule(_count(place, where), percent=amount if share else None, amount=None if share else amount)
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
    from scoring.exports import RANKING_COLUMNS
    from scoring.standings import standings

    if "Ranking" not in workbook.sheetnames:
        return
    rebuilt = [
        (entry.place, entry.item.name, r.points, r.won, r.lost, r.bonus, r.rating)
        for entry in standings(tournament)
        for r in (entry.rating,)
    ]
    wanted = ("Place", "Name", "Game points", "Won", "Lost", "Bonus", "Rating")
    order = [RANKING_COLUMNS.index(c) for c in wanted]
    for (number, row), mine in zip(_rows(workbook, "Ranking", RANKING_COLUMNS), rebuilt, strict=False):
        theirs = tuple(_text(row[i]) if c == "Name" else row[i] for c, i in zip(wanted, order, strict=True))
        if theirs != mine:
            differences.append(f"Ranking, row {number}: the file says {theirs}, the rebuilt standings {mine}")


def _players(workbook, tournament: Tournament) -> dict[int, Player]:
    """Players sheet -> {file's Player ID: player}; existing players are matched by membership number."""
    rows = list(_rows(workbook, "Players", PLAYERS_COLUMNS))
    numbers = [_text(r[3]) for _n, r in rows if _text(r[3])]
    known = {p.membership_number: p for p in Player.objects.filter(membership_number__in=numbers)}
    # New players keep the file's Player ID where it is free (always in an empty database):
    # the lot that breaks exact ties is drawn from the player's id (scoring.rating.rank).
    keys = [r[0] for _n, r in rows if isinstance(r[0], int)]
    taken = set(Player.objects.filter(pk__in=keys).values_list("pk", flat=True))
    clubs = {c.name: c for c in Club.objects.all()}
    teams: dict[str, Team] = {}
    by_id: dict[int, Player] = {}
    registrations = []
    for number, (key, name, club_name, membership, nationality, team, first, withdrawn, paid) in rows:
        where = f"Players, row {number}"
        key = _int(key, f"{where}, Player ID")
        if key in by_id:
            raise TransferError(f"{where}, Player ID: {key} appears twice")
        name, club_name, membership = _text(name), _text(club_name), _text(membership)
        if not name:
            raise TransferError(f"{where}, Name: empty")
        player = known.get(membership) if membership else None
        if player is not None and player.name.casefold() != name.casefold():
            raise TransferError(f"{where}, Membership number: {membership} belongs to {player.name}, not {name}")
        if player is None:
            club = None
            if club_name:
                club = clubs.get(club_name) or Club.objects.create(name=club_name)
                clubs[club_name] = club
            player = Player.objects.create(
                pk=key if key not in taken else None,
                name=name,
                club=club,
                membership_number=membership,
                nationality=_text(nationality)[:3],
            )
        by_id[key] = player
        team_obj = None
        if _text(team):
            team_obj = teams.get(_text(team)) or Team.objects.create(tournament=tournament, name=_text(team))
            teams[_text(team)] = team_obj
        registrations.append(
            Registration(
                tournament=tournament,
                player=player,
                team=team_obj,
                first_series=_int(first, f"{where}, Plays from series", optional=True) or 1,
                withdrawn_after_series=_int(withdrawn, f"{where}, Withdrew after series", optional=True),
                paid=_flag(paid),
            )
        )
    Registration.objects.bulk_create(registrations, batch_size=1000)
    # Explicit ids leave PostgreSQL's sequence behind; move it past them.
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Player]):
            cursor.execute(sql)
    return by_id


def _tables(workbook, tournament: Tournament, players: dict[int, Player]) -> dict[tuple[int, int], Table]:
    series_by_number: dict[int, Series] = {}
    tables: dict[tuple[int, int], Table] = {}
    seats: list[tuple[tuple[int, int], int, Player, int]] = []
    for number, (series, status, method, seed, table, size, seat, key, _name, _m) in _rows(
        workbook, "Tables", TABLES_COLUMNS
    ):
        where = f"Tables, row {number}"
        series_number = _int(series, f"{where}, Series")
        if series_number not in series_by_number:
            if _text(status) not in Series.Status.values or _text(method) not in Series.Method.values:
                raise TransferError(f"{where}: unknown series status {status!r} or draw {method!r}")
            series_by_number[series_number] = Series.objects.create(
                tournament=tournament,
                number=series_number,
                status=_text(status),
                method=_text(method),
                seed=_int(seed, f"{where}, Draw seed", optional=True) or 0,
            )
        table_key = (series_number, _int(table, f"{where}, Table"))
        if table_key not in tables:
            size_value = _int(size, f"{where}, Size")
            if size_value not in (3, 4):
                raise TransferError(f"{where}, Size: a table has 3 or 4 players, not {size_value} (3.2.7)")
            tables[table_key] = Table(series=series_by_number[series_number], number=table_key[1], size=size_value)
        player = players.get(_int(key, f"{where}, Player ID"))
        if player is None:
            raise TransferError(f"{where}, Player ID: {key} is not on the Players sheet")
        seats.append((table_key, _int(seat, f"{where}, Seat"), player, number))
    Table.objects.bulk_create(tables.values(), batch_size=1000)
    filled: dict[tuple[int, int], int] = {}
    objects = []
    for table_key, seat, player, number in seats:
        table = tables[table_key]
        if not 1 <= seat <= table.size:
            raise TransferError(f"Tables, row {number}, Seat: {seat} is not a seat at a table of {table.size}")
        filled[table_key] = filled.get(table_key, 0) + 1
        objects.append(Seat(table=table, series=table.series, number=seat, player=player))
    for table_key, table in tables.items():
        if filled.get(table_key) != table.size:
            raise TransferError(f"Tables: series {table_key[0]}, table {table_key[1]} is not fully seated")
    try:
        with transaction.atomic():
            Seat.objects.bulk_create(objects, batch_size=2000)
    except IntegrityError:
        raise TransferError("Tables: a seat is taken twice or a player sits twice in one series") from None
    return tables


_COMPARED = (("Game value", "value"), ("Score", "score"), ("Dealer seat", "dealer_seat"))


def _games(workbook, tables: dict[tuple[int, int], Table], differences: list[str]) -> int:
    col = {name: i for i, name in enumerate(GAMES_COLUMNS)}
    batch: list[Game] = []
    count = 0
    expected: dict[tuple[int, int], int] = {}
    for number, row in _rows(workbook, "Games", GAMES_COLUMNS):
        where = f"Games, row {number}"
        key = (_int(row[col["Series"]], f"{where}, Series"), _int(row[col["Table"]], f"{where}, Table"))
        table = tables.get(key)
        if table is None:
            raise TransferError(f"{where}: series {key[0]}, table {key[1]} is not on the Tables sheet")
        deal = _int(row[col["Deal"]], f"{where}, Deal")
        if deal != expected.get(key, 1) or deal > table.series.tournament.deals_per_table(table.size):
            raise TransferError(
                f"{where}, Deal: expected deal {expected.get(key, 1)} of this table, not {deal} (3.2.1)"
            )
        expected[key] = deal + 1
        game = Game(
            table=table,
            number=deal,
            passed_out=_flag(row[col["Passed out"]]),
            declarer_seat=_int(row[col["Declarer seat"]], f"{where}, Declarer seat", optional=True),
            contract=_text(row[col["Contract"]]),
            tops_kind=_text(row[col["With/without"]]),
            tops=_int(row[col["Tops"]], f"{where}, Tops", optional=True),
            hand=_flag(row[col["Hand"]]),
            schneider_announced=_flag(row[col["Schneider announced"]]),
            schwarz_announced=_flag(row[col["Schwarz announced"]]),
            ouvert=_flag(row[col["Ouvert"]]),
            bid=_int(row[col["Bid"]], f"{where}, Bid", optional=True),
            declarer_points=_int(row[col["Declarer card points"]], f"{where}, Declarer card points", optional=True),
            declarer_tricks=_int(row[col["Declarer tricks"]], f"{where}, Declarer tricks", optional=True),
            irregularity=_text(row[col["Irregularity by"]]),
            voided=_flag(row[col["Void"]]),
            entered_by="import",
        )
        if game.tops_kind not in ("", *Game.TopsKind.values):
            raise TransferError(f"{where}, With/without: {game.tops_kind!r} is neither with nor without (2.4.1)")
        try:
            game.apply_rules(table.size)
        except RuleError as error:
            raise TransferError(f"{where}: {error}") from None
        for column, attribute in _COMPARED:
            written = _int(row[col[column]], f"{where}, {column}", optional=True) or 0
            if written != getattr(game, attribute):
                differences.append(
                    f"{where}, {column}: the file says {written}, the rules give {getattr(game, attribute)}"
                )
        written_result = _text(row[col["Won/lost"]])
        engine_result = "won" if game.won else "lost" if game.lost else ""
        if written_result != engine_result:
            differences.append(
                f"{where}, Won/lost: the file says {written_result!r}, the rules give {engine_result!r}"
            )
        batch.append(game)
        if len(batch) >= 5000:
            Game.objects.bulk_create(batch)
            count += len(batch)
            batch = []
    Game.objects.bulk_create(batch)
    return count + len(batch)
