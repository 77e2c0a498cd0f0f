"""The seat totals the triggers keep equal the GROUP BY of the games, whatever writes the games."""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps
from django.db.models import F

from office.demo import random_game
from referees.corrections import correct_game, void_game
from scoring.models import Game, SeatTotal
from skat.rating import Rating, rate_table
from skat.rules import RuleError
from standings.places import seat_totals_differ, standings, stored_seat_totals
from tests import factories
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def reference_standings(tournament, series_number=None) -> dict[int, tuple]:
    """The straightforward computation: every table rated by rate_table, summed per player.

    Voided games are kept out like passed-out deals (they score nothing); a table counts as
    provisional for each of its players until its sheet is signed off.
    """
    from signoff.models import SignOff

    totals: dict[int, list] = {}
    tables = [table for s in tournament.series.all() for table in s.tables.all()]
    if series_number is not None:
        tables = [table for table in tables if table.series.number == series_number]
    signed = set(SignOff.objects.values_list("table_id", flat=True))
    for table in tables:
        games = [
            (g.declarer_seat - 1, g.won, g.score)
            for g in table.games.all()
            if not g.passed_out and not g.voided and g.declarer_seat is not None
        ]
        for seat, rating in zip(table.seats.order_by("number"), rate_table(table.size, games), strict=True):
            entry = totals.setdefault(seat.player_id, [Rating(), 0, 0, seat.player.name])
            entry[0] = entry[0] + rating
            entry[1] += 1
            entry[2] += table.pk not in signed
    return {pk: tuple(entry) for pk, entry in totals.items()}


def tables_of(tournament):
    return Table.objects.filter(series__tournament=tournament)


def totals(tournament) -> dict[tuple[int, int], tuple[int, int, int]]:
    return {(t, s): (p, w, x) for t, s, p, w, x in stored_seat_totals(tables_of(tournament)) if (p, w, x) != (0, 0, 0)}


def played(share: float = 1.0, seed: int = 1, players: int = 11):
    """A drawn series (tables of four and three) with ``share`` of its deals entered one by one."""
    rng = random.Random(seed)
    t, series = factories.drawn(players)
    for table in series.tables.all():
        for number in range(1, int(table.deals * share) + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            game.save()
    return t, series, rng


def test_entered_games_are_summed_per_declaring_seat():
    t, _series, _rng = played()
    assert totals(t)
    assert seat_totals_differ(tables_of(t)) == {}
    # Spelled out for one seat: its declared games' scores, wins and losses.
    game = Game.objects.filter(declarer_seat__isnull=False, table__series__tournament=t).first()
    mine = Game.objects.filter(table=game.table, declarer_seat=game.declarer_seat)
    expected = (sum(g.score for g in mine), sum(g.won for g in mine), sum(g.lost for g in mine))
    assert totals(t)[(game.table_id, game.declarer_seat)] == expected


def test_passed_out_deals_belong_to_no_seat():
    table = factories.table_of(3)
    factories.game(table, 1, passed_out=True)
    assert SeatTotal.objects.count() == 0


def move_declarer(game: Game, seat: int, user) -> bool:
    """A referee's correction giving the game to ``seat``; False when the rules refuse it.

    The dealer of a table of four sits out (3.2.3): such a correction is refused.
    """
    try:
        correct_game(game.pk, expected_version=game.version, changes={"declarer_seat": seat}, user=user, reason="seat")
    except RuleError:
        return False
    return True


def test_corrections_moving_a_game_to_another_declarer_move_its_numbers():
    t, _series, _rng = played(share=0.5)
    user = factories.user(superuser=True)
    moved = 0
    for game in Game.objects.filter(table__series__tournament=t, declarer_seat__isnull=False)[:6]:
        others = [seat for seat in range(1, game.table.size + 1) if seat != game.declarer_seat]
        moved += any(move_declarer(game, seat, user) for seat in others)
        assert seat_totals_differ(tables_of(t)) == {}
    assert moved == 6


def test_voided_and_deleted_games_take_their_numbers_away():
    t, _series, _rng = played()
    user = factories.user(superuser=True)
    games = list(Game.objects.filter(table__series__tournament=t, declarer_seat__isnull=False)[:10])
    for game in games[:5]:
        void_game(game.pk, expected_version=game.version, user=user, reason="misdeal found later")
    for game in games[5:]:
        game.delete()
    assert seat_totals_differ(tables_of(t)) == {}


def test_bulk_writes_keep_the_totals_too():
    """bulk_create (imports, demo), queryset update and delete bypass save(); the triggers do not."""
    rng = random.Random(7)
    t, series = factories.drawn(8)
    games = []
    for table in series.tables.all():
        for number in range(1, table.deals + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            games.append(game)
    Game.objects.bulk_create(games)
    assert seat_totals_differ(tables_of(t)) == {}
    # Swap the declarer of every third game in one UPDATE statement.
    Game.objects.filter(number__in=range(1, 40, 3), declarer_seat=1).update(declarer_seat=2)
    Game.objects.filter(number__in=range(2, 40, 3), declarer_seat=3).update(declarer_seat=F("declarer_seat") - 2)
    assert seat_totals_differ(tables_of(t)) == {}
    Game.objects.filter(number__gt=20).delete()
    assert seat_totals_differ(tables_of(t)) == {}


def test_a_redrawn_series_takes_its_totals_with_its_tables():
    t, series, _rng = played(share=0.25)
    assert SeatTotal.objects.exists()
    series.delete()
    assert SeatTotal.objects.count() == 0
    assert standings(t) == []


@pytest.mark.parametrize("seed", range(3))
def test_random_writes_never_drift(seed):
    """A random mix of entries, corrections, voids, deletes and re-entries; standings equal the GROUP BY's."""
    t, series, rng = played(share=rng_share(seed), seed=seed)
    user = factories.user(superuser=True)
    for _ in range(30):
        games = list(Game.objects.filter(table__series=series))
        if not games:
            break
        game = rng.choice(games)
        action = rng.choice(["declarer", "void", "delete", "outcome"])
        if action == "delete":
            if not game.corrections.exists():  # a corrected game is kept for its record (PROTECT)
                game.delete()
        elif game.passed_out or game.voided:
            continue
        elif action == "void":
            void_game(game.pk, expected_version=game.version, user=user, reason="void")
        elif action == "declarer":
            seat = rng.randint(1, game.table.size)
            if seat != game.declarer_seat:
                move_declarer(game, seat, user)
        else:
            # A deal entered anew over the old one (what a scorekeeper's re-entry does).
            fresh = random_game(rng, game.number, game.table.size)
            for name in Game.ENTERED_FIELDS:
                setattr(game, name, getattr(fresh, name))
            game.apply_rules(game.table.size)
            game.save()
        assert seat_totals_differ(tables_of(t)) == {}
    # The ranking from the stored totals is the ranking from rating every table's games.
    ranked = {row.item.player_id: row.rating for row in standings(t)}
    assert ranked == {pk: entry[0] for pk, entry in reference_standings(t).items()}


def rng_share(seed: int) -> float:
    return [0.3, 0.7, 1.0][seed % 3]


def test_the_migration_sums_the_games_stored_before_it():
    t, _series, _rng = played(share=0.5)
    before = totals(t)
    SeatTotal.objects.all().delete()
    migration = importlib.import_module("scoring.migrations.0004_seat_totals")
    migration.sum_stored_games(apps, None)
    assert totals(t) == before
    assert seat_totals_differ(tables_of(t)) == {}
