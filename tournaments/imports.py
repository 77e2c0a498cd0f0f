"""Registering players from a list (CSV or XLSX): every row checked first, then all or nothing.

Columns (English or German headers, and the usual columns of club lists): name (or
surname: ``Name``/``Nachname``) with an optional separate first name (``Vorname``/``First
name``), club (``Verein``), membership number (``Mitgliedsnummer``: read as text, leading
zeros kept), nationality, team, category (``Kategorie``), or gender (``Geschlecht``: a woman
is put in the tournament's women's category, "Damen" from a German header, "Women" from an
English one, or the one the tournament has already). Every player gets the next start number. A row whose
membership number is already in the database registers that player (the number
identifies him; the name must agree); a row without one creates a new player. Late
lists register players from the next series that is not drawn yet (3.1.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import BinaryIO

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.name_checks import is_spreadsheet_error, name_problem
from core.spreadsheets import Row, SpreadsheetError, read_table

from . import services
from .import_columns import (
    MAX_LENGTH,
    PLAYER_COLUMNS,
    SHOWN,
    WOMEN,
    birth_year,
    women_category,
)
from .models import Category, Club, Player, Registration, Team, Tournament
from .names import identity_key

MAX_PLAYERS = 5000
#: A checked row: its number in the file and its values by column.
Entry = tuple[int, dict[str, str]]


@dataclass
class PlayerImport:
    """The outcome: ``errors`` (row number, message) or the players registered; with
    ``skip_bad_rows`` the rows registered and ``skipped``, the others with their reasons."""

    errors: list[tuple[int, str]] = field(default_factory=list)
    created: int = 0
    existing: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    #: Rows without a problem: what ticking "skip the others" would register.
    valid: int = 0
    #: The headers of columns the office does not read, as the file writes them.
    ignored_columns: list[str] = field(default_factory=list)

    @property
    def registered(self) -> int:
        return self.created + self.existing


def _text(row: Row, key: str) -> str:
    value = row.get(key)
    return " ".join(str(value).split()) if value is not None and value is not True else ""


#: Columns that hold a name or a category's name (core.name_checks).
NAME_COLUMNS = ("first_name", "name", "club", "team", "category")


def _cell_problems(row: Row, values: dict[str, str], titles: dict[str, str]) -> list[str]:
    """A ticked box, a spreadsheet's error value or an invisible name, per column.

    A name is checked as the cell holds it: a line break inside it is refused, not
    tidied into a space (the forms and the tournament file refuse it too)."""
    problems = []
    for key in PLAYER_COLUMNS:
        column = titles.get(key) or SHOWN[key]
        if row.get(key) is True:
            problems.append(_("%(column)s: a ticked box (TRUE) is not text") % {"column": column})
        elif values[key] and key in NAME_COLUMNS and (problem := name_problem(str(row.get(key)).strip())):
            problems.append(_("%(column)s: %(problem)s") % {"column": column, "problem": problem})
        elif values[key] and is_spreadsheet_error(values[key]):
            problems.append(
                _("%(column)s: %(value)s is a spreadsheet error, not a value")
                % {"column": column, "value": values[key]}
            )
    return problems


def import_players(
    tournament: Tournament, upload: BinaryIO, name: str, *, user=None, skip_bad_rows: bool = False
) -> PlayerImport:
    """Check every row of the upload, then register all of them in one transaction; with
    ``skip_bad_rows`` the good rows, the others listed in ``skipped`` with their reasons.

    A membership number of another name is named as ``user``'s only when he may see that
    player (:meth:`Player.objects.known_to`).

    Raises :class:`core.spreadsheets.SpreadsheetError` for an unreadable file; bad
    rows come back in ``errors`` and nothing is written.
    """
    titles: dict[str, str] = {}
    result = PlayerImport()
    rows = read_table(
        upload,
        name,
        PLAYER_COLUMNS,
        required=["name"],
        max_rows=MAX_PLAYERS,
        titles=titles,
        ignored=result.ignored_columns,
        shown=SHOWN,
    )
    women = women_category(tournament, titles.get("gender", ""))
    first_series = _first_open_series(tournament)
    entries = _checked_rows(rows, titles, women, result, tournament.date.year)
    known = _known_by_number(entries)
    result.errors += _database_problems(tournament, entries, known, user)
    if result.errors:
        entries = _drop_bad_rows(result, entries, skip_bad_rows)
        if not entries:
            return result
    try:
        with transaction.atomic():
            _write(tournament, entries, known, first_series, result)
    except IntegrityError:
        # Someone registered one of these players or took a number meanwhile.
        raise SpreadsheetError(
            _("The players changed while the list was imported; nothing was saved. Try again.")
        ) from None
    return result


def _first_open_series(tournament: Tournament) -> int:
    """The series a late list's players start in: the first not drawn yet (3.1.2)."""
    drawn = tournament.series.count()
    first_series = drawn + 1
    if first_series > tournament.series_count:
        raise SpreadsheetError(
            ngettext(
                "The %(count)s series is drawn; nobody can enter any more (3.1.2).",
                "All %(count)s series are drawn; nobody can enter any more (3.1.2).",
                drawn,
            )
            % {"count": drawn}
        )
    return first_series


