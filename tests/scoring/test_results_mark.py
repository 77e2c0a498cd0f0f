"""The results mark grows with every change of what the standings show, however it is
written (the triggers of scoring/migrations/0008; on PostgreSQL inserts and deletes counted
once per statement since 0013), and only the tournament's own."""

from __future__ import annotations

import pytest

from draw.series import draw_series
from referees.corrections import add_missing_game, correct_game, void_game
from scoring.models import Game, ResultsMark
from signoff.models import SignOff
from standings.cache import results_mark
from tests import factories
from tournaments.models import Category, Player, Registration, Seat, Series, Table, Team, Tournament
from tournaments.services import withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    """A drawn series of two tables of four, deal 1 entered at the first."""
    t, series = factories.drawn(8, rounds_per_series=1)
    table = series.tables.order_by("number").first()
    factories.game(table, 1, passed_out=True)
    return t, series, table


def version(t: Tournament) -> int:
    return results_mark(t).version


def changes(t: Tournament, change) -> int:
    before = version(t)
    change()
    return version(t) - before


def test_each_kind_of_results_change_moves_the_mark(running):
    t, series, table = running
    referee = factories.user("ref")
    game = table.games.get(number=1)
    assert changes(t, lambda: factories.game(table, 2, passed_out=True))  # a deal entered
    played = factories.game(table, 3, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    assert changes(
        t,
        lambda: correct_game(
            played.pk, expected_version=1, changes={"declarer_points": 40}, user=referee, reason="counted twice"
        ),
    )
    assert changes(t, lambda: void_game(game.pk, expected_version=1, user=referee, reason="3.2.11"))
    assert changes(t, lambda: Game.objects.filter(table=table, number=2).delete())
    assert changes(t, lambda: SignOff.objects.create(table=table, fingerprint="x", on_paper=True))
    assert changes(
        t, lambda: add_missing_game(table.pk, number=4, fields={"passed_out": True}, user=referee, reason="on paper")
    )  # a deal added to a confirmed sheet by a referee
    assert changes(t, lambda: Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED))
    assert changes(t, lambda: draw_series(t))  # the next series drawn
    assert changes(t, lambda: withdraw(Registration.objects.filter(tournament=t).first()))


def test_names_teams_and_categories_move_the_mark_too(running):
    t, _series, _table = running
    registration = Registration.objects.filter(tournament=t).select_related("player").first()
    assert changes(t, lambda: Player.objects.filter(pk=registration.player_id).update(name="Anna Umbenannt"))
    assert changes(t, lambda: Team.objects.create(tournament=t, name="Kreuz Bube"))
    assert changes(t, lambda: Category.objects.create(tournament=t, name="Damen"))
    assert changes(t, lambda: Tournament.objects.filter(pk=t.pk).update(name="Herbstpreis"))


def test_paying_at_the_door_does_not_move_the_mark(running):
    """Only what the standings show counts: the cash desk's taps leave the cache alone."""
    t, _series, _table = running
    registration = Registration.objects.filter(tournament=t).first()
    registration.paid = True
    assert changes(t, lambda: registration.save(update_fields=["paid", "present"])) == 0


def test_a_change_moves_only_its_own_tournaments_mark(running):
    _t, _series, table = running
    other, other_series = factories.drawn(4)
    before = version(other)
    factories.game(table, 2, passed_out=True)
    assert version(other) == before
    assert changes(other, lambda: factories.game(other_series.tables.get(), 1, passed_out=True)) == 1


def test_a_sheets_changes_count_in_its_own_row(running):
    """Two tables entering at once never update one shared row (PostgreSQL would queue them)."""
    t, series, table = running
    second = series.tables.exclude(pk=table.pk).get()
    factories.game(second, 1, passed_out=True)
    scopes = set(ResultsMark.objects.filter(tournament=t).values_list("scope", flat=True))
    assert {table.pk, second.pk} <= scopes


def test_one_statement_over_two_tournaments_moves_both_marks(running):
    t, series, _table = running
    other, other_series = factories.drawn(4)
    moved = (version(t), version(other))
    Seat.objects.filter(series__in=[series, other_series], number=1).delete()
    assert version(t) > moved[0] and version(other) > moved[1]
    moved = (version(t), version(other))
    Table.objects.bulk_create([Table(series=series, number=10, size=3), Table(series=other_series, number=10, size=3)])
    assert version(t) > moved[0] and version(other) > moved[1]


def _rows(t: Tournament) -> dict[int, int]:
    return dict(ResultsMark.objects.filter(tournament=t).values_list("scope", "version"))


def test_one_statement_over_two_sheets_counts_on_each_sheets_own_row(running):
    """A statement deleting the games of two tables (a series', a redraw's) counts each
    sheet in its own row, never in the tournament's: per statement on PostgreSQL, per
    game on SQLite."""
    from django.db import connection

    t, series, table = running
    second = series.tables.exclude(pk=table.pk).get()
    factories.game(table, 2, passed_out=True)
    factories.game(second, 1, passed_out=True)
    before = _rows(t)
    Game.objects.filter(table__series=series).delete()
    after = _rows(t)
    per_statement = connection.vendor == "postgresql"
    assert after[table.pk] - before[table.pk] == (1 if per_statement else 2)
    assert after[second.pk] - before[second.pk] == 1
    assert after.get(0) == before.get(0)


