"""Setting up a league on the office's pages: the league and its rule, its managers, its
groups (Staffeln), teams with their rosters and captains, the hosts and their tokens.

The forms (:mod:`leagues.setup_forms`) check what one form can see; what needs the
database (a name taken in the group, a player on another team's roster) is refused here
with a :class:`skat.rules.RuleError` naming the field, inside the transaction that
would write, so a refused step changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from skat.rules import RuleError, gettext_noop
from tournaments.hooks import Hook
from tournaments.models import Club, Player, Tournament
from tournaments.names import identity_key

from .models import REGULARS, Group, Host, League, LeagueTeam, MatchDay, RosterEntry
from .publication import digest, new_host, new_host_token


@contextmanager
def _named(field: str, message: str, **values) -> Iterator[None]:
    """The check before a write sees no twin of the name, but a second manager's request
    may write one in between: the database's unique constraint then refuses the row, and
    the refusal is the same message, not a 500 (the savepoint keeps the transaction)."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise RuleError(field, message, "league", **values) from None


def _club(name: str) -> Club | None:
    return Club.objects.get_or_create(name=name)[0] if name else None


def create_league(fields: dict, user) -> League:
    """A new league; whoever sets it up manages it (and may name more on its managers page)."""
    with transaction.atomic():
        _free_league_name(fields["name"], fields["season"])
        with _named("season", TAKEN_LEAGUE, name=fields["name"], season=fields["season"]):
            league = League.objects.create(**fields)
        league.managers.add(user)
        manager_changed(league, user, by=user, granted=True)
    return league


def _free_league_name(name: str, season: str, exclude: int | None = None) -> None:
    if League.objects.filter(name__iexact=name, season=season).exclude(pk=exclude).exists():
        raise RuleError("season", TAKEN_LEAGUE, "league", name=name, season=season)


TAKEN_LEAGUE = gettext_noop("the league {name} has a season {season} already")
TAKEN_GROUP = gettext_noop("the league has a group {name} already")
TAKEN_TEAM = gettext_noop("{group} has a team {name} already")
TAKEN_HOST = gettext_noop("the league has a host {name} already")


#: Settings that value the results already played: fixed once a match day is binding.
RULE_FIELDS = ("tie", "tie_break")