def _checked_rows(rows: list[Row], titles: dict[str, str], women: str, result: PlayerImport, year: int) -> list[Entry]:
    """Every row as (row number, values), its problems added to ``result.errors``."""
    entries = []
    seen = _SeenInFile()
    for row in rows:
        values, problems = _row_values(row, titles, women, year)
        problems += seen.problems(row.number, values, clean=not problems)
        for problem in problems:
            result.errors.append((row.number, problem))
        entries.append((row.number, values))
    return entries


def _row_values(row: Row, titles: dict[str, str], women: str, year: int) -> tuple[dict[str, str], list[str]]:
    """A row's values as a registration takes them (first name joined, a woman's category
    filled, the year of birth as four digits) and the problems of its cells."""
    values = {key: _text(row, key) for key in PLAYER_COLUMNS}
    values["nationality"] = values["nationality"].upper()
    problems = _cell_problems(row, values, titles)
    try:
        born = birth_year(values["birth_year"], year)
    except ValueError as rule:
        problems.append(
            _("%(column)s: %(value)s is not %(rule)s")
            % {"column": titles.get("birth_year") or SHOWN["birth_year"], "value": values["birth_year"], "rule": rule}
        )
        born = None
    values["birth_year"] = str(born) if born else ""
    first_name = values.pop("first_name")
    if first_name and values["name"]:
        values["name"] = f"{first_name} {values['name']}"
    gender = values.pop("gender").casefold()
    if not values["category"] and gender in WOMEN:
        values["category"] = women
    if not values["name"] and row.get("name") is not True:
        # Named as the file names it: "Nachname: empty" beside a filled "Vorname".
        problems.append(_("%(column)s: empty; every player needs a name") % {"column": titles.get("name", _("name"))})
    for key, limit in MAX_LENGTH.items():
        if len(values[key]) > limit:
            problems.append(
                _("%(column)s: longer than %(limit)s characters")
                % {"column": titles.get(key) or SHOWN[key], "limit": limit}
            )
    return values, problems


@dataclass
class _SeenInFile:
    """The membership numbers and names of the rows read so far: a player twice in one file."""

    numbers: dict[str, int] = field(default_factory=dict)
    names: dict[tuple[str, str], int] = field(default_factory=dict)
    numbered_names: dict[tuple[str, str], int] = field(default_factory=dict)

    def problems(self, row_number: int, values: dict[str, str], *, clean: bool) -> list[str]:
        """The row's problems with the earlier rows; ``clean``: the row has none of its own."""
        number = values["membership_number"]
        key = identity_key(values["name"], values["club"].casefold())
        if number:
            return self._numbered(row_number, number, key, values["name"])
        if values["name"] and clean:
            # Without a number, the same name and club is the player of the earlier row,
            # whether that row gave a number or not.
            earlier = self.names.get(key) or self.numbered_names.get(key)
            if earlier:
                return [_same_name(values["name"], earlier)]
            self.names[key] = row_number
        return []

    def _numbered(self, row_number: int, number: str, key: tuple[str, str], name: str) -> list[str]:
        problems = []
        if number in self.numbers:
            problems.append(
                _("membership number %(number)s: already in row %(row)s of this file")
                % {"number": number, "row": self.numbers[number]}
            )
        else:
            self.numbers[number] = row_number
            self.numbered_names.setdefault(key, row_number)
        # The same name and club without a number earlier in the file: the same player.
        if name and key in self.names:
            problems.append(_same_name(name, self.names[key]))
        return problems


def _same_name(name: str, row: int) -> str:
    """The player of an earlier row named again: without a number he cannot be told apart."""
    return _("%(name)s: already in row %(row)s of this file (give a membership number to tell them apart)") % {
        "name": name,
        "row": row,
    }


def _known_by_number(entries: list[Entry]) -> dict[str, Player]:
    """The players the file's membership numbers name, in one query."""
    numbers = [values["membership_number"] for _n, values in entries if values["membership_number"]]
    return {p.membership_number: p for p in Player.objects.filter(membership_number__in=numbers)}