def test_a_draws_bulk_insert_counts_once_per_statement_on_postgresql_and_per_row_on_sqlite(running):
    """PostgreSQL (scoring/migrations/0013): updating the mark's row once per seat made a
    draw of 9,000 players take 16.5 s; SQLite updates the row in place, once per row."""
    from django.db import connection

    t, series, _table = running
    players = [factories.player(f"Spieler {n}") for n in range(6)]
    added = Table.objects.bulk_create([Table(series=series, number=n, size=3) for n in (11, 12)])
    seats = [
        Seat(table=table, series=series, number=n, player=players[3 * i + n - 1])
        for i, table in enumerate(added)
        for n in (1, 2, 3)
    ]
    counted = changes(t, lambda: Seat.objects.bulk_create(seats))
    assert counted == (1 if connection.vendor == "postgresql" else len(seats))
    counted = changes(t, lambda: Seat.objects.filter(table__in=added).delete())
    assert counted == (1 if connection.vendor == "postgresql" else len(seats))
    # Updates still per row, the old and the new row each: two tables moved, four counted.
    assert changes(t, lambda: Table.objects.filter(pk__in=[a.pk for a in added]).update(size=4)) == 4


def test_a_deleted_tournament_leaves_no_mark(running):
    t, _series, _table = running
    pk = t.pk
    t.delete()
    assert not ResultsMark.objects.filter(tournament_id=pk).exists()


def test_the_mark_says_when_the_results_last_changed(running):
    t, _series, table = running
    first = results_mark(t).changed_at
    factories.game(table, 2, passed_out=True)
    assert first is not None and results_mark(t).changed_at >= first


def _trigger_names() -> set[str]:
    """The triggers the database has now (SQLite: sqlite_master; PostgreSQL: pg_trigger)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        return {name for (name,) in cursor.fetchall()}


def test_every_trigger_of_the_mark_survives_the_later_migrations():
    """A later migration that rebuilds a table on SQLite drops its triggers (scoring/0009):
    after the whole migrate every trigger of scoring/triggers.py must still be there."""
    from django.db import connection

    from scoring import triggers

    if connection.vendor == "sqlite":
        expected = {statement.split()[2] for statement in triggers.results_mark_sqlite_up()}
        expected |= {statement.split()[2] for statement in triggers.SEAT_TOTALS_SQLITE_UP}
    else:
        statements = [
            *triggers.results_mark_postgres_up(),
            *triggers.results_mark_per_statement_postgres_up(),
            *triggers.SEAT_TOTALS_POSTGRES_UP,
        ]
        expected = {s.split()[2] for s in map(str.strip, statements) if s.startswith("CREATE TRIGGER")}
    assert expected <= _trigger_names(), expected - _trigger_names()


def test_postgresql_counts_inserts_and_deletes_once_per_statement_after_the_whole_migrate():
    """Names alone would not tell a per-row trigger on insert or delete put back next to
    0013's (every seat of a draw counted twice, the 16.5 s draw back): each source's
    triggers fire on what 0013 left them, at the level it left them."""
    from django.db import connection

    from scoring import triggers

    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps its per-row triggers")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT trigger_name, event_manipulation, action_orientation FROM information_schema.triggers "
            "WHERE trigger_name LIKE %s",
            ["%results_mark%"],
        )
        found: dict[str, set[tuple[str, str]]] = {}
        for name, event, level in cursor.fetchall():
            found.setdefault(name, set()).add((event, level))
    for table, _fires, _select in triggers._changes():
        assert found[f"{table}_results_mark"] == {("UPDATE", "ROW")}, table
        assert found[f"{table}_results_mark_inserted"] == {("INSERT", "STATEMENT")}, table
        assert found[f"{table}_results_mark_deleted"] == {("DELETE", "STATEMENT")}, table


def test_a_practice_tournament_counts_its_registrations_per_statement_on_postgresql():
    """One registration saved at a time in one transaction updated the copy's one mark row
    once per player (and the copy's 'none withdrawn' update twice more): a practice copy
    of 3,000 players took 11.7 s on PostgreSQL, 0.9 s without the triggers, as the draw
    did before scoring/migrations/0013. Written in bulk, each statement counts once."""
    from django.db import connection

    from rehearsal.copies import new_practice, practice_copy

    if connection.vendor != "postgresql":
        pytest.skip("SQLite counts per row and updates the row in place")
    source = factories.tournament()
    registrations = factories.registered(source, 30)
    Registration.objects.filter(pk=registrations[0].pk).update(withdrawn_after_series=1, first_series=2)
    copy = practice_copy(source)
    assert copy.registrations.count() == 30 and version(copy) < 10
    assert not copy.registrations.exclude(withdrawn_after_series=None, first_series=1).exists()
    assert version(new_practice(30)) < 10
