"""The tournament file's Players, Tables and Games sheets, rebuilt row by row."""

from __future__ import annotations

from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction

from core.name_checks import name_problem
from scoring import services
from scoring.models import Game
from skat.rules import RuleError
from tournaments.models import Category, Club, Player, Registration, Seat, Series, Table, Team, Tournament

from ..exports import GAMES_COLUMNS, PLAYERS_COLUMNS, TABLES_COLUMNS
from .cells import BIGINT_MAX, INT_MAX, TransferError, flag, sheet_rows, text, whole

#: The highest Player ID of a file kept as the new player's id: a file must not push the
#: database's id sequence to its end (a Player ID of 2**63 - 1 made every later player a
#: 500 on the whole server); a larger one gets a fresh id, as a taken one does.
KEPT_ID_MAX = INT_MAX


def players(workbook, tournament: Tournament, *, most: int | None = None) -> dict[int, Player]:
    """Players sheet -> {file's Player ID: player}; existing players are matched by membership
    number. ``most``: the most players the file may hold (a publication's bound)."""
    rows = _player_rows(workbook, most)
    numbers = [text(r[3]) for _n, r in rows if text(r[3])]
    known = {p.membership_number: p for p in Player.objects.filter(membership_number__in=numbers)}
    # New players keep the file's Player ID where it is free (always in an empty database):
    # the lot that breaks exact ties is drawn from the player's id (skat.rating.rank).
    keys = [r[0] for _n, r in rows if isinstance(r[0], int) and 1 <= r[0] <= KEPT_ID_MAX]
    taken = set(Player.objects.filter(pk__in=keys).values_list("pk", flat=True))
    clubs = {c.name: c for c in Club.objects.all()}
    teams: dict[str, Team] = {}
    categories: dict[str, Category] = {}
    by_id: dict[int, Player] = {}
    new: list[Player] = []
    seen: dict[str, int] = {}
    registrations = []
    for number, (key, name, club_name, membership, nationality, team, first, withdrawn, paid, category) in rows:
        where = f"Players, row {number}"
        key = whole(key, f"{where}, Player ID", least=1, most=BIGINT_MAX)
        if key in by_id:
            raise TransferError(f"{where}, Player ID: {key} appears twice")
        name, club_name, membership = text(name), text(club_name), text(membership)
        _check_names(where, name, club_name, text(team), text(category))
        player = _known_player(where, number, name, membership, known, seen)
        if player is None:
            keep = key <= KEPT_ID_MAX and key not in taken
            player = Player(
                pk=key if keep else None,
                name=name,
                club=_club(clubs, club_name),
                membership_number=membership,
                nationality=text(nationality)[:3],
            ).fill_keys()
            new.append(player)
        by_id[key] = player
        registrations.append(
            Registration(
                tournament=tournament,
                player=player,
                team=_team(tournament, teams, text(team)),
                category=_category(tournament, categories, text(category)),
                first_series=whole(first, f"{where}, Plays from series", optional=True) or 1,
                withdrawn_after_series=whole(withdrawn, f"{where}, Withdrew after series", optional=True),
                paid=flag(paid),
            )
        )
    _save_players(new, registrations)
    return by_id


def _player_rows(workbook, most: int | None) -> list[tuple[int, tuple]]:
    """The Players sheet's rows, refused when there are more than ``most``."""
    # The category (best woman, best senior) is written last; a file of before has none.
    rows = list(sheet_rows(workbook, "Players", PLAYERS_COLUMNS, optional=("Category",)))
    if most is not None and len(rows) > most:
        raise TransferError(
            f"Players: {len(rows)} players, more than the {most} a file sent here may hold; "
            "a larger tournament is imported on the server (manage.py import_tournament)"
        )
    return rows


def _check_names(where: str, name: str, club_name: str, team: str, category: str) -> None:
    """A player needs a name; a name, club, team or category must be one a person can read."""
    if not name:
        raise TransferError(f"{where}, Name: empty")
    if len(category) > 60:
        raise TransferError(f"{where}, Category: longer than 60 characters")
    for column, value in (("Name", name), ("Club", club_name), ("Team", team), ("Category", category)):
        if value and (problem := name_problem(value)):
            raise TransferError(f"{where}, {column}: {problem}")


def _known_player(
    where: str, number: int, name: str, membership: str, known: dict[str, Player], seen: dict[str, int]
) -> Player | None:
    """The player a row's membership number names (it must be his name), or None for a new one;
    a number on two rows of the file is refused."""
    if membership and membership in seen:
        raise TransferError(f"{where}, Membership number: {membership} is on row {seen[membership]} already")
    seen[membership] = number
    player = known.get(membership) if membership else None
    if player is not None and player.name.casefold() != name.casefold():
        raise TransferError(f"{where}, Membership number: {membership} belongs to {player.name}, not {name}")
    return player


def _club(clubs: dict[str, Club], club_name: str) -> Club | None:
    """The club of that name, created the first time the database does not know it."""
    if not club_name:
        return None
    club = clubs.get(club_name) or Club.objects.create(name=club_name)
    clubs[club_name] = club
    return club


def _team(tournament: Tournament, teams: dict[str, Team], name: str) -> Team | None:
    """The tournament's team of that name, created on its first row."""
    if not name:
        return None
    team = teams.get(name) or Team.objects.create(tournament=tournament, name=name)
    teams[name] = team
    return team


def _category(tournament: Tournament, categories: dict[str, Category], name: str) -> Category | None:
    """The tournament's category of that name, created on its first row ("damen" is Damen)."""
    if not name:
        return None
    category = categories.get(name.casefold()) or Category.objects.create(tournament=tournament, name=name)
    categories[name.casefold()] = category
    return category