def _database_problems(
    tournament: Tournament, entries: list[Entry], known: dict[str, Player], user
) -> list[tuple[int, str]]:
    """What the database says against the rows: a number of another name, a player registered already."""
    registered = set(Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    # A row without a membership number is the registered player of that name and club,
    # whether or not he was registered with a number.
    registered_names = {
        identity_key(name, (club or "").casefold())
        for name, club in Registration.objects.filter(tournament=tournament).values_list(
            "player__name", "player__club__name"
        )
    }
    differing, shown = _differing_names(entries, known, user)
    errors = []
    for number, values in entries:
        player = known.get(values["membership_number"])
        if player is not None:
            if values["name"] and player.pk in differing:
                errors.append((number, _number_of_another(player, values["name"], shown)))
            elif player.pk in registered:
                errors.append((number, _("%(name)s is already registered") % {"name": player.name}))
        elif not values["membership_number"] and identity_key(values["name"], values["club"].casefold()) in (
            registered_names
        ):
            errors.append(
                (
                    number,
                    _("%(name)s is already registered (give a membership number to tell them apart)")
                    % {"name": values["name"]},
                )
            )
    return errors


def _differing_names(entries: list[Entry], known: dict[str, Player], user) -> tuple[set[int], set[int]]:
    """The players whose membership number a row gives with another name, and those of
    them ``user`` may see (only their names are shown)."""
    differing = {
        player.pk
        for _n, values in entries
        if (player := known.get(values["membership_number"])) and player.name.casefold() != values["name"].casefold()
    }
    visible = Player.objects.known_to(user).filter(pk__in=differing) if differing else Player.objects.none()
    return differing, set(visible.values_list("pk", flat=True))


def _number_of_another(player: Player, given: str, shown: set[int]) -> str:
    if player.pk in shown:
        message = _("membership number %(number)s belongs to %(name)s, not %(given)s")
    else:  # a player of tournaments this director cannot see: not his name
        message = _("membership number %(number)s belongs to another player, not %(given)s")
    return message % {"number": player.membership_number, "name": player.name, "given": given}


def _drop_bad_rows(result: PlayerImport, entries: list[Entry], skip_bad_rows: bool) -> list[Entry]:
    """The rows still to register: none unless ``skip_bad_rows``, then the good ones, the
    bad moved to ``result.skipped`` (kept as errors when no row is good)."""
    result.errors.sort(key=lambda error: error[0])
    bad = {number for number, _problem in result.errors}
    result.valid = len([number for number, _values in entries if number not in bad])
    if not skip_bad_rows:
        return []
    entries = [(number, values) for number, values in entries if number not in bad]
    result.skipped, result.errors = result.errors, []
    if not entries:
        result.errors = result.skipped
    return entries


def _write(tournament: Tournament, entries, known: dict[str, Player], first_series: int, result: PlayerImport) -> None:
    clubs = {club.name: club for club in Club.objects.filter(name__in={v["club"] for _n, v in entries})}
    teams = {team.name.casefold(): team for team in tournament.teams.all()}
    players: list[Player] = []
    learnt: list[Player] = []
    for _number, values in entries:
        club = None
        if values["club"]:
            club = clubs.get(values["club"])
            if club is None:
                club = clubs[values["club"]] = Club.objects.create(name=values["club"])
        player = known.get(values["membership_number"])
        if player is None:
            player = Player(
                name=values["name"],
                club=club,
                membership_number=values["membership_number"],
                nationality=values["nationality"],
                birth_year=int(values["birth_year"]) if values["birth_year"] else None,
            )
        elif values["birth_year"] and player.birth_year is None:
            player.birth_year = int(values["birth_year"])  # a known player's year, learnt from the list
            learnt.append(player)
        players.append(player)
    new = [player.fill_keys() for player in players if player.pk is None]
    Player.objects.bulk_create(new, batch_size=1000)
    Player.objects.bulk_update(learnt, ["birth_year"], batch_size=1000)
    result.created = len(new)
    result.existing = len(players) - len(new)
    categories = {category.name.casefold(): category for category in tournament.categories.all()}
    by_age = [category for category in categories.values() if category.by_age]
    keys = services.identity_keys(
        tournament,
        [
            (p.name, p.club_id, bool(values["membership_number"]))
            for (_n, values), p in zip(entries, players, strict=True)
        ],
    )
    start_numbers = services.give_start_numbers(tournament, len(players))
    registrations = []
    for (_number, values), player, key, start in zip(entries, players, keys, start_numbers, strict=True):
        team = None
        if values["team"]:
            team = teams.get(values["team"].casefold())  # "kiel" is the team Kiel
            if team is None:
                team = Team.objects.create(tournament=tournament, name=values["team"])
                teams[values["team"].casefold()] = team
        category = None
        if values["category"]:
            category = categories.get(values["category"].casefold())
            if category is None:
                category = Category.objects.create(tournament=tournament, name=values["category"])
                categories[values["category"].casefold()] = category
        else:
            # No category of his own: the first age category his year of birth fits, if any.
            category = next((c for c in by_age if c.takes(player.birth_year, tournament.date.year)), None)
        registrations.append(
            Registration(
                tournament=tournament,
                player=player,
                team=team,
                category=category,
                first_series=first_series,
                start_number=start,
                identity_key=key,
            )
        )
    Registration.objects.bulk_create(registrations, batch_size=1000)
