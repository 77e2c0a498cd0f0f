"""The tournament's own rules as services: creating a tournament, its directors,
withdrawing a player, replacing table links.

Views call these and only say what happened; the rules live here, beside the models.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import hooks
from .models import Category, Club, Player, PlayerChange, Registration, Table, Team, Tournament, new_token
from .names import identity_key

#: The common lost-game fee schedule (DOMAIN, "Fees"): 0.50 for the 1st-3rd lost game,
#: 1.00 from the 4th. A new tournament starts with it; the director edits the table.
DEFAULT_LOST_GAME_FEES = ((1, "0.50"), (4, "1.00"))


def create_tournament(form, director, preset=None) -> Tournament:
    """Save a valid TournamentForm as a new tournament directed by ``director``, with the
    rule tables of ``preset`` (:mod:`tournaments.presets`), or else the common lost-game
    fee schedule to start from."""
    from .presets import apply_preset

    with transaction.atomic():
        tournament = form.save()
        tournament.directors.add(director)
        if preset is not None:
            apply_preset(tournament, preset)
        else:
            tournament.lost_game_fees.bulk_create(
                [
                    tournament.lost_game_fees.model(tournament=tournament, from_lost_game=start, amount=amount)
                    for start, amount in DEFAULT_LOST_GAME_FEES
                ]
            )
    return tournament


class DirectorStays(Exception):
    """A refused removal; the message says why, for the page to show as it is."""


class LastDirector(DirectorStays):
    """Removing him would leave the tournament without a director: only a superuser could
    run it then, and at the desk on the evening there is none."""


class KeptDirector(DirectorStays):
    """He directs the tournament for a reason this page does not decide (a league manager
    directs the league's match days); the message says where to change it."""


def add_director(tournament: Tournament, user: AbstractBaseUser) -> None:
    """Let ``user`` direct ``tournament`` too (a second director, a helper at the desk):
    he may then do all a director does. Naming one who directs it already changes nothing."""
    tournament.directors.add(user)


def remove_director(tournament: Tournament, user: AbstractBaseUser) -> None:
    """``user`` no longer directs ``tournament``; raises :class:`LastDirector` for the last
    one and :class:`KeptDirector` for one who directs it as a league's manager. The
    tournament's row is locked first, so two directors removing each other at once
    cannot both go."""
    with transaction.atomic():
        Tournament.objects.select_for_update().values_list("pk", flat=True).get(pk=tournament.pk)
        if reason := hooks.kept_director(tournament, user):
            raise KeptDirector(reason)
        others = tournament.directors.exclude(pk=user.pk)
        if not others.exists():
            raise LastDirector(
                _(
                    "%(name)s is the last director of this tournament, and a tournament always keeps one. "
                    "Name another director first."
                )
                % {"name": user.get_username()}
            )
        tournament.directors.remove(user)


def withdraw(registration: Registration) -> int:
    """Withdraw the player after the last drawn series and answer its number; before the
    first draw he is removed from the tournament instead (answer 0).

    The series already drawn stay as they are; later series are drawn without him.
    """
    with transaction.atomic():
        drawn = registration.tournament.series.count()
        if drawn == 0:
            registration.delete()
        else:
            Registration.objects.filter(pk=registration.pk).update(withdrawn_after_series=drawn)
            registration.withdrawn_after_series = drawn
    return drawn


def reissue_links(tables: list[Table]) -> None:
    """Give each table new unguessable tokens, in one transaction: the sheet's link and
    its second list's (a leaked card shows both QR codes)."""
    with transaction.atomic():
        for table in tables:
            table.token = new_token()
            table.control_token = new_token()
            table.save(update_fields=["token", "control_token"])


def give_start_numbers(tournament: Tournament, count: int) -> range:
    """The next ``count`` start numbers of ``tournament``: never given before, even when
    the last-numbered player left (the counter is kept on the tournament, its row locked)."""
    with transaction.atomic():
        last = Tournament.objects.select_for_update().values_list("last_start_number", flat=True).get(pk=tournament.pk)
        # A full save of a tournament loaded earlier (the rules page) may have written an
        # older counter back: never below a number in use.
        in_use = Registration.objects.filter(tournament=tournament).aggregate(m=Max("start_number"))["m"] or 0
        last = max(last, in_use)
        Tournament.objects.filter(pk=tournament.pk).update(last_start_number=last + count)
    return range(last + 1, last + count + 1)


def checked_in(tournament: Tournament, player: Player, start_number: int, team: Team | None = None) -> Registration:
    """A registration (not saved: for ``bulk_create``) of a player who came and paid at the
    desk, with his start number: the demo's and a practice evening's made-up field."""
    return Registration(
        tournament=tournament,
        player=player,
        team=team,
        paid=True,
        present=True,
        start_number=start_number,
        identity_key=identity_key(player.name, player.club_id),
    )


def identity_keys(tournament: Tournament, people: list[tuple[str, int | None, bool]]) -> list[str]:
    """The identity key of each new registration (name, club id, namesake allowed).

    A namesake the director allowed (or one told apart by a membership number) gets the
    key with the next free ``#n``; anyone else the plain key, which the unique constraint
    refuses when that person is registered already (a double registration racing in).
    """
    keys = [identity_key(name, club_id) for name, club_id, _ok in people]
    taken = set(
        Registration.objects.filter(tournament=tournament, identity_key__in=keys).values_list(
            "identity_key", flat=True
        )
    )
    # The namesakes already numbered (``key#2``...): one more query, only for namesakes.
    if taken:
        numbered = Q()
        for key in taken:
            numbered |= Q(identity_key__startswith=f"{key}#")
        taken |= set(
            Registration.objects.filter(numbered, tournament=tournament).values_list("identity_key", flat=True)
        )
    result = []
    for key, (_name, _club, namesake_ok) in zip(keys, people, strict=True):
        if key in taken and namesake_ok:
            n = 2
            while f"{key}#{n}" in taken:
                n += 1
            key = f"{key}#{n}"
        taken.add(key)
        result.append(key)
    return result


def namesakes(tournament: Tournament, name: str, club_id: int | None, exclude_player: int | None = None) -> list[str]:
    """The registered players of this tournament with the same name and club, however
    written ("Anna Schäfer" and "Schäfer, Anna"): the door warns before a second one."""
    key = identity_key(name, club_id)
    found = Registration.objects.filter(tournament=tournament).filter(
        Q(identity_key=key) | Q(identity_key__startswith=f"{key}#")
    )
    if exclude_player is not None:
        found = found.exclude(player_id=exclude_player)
    return list(found.values_list("player__name", flat=True))


@dataclass
class Entry:
    """What the players page or the desk's quick-add says about a new player."""

    name: str
    club: str = ""
    membership_number: str = ""
    nationality: str = ""
    team: str = ""
    category: Category | None = None
    first_series: int = 1
    present: bool = False
    namesake_ok: bool = False


#: How often a registration is tried again when its start number was taken meanwhile.
START_NUMBER_ATTEMPTS = 3


def register(tournament: Tournament, entry: Entry) -> Registration:
    """Register one player (an existing one by membership number, else a new one) with
    the next start number. Raises IntegrityError when he (or his namesake of the same
    club, not allowed) is registered meanwhile: the caller says so.

    The counter is locked (give_start_numbers) and the database refuses a start number
    twice (registration_start_number_unique); should a writer that bypasses the counter
    have taken the number meanwhile, the registration is tried again with the next one.
    """
    for attempt in range(1, START_NUMBER_ATTEMPTS + 1):
        try:
            with transaction.atomic():
                return _register(tournament, entry)
        except IntegrityError as error:
            if attempt == START_NUMBER_ATTEMPTS or "start_number" not in str(error):
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def team_named(tournament: Tournament, name: str) -> Team:
    """The tournament's team of this name in any case ("kiel" is Kiel, as typed first), or a
    new one: two teams differing only in case would be one team whose mates could share a table."""
    team = Team.objects.filter(tournament=tournament, name__iexact=name).order_by("pk").first()
    return team or Team.objects.get_or_create(tournament=tournament, name=name)[0]


def _register(tournament: Tournament, entry: Entry) -> Registration:
    """One try of :func:`register`, inside its transaction."""
    club = None
    if entry.club:
        club, _created = Club.objects.get_or_create(name=entry.club)
    player = (
        Player.objects.filter(membership_number=entry.membership_number).first() if entry.membership_number else None
    )
    if player is None:
        player = Player.objects.create(
            name=entry.name,
            club=club,
            membership_number=entry.membership_number,
            nationality=entry.nationality.upper(),
        )
    team = None
    if entry.team:
        team = team_named(tournament, entry.team)
    ok = entry.namesake_ok or bool(entry.membership_number)
    (key,) = identity_keys(tournament, [(player.name, player.club_id, ok)])
    (number,) = give_start_numbers(tournament, 1)
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        team=team,
        category=entry.category,
        first_series=entry.first_series,
        present=entry.present,
        start_number=number,
        identity_key=key,
    )