def update_league(league: League, fields: dict) -> League:
    """Change the league's name and settings. Series and rounds apply to match days set
    up afterwards; the rule for equal game points and the tie-break are fixed once a
    match day is binding (the published table would change under it)."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        _free_league_name(fields["name"], fields["season"], exclude=league.pk)
        changed = [f for f in RULE_FIELDS if fields[f] != getattr(league, f)]
        if changed and MatchDay.objects.filter(group__league=league, binding_at__isnull=False).exists():
            raise RuleError(
                changed[0].replace("_", " "),
                gettext_noop("a match day is binding: the rule that valued it stays for the season"),
                "league",
            )
        with _named("season", TAKEN_LEAGUE, name=fields["name"], season=fields["season"]):
            League.objects.filter(pk=league.pk).update(**fields)
        for name, value in fields.items():
            setattr(league, name, value)
    return league


LAST_MANAGER = gettext_noop(
    "{name} is the last league manager of this league, and a league always keeps one: "
    "name another league manager first"
)

#: Who directs which tournament (Tournament.directors): match days are tournaments.
_Directing = Tournament.directors.through


def _match_day_tournaments(league: League) -> list[int]:
    return list(
        MatchDay.objects.filter(group__league=league, tournament__isnull=False).values_list("tournament_id", flat=True)
    )


#: A league manager named or taken out (``granted``), by whom: the league office records it
#: (leagueoffice fills it, inside the change's transaction); by default nothing follows.
manager_changed = Hook("leagues.manager_changed", lambda league, user, *, by, granted: None)


def add_manager(league: League, user: AbstractBaseUser, *, by: AbstractBaseUser | None = None) -> int:
    """``user`` manages ``league`` and directs the tournaments of its match days set up so
    far, as :func:`leagues.lineups.create_match_day` makes every manager direct a new
    one: he runs their draws and desks like the others. One transaction; answers the
    number of match days. Naming one who manages it already changes nothing."""
    with transaction.atomic():
        # The league's row, as create_match_day locks it: a match day set up at this moment
        # gets him as director, or is listed here.
        League.objects.select_for_update().values_list("pk", flat=True).get(pk=league.pk)
        if not league.managers.filter(pk=user.pk).exists():
            league.managers.add(user)
            manager_changed(league, user, by=by, granted=True)
        tournaments = _match_day_tournaments(league)
        _Directing.objects.bulk_create(
            [_Directing(tournament_id=pk, user_id=user.pk) for pk in tournaments], ignore_conflicts=True
        )
    return len(tournaments)


def remove_manager(league: League, user: AbstractBaseUser, *, by: AbstractBaseUser | None = None) -> None:
    """``user`` no longer manages ``league`` nor directs its match days' tournaments, in
    one transaction. The last manager stays (a RuleError naming the field): nobody but a
    superuser could run the league then; the league's row is locked first, so two
    managers removing each other at once cannot both go. A match day he alone directed
    gets the remaining managers as its directors, as if set up now: never none."""
    with transaction.atomic():
        League.objects.select_for_update().values_list("pk", flat=True).get(pk=league.pk)
        others = list(league.managers.exclude(pk=user.pk).values_list("pk", flat=True))
        if not others:
            raise RuleError("league managers", LAST_MANAGER, "league", name=user.get_username())
        league.managers.remove(user)
        manager_changed(league, user, by=by, granted=False)
        tournaments = _match_day_tournaments(league)
        # Their rows too, in order, as services.remove_director locks its tournament: a
        # director removed from a match day at this moment is seen here, so the match day
        # keeps one (no one locks a tournament before a league: no deadlock).
        list(Tournament.objects.select_for_update().filter(pk__in=tournaments).order_by("pk").values_list("pk"))
        _Directing.objects.filter(tournament_id__in=tournaments, user=user).delete()
        orphans = Tournament.objects.filter(pk__in=tournaments, directors=None).values_list("pk", flat=True)
        _Directing.objects.bulk_create(
            [_Directing(tournament_id=pk, user_id=other) for pk in orphans for other in others]
        )


def kept_director(tournament: Tournament, user: AbstractBaseUser) -> str | None:
    """A match day's tournament is directed by the league's managers: its own directors
    page takes none of them out (he would still manage the league and its match days,
    yet be refused this one); the league's managers page does (tournaments.hooks)."""
    league = League.objects.filter(groups__match_days__tournament=tournament, managers=user).first()
    if league is None:
        return None
    return _(
        "%(name)s manages the league %(league)s, whose match day this is: take him out on the league's managers page."
    ) % {"name": user.get_username(), "league": league}


def is_match_day(tournament: Tournament) -> bool:
    """Whether the tournament is a league's match day (tournaments.hooks): its export is
    the league's workbook; a Preisskat's is the tournament's file."""
    return MatchDay.objects.filter(tournament=tournament).exists()


def player_elsewhere(player, user: AbstractBaseUser) -> list[str]:
    """The leagues whose rosters hold ``player`` that ``user`` does not manage (tournaments.hooks):
    a director changes the person's name, club or number only if he runs those too."""
    return list(
        League.objects.filter(groups__teams__roster__player=player)
        .exclude(managers=user)
        .order_by("name")
        .values_list("name", flat=True)
        .distinct()
    )