def _save_players(new: list[Player], registrations: list[Registration]) -> None:
    """In bulk, a few queries for any number of players: those keeping their file's id first,
    then the others, whose ids the database gives (and bulk_create sets on them)."""
    Player.objects.bulk_create([p for p in new if p.pk is not None], batch_size=1000)
    Player.objects.bulk_create([p for p in new if p.pk is None], batch_size=1000)
    Registration.objects.bulk_create(registrations, batch_size=1000)
    # Explicit ids leave PostgreSQL's sequence behind; move it past them.
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Player]):
            cursor.execute(sql)


def tables(workbook, tournament: Tournament, players: dict[int, Player]) -> dict[tuple[int, int], Table]:
    series_by_number: dict[int, Series] = {}
    tables: dict[tuple[int, int], Table] = {}
    seats: list[tuple[tuple[int, int], int, Player, int]] = []
    for number, (series, status, method, seed, table, size, seat, key, _name, _m) in sheet_rows(
        workbook, "Tables", TABLES_COLUMNS
    ):
        where = f"Tables, row {number}"
        series_number = whole(series, f"{where}, Series")
        if series_number not in series_by_number:
            if text(status) not in Series.Status.values or text(method) not in Series.Method.values:
                raise TransferError(f"{where}: unknown series status {status!r} or draw {method!r}")
            series_by_number[series_number] = Series.objects.create(
                tournament=tournament,
                number=series_number,
                status=text(status),
                method=text(method),
                seed=whole(seed, f"{where}, Draw seed", optional=True, most=INT_MAX) or 0,
            )
        table_key = (series_number, whole(table, f"{where}, Table"))
        if table_key not in tables:
            size_value = whole(size, f"{where}, Size")
            if size_value not in (3, 4):
                raise TransferError(f"{where}, Size: a table has 3 or 4 players, not {size_value} (3.2.7)")
            tables[table_key] = Table(series=series_by_number[series_number], number=table_key[1], size=size_value)
        player = players.get(whole(key, f"{where}, Player ID", least=1, most=BIGINT_MAX))
        if player is None:
            raise TransferError(f"{where}, Player ID: {key} is not on the Players sheet")
        seats.append((table_key, whole(seat, f"{where}, Seat"), player, number))
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


def games(workbook, tables: dict[tuple[int, int], Table], differences: list[str]) -> int:
    col = {name: i for i, name in enumerate(GAMES_COLUMNS)}
    batch: list[Game] = []
    count = 0
    expected: dict[tuple[int, int], int] = {}
    for number, row in sheet_rows(workbook, "Games", GAMES_COLUMNS):
        where = f"Games, row {number}"
        key = (whole(row[col["Series"]], f"{where}, Series"), whole(row[col["Table"]], f"{where}, Table"))
        table = tables.get(key)
        if table is None:
            raise TransferError(f"{where}: series {key[0]}, table {key[1]} is not on the Tables sheet")
        deal = whole(row[col["Deal"]], f"{where}, Deal")
        if deal != expected.get(key, 1) or deal > table.series.tournament.deals_per_table(table.size):
            raise TransferError(
                f"{where}, Deal: expected deal {expected.get(key, 1)} of this table, not {deal} (3.2.1)"
            )
        expected[key] = deal + 1
        game = Game(
            table=table,
            number=deal,
            passed_out=flag(row[col["Passed out"]]),
            declarer_seat=whole(row[col["Declarer seat"]], f"{where}, Declarer seat", optional=True),
            contract=text(row[col["Contract"]]),
            tops_kind=text(row[col["With/without"]]),
            tops=whole(row[col["Tops"]], f"{where}, Tops", optional=True),
            hand=flag(row[col["Hand"]]),
            schneider_announced=flag(row[col["Schneider announced"]]),
            schwarz_announced=flag(row[col["Schwarz announced"]]),
            ouvert=flag(row[col["Ouvert"]]),
            bid=whole(row[col["Bid"]], f"{where}, Bid", optional=True),
            declarer_points=whole(row[col["Declarer card points"]], f"{where}, Declarer card points", optional=True),
            declarer_tricks=whole(row[col["Declarer tricks"]], f"{where}, Declarer tricks", optional=True),
            irregularity=text(row[col["Irregularity by"]]),
            voided=flag(row[col["Void"]]),
            entered_by="import",
        )
        if game.tops_kind not in ("", *Game.TopsKind.values):
            raise TransferError(f"{where}, With/without: {game.tops_kind!r} is neither with nor without (2.4.1)")
        try:
            services.value(game, table.size)
        except RuleError as error:
            raise TransferError(f"{where}: {error}") from None
        for column, attribute in _COMPARED:
            written = whole(row[col[column]], f"{where}, {column}", optional=True, least=-INT_MAX, most=INT_MAX) or 0
            if written != getattr(game, attribute):
                differences.append(
                    f"{where}, {column}: the file says {written}, the rules give {getattr(game, attribute)}"
                )
        written_result = text(row[col["Won/lost"]])
        engine_result = "won" if game.won else "lost" if game.lost else ""
        if written_result != engine_result:
            differences.append(
                f"{where}, Won/lost: the file says {written_result!r}, the rules give {engine_result!r}"
            )
        batch.append(game)
        if len(batch) >= 5000:
            services.create_deals(batch)
            count += len(batch)
            batch = []
    services.create_deals(batch)
    return count + len(batch)