def elsewhere(player: Player, user) -> list[str]:
    """The tournaments and leagues ``player`` plays in that ``user`` does not run (empty for
    a superuser, the office's administrator): his name, club and membership number show in
    all of them, so only someone who runs every one of them may change those."""
    if user is None or not user.is_authenticated:
        return ["?"]
    if user.is_superuser:
        return []
    places = list(
        Tournament.objects.filter(registrations__player=player)
        .exclude(directors=user)
        .order_by("name")
        .values_list("name", flat=True)
        .distinct()
    )
    return places + list(hooks.player_elsewhere(player, user))


def edit_player(
    registration: Registration,
    *,
    name: str,
    club: str,
    membership_number: str,
    team: str,
    category,
    namesake_ok: bool = False,
    user=None,
) -> None:
    """Correct a registered player: his team and category here, and his name, club and
    number (everywhere: the standings and printed sheets read them from the player). The
    person's fields change only for whom :func:`elsewhere` finds nothing, and every such
    change is kept as a :class:`PlayerChange`. Raises :class:`PersonShared` for a change
    of them ``user`` may not make, IntegrityError for a number or identity another player
    holds."""
    with transaction.atomic():
        player = Player.objects.select_for_update(of=("self",)).select_related("club").get(pk=registration.player_id)
        before = person_fields(player)
        after = {"name": name, "club": club, "membership_number": membership_number}
        if after != before:
            places = elsewhere(player, user)
            if places:
                raise PersonShared(player.name, places)
            club_obj = Club.objects.get_or_create(name=club)[0] if club else None
            player.name, player.club, player.membership_number = name, club_obj, membership_number
            player.save()
            PlayerChange.objects.create(
                player=player, user=user, tournament=registration.tournament, before=before, after=after
            )
        tournament = registration.tournament
        team_obj = team_named(tournament, team) if team else None
        team = team_obj.name if team_obj else team  # as the tournament spells it
        before_team = Registration.objects.filter(pk=registration.pk).values_list("team__name", flat=True).get() or ""
        if before_team != team:
            hooks.team_changed(registration, before_team, team, user)
        # His identity key in every tournament he is registered in follows the new name.
        for other in Registration.objects.filter(player=player).select_related("tournament"):
            Registration.objects.filter(pk=other.pk).update(identity_key="")
            ok = namesake_ok or bool(membership_number)
            (key,) = identity_keys(other.tournament, [(name, player.club_id, ok)])
            fields = {"identity_key": key}
            if other.pk == registration.pk:
                fields |= {"team": team_obj, "category": category}
            Registration.objects.filter(pk=other.pk).update(**fields)