def save_group(league: League, name: str, group: Group | None = None) -> Group:
    """A new group of the league, or a group renamed (names unique in the league)."""
    with transaction.atomic():
        taken = Group.objects.filter(league=league, name__iexact=name).exclude(pk=group.pk if group else None)
        if taken.exists():
            raise RuleError("name", TAKEN_GROUP, "league", name=name)
        with _named("name", TAKEN_GROUP, name=name):
            if group is None:
                return Group.objects.create(league=league, name=name)
            Group.objects.filter(pk=group.pk).update(name=name)
    group.name = name  # only once saved: a refused name is not shown as the group's
    return group


def save_team(group: Group, name: str, club: str, team: LeagueTeam | None = None) -> LeagueTeam:
    """A new team of the group, or its name and club changed. A team that plays a match day
    keeps its name: the match day's tournament knows its players by it."""
    with transaction.atomic():
        taken = LeagueTeam.objects.filter(group=group, name__iexact=name).exclude(pk=team.pk if team else None)
        if taken.exists():
            raise RuleError("name", TAKEN_TEAM, "league", group=group.name, name=name)
        the_club = _club(club)
        if team is None:
            with _named("name", TAKEN_TEAM, group=group.name, name=name):
                return LeagueTeam.objects.create(group=group, name=name, club=the_club)
        if name != team.name and team.match_days.exists():
            raise RuleError(
                "name",
                gettext_noop("{team} plays a match day already: its name stays for the season"),
                "league",
                team=team.name,
            )
        with _named("name", TAKEN_TEAM, group=group.name, name=name):
            LeagueTeam.objects.filter(pk=team.pk).update(name=name, club=the_club)
    team.name, team.club = name, the_club  # only once saved: a refused name is not shown as the team's
    return team


@dataclass(frozen=True)
class RosterRow:
    """One line of the roster form: a position and who holds it (blank name: empty)."""

    position: int
    name: str
    club: str = ""
    membership_number: str = ""


def _existing(row: RosterRow, current: dict[str, Player], club: Club | None) -> Player | None:
    """The roster line's player if he exists: by membership number, else the same person
    (name and club) on this roster or known to the office, never silently a second one."""
    if row.membership_number:
        player = Player.objects.filter(membership_number=row.membership_number).first()
        if player is not None and player.name.casefold() != row.name.casefold():
            raise RuleError(
                "membership_number",
                gettext_noop("{number} belongs to another player; check the number and the name"),
                "league",
                position=row.position,
                number=row.membership_number,
            )
        return player
    key = identity_key(row.name, club.pk if club else None)
    return current.get(key) or _known(row, key, club)


def _known(row: RosterRow, key: str, club: Club | None) -> Player | None:
    """The one player known by this name and club (a tournament's, another season's); two: refused."""
    players = Player.objects.filter(club=club) if club else Player.objects.filter(club=None, name__iexact=row.name)
    same = [p for p in players.only("name", "club_id") if identity_key(p.name, p.club_id) == key]
    if len(same) > 1:
        raise RuleError(
            "membership_number",
            gettext_noop("{count} players called {player} of this club are known: give his membership number"),
            "league",
            position=row.position,
            count=len(same),
            player=row.name,
        )
    return same[0] if same else None


def save_roster(team: LeagueTeam, rows: list[RosterRow], captain: int | None) -> list[RosterEntry]:
    """The team's roster (positions 1-8; 1-4 the regular team, 5-8 its reserves) and its
    captain (a position of the roster). A player is once in a roster and on one roster of
    the league; a blank club is the team's."""
    filled = [row for row in rows if row.name]
    with transaction.atomic():
        # The league's row too: two rosters saved at once must not both take one player.
        locked = LeagueTeam.objects.select_for_update(of=("self", "group__league"))
        team = locked.select_related("club", "group__league").get(pk=team.pk)
        entries = RosterEntry.objects.filter(team=team).select_related("player")
        current = {identity_key(e.player.name, e.player.club_id): e.player for e in entries}
        others = _other_rosters(team)
        seen: dict[str, RosterRow] = {}
        resolved = [_resolve(row, team, current, others, seen) for row in filled]
        if captain is not None and captain not in {row.position for row in filled}:
            raise RuleError(
                "captain",
                gettext_noop("position {captain} is empty: the captain is a player of the roster"),
                "league",
                captain=captain,
            )
        players = [
            (row, player or Player.objects.create(name=row.name, club=club, membership_number=row.membership_number))
            for row, club, player in resolved
        ]
        RosterEntry.objects.filter(team=team).delete()
        made = RosterEntry.objects.bulk_create(
            [RosterEntry(team=team, player=player, position=row.position) for row, player in players]
        )
        team.captain = next((p for row, p in players if row.position == captain), None)
        team.save(update_fields=["captain"])
    return made