def person_fields(player: Player) -> dict[str, str]:
    """The fields of a person every tournament he plays in shows, as a change records them."""
    return {
        "name": player.name,
        "club": player.club.name if player.club_id else "",
        "membership_number": player.membership_number,
    }


class PersonShared(Exception):
    """A change to a person's name, club or number by someone who does not run every
    tournament and league he plays in."""

    def __init__(self, name: str, places: list[str]) -> None:
        self.name = name
        self.places = places
        super().__init__(name)


def delete_or_archive(tournament: Tournament, has_games: bool) -> str:
    """Delete a tournament without games; archive one with games (its results are kept).
    Answers "deleted" or "archived"."""
    with transaction.atomic():
        if has_games:
            Tournament.objects.filter(pk=tournament.pk).update(archived=True)
            return "archived"
        # Without games its series, tables, seats and registrations go with it; the
        # players stay (people are kept across tournaments).
        tournament.delete()
    return "deleted"


def played_changes_refused(tournament: Tournament, *, series_count: int, rounds_per_series: int) -> dict[str, str]:
    """{field: why} for the changes of a tournament that would orphan what is played:
    fewer series than are drawn, or other rounds per series once a deal is entered (the
    sheets count their deals by it: fewer would leave entered deals beyond a sheet's end,
    more would reopen complete and confirmed sheets, 5.5.3). Empty: the change is fine.
    The director's edit form and the admin ask here."""
    refused = {}
    drawn = tournament.series.count()
    if series_count < drawn:
        refused["series_count"] = ngettext(
            "%(n)s series is already drawn.", "%(n)s series are already drawn.", drawn
        ) % {"n": drawn}
    if rounds_per_series != tournament.rounds_per_series and hooks.deals_entered(tournament):
        refused["rounds_per_series"] = _(
            "Deals are entered already: rounds per series stay at %(rounds)s, or entered deals would fall "
            "outside their sheets and confirmed sheets would change (5.5.3). Finish a series early instead."
        ) % {"rounds": tournament.rounds_per_series}
    return refused