def _resolve(
    row: RosterRow,
    team: LeagueTeam,
    current: dict[str, Player],
    others: dict[str, str],
    seen: dict[str, RosterRow],
) -> tuple[RosterRow, Club | None, Player | None]:
    """A roster line's club and player (None: a new one), refused when the player is on an
    earlier line (``seen``, filled here) or on another roster of the league."""
    club = _club(row.club) if row.club else team.club
    player = _existing(row, current, club)
    person = identity_key(row.name, club.pk if club else None)
    keys = [f"no {row.membership_number}" if row.membership_number else person]
    keys += [f"player {player.pk}"] if player else []
    for key in keys:
        if key in seen:
            raise RuleError(
                "player",
                gettext_noop("{player} is at position {other} already: a player is once in a roster"),
                "league",
                position=row.position,
                player=row.name,
                other=seen[key].position,
            )
        seen[key] = row
    other = others.get(f"player {player.pk}") if player else None
    other = other or (None if row.membership_number else others.get(person))
    if other is not None:
        raise RuleError(
            "player",
            gettext_noop("{player} is on the roster of {team} already: a player plays for one team of the league"),
            "league",
            position=row.position,
            player=row.name,
            team=other,
        )
    return row, club, player


def _other_rosters(team: LeagueTeam) -> dict[str, str]:
    """The players on the league's other rosters (by id and by name and club): team names.
    A player plays for one team of the league (a line-up would otherwise take him twice)."""
    rows = (
        RosterEntry.objects.filter(team__group__league_id=team.group.league_id)
        .exclude(team=team)
        .values_list("player_id", "player__name", "player__club_id", "player__membership_number", "team__name")
    )
    found: dict[str, str] = {}
    for player_id, name, club_id, number, team_name in rows:
        found[f"player {player_id}"] = team_name
        if not number:
            found.setdefault(identity_key(name, club_id), team_name)
    return found


def add_host(league: League, name: str) -> tuple[Host, str]:
    """A host and its publication token (shown once: only its SHA-256 is kept)."""
    with transaction.atomic():
        if Host.objects.filter(league=league, name__iexact=name).exists():
            raise RuleError("name", TAKEN_HOST, "league", name=name)
        with _named("name", TAKEN_HOST, name=name):
            return new_host(league, name)


def replace_host_token(host: Host) -> str:
    """A fresh token for the host: the old one stops working at once (a lost laptop)."""
    token = new_host_token()
    Host.objects.filter(pk=host.pk).update(token_digest=digest(token), active=True)
    return token


def set_active(host: Host, active: bool) -> None:
    """Withdraw the host's token (it may publish no more) or give it back."""
    Host.objects.filter(pk=host.pk).update(active=active)


def teams_with_rosters(group_ids) -> dict[int, list[LeagueTeam]]:
    """The groups' teams with club, captain and roster size, by group (one query)."""
    from django.db.models import Count

    teams = (
        LeagueTeam.objects.filter(group__in=group_ids)
        .select_related("club", "captain")
        .annotate(
            players=Count("roster"),
            regulars=Count("roster", filter=Q(roster__position__lte=REGULARS)),
        )
        .order_by("name")
    )
    found: dict[int, list[LeagueTeam]] = {}
    for team in teams:
        found.setdefault(team.group_id, []).append(team)
    return found
