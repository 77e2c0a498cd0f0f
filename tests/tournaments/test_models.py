"""Seating constraints live in the database, not only in forms."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from skat import fees
from tests import factories
from tournaments.models import Category, Player, Registration, Seat, Table

pytestmark = pytest.mark.django_db


def test_seat_numbers_are_unique_per_table():
    table = factories.table_of(3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, series=table.series, number=1, player=factories.player())


def test_a_player_sits_at_most_once_per_series():
    table = factories.table_of(3)
    other = Table.objects.create(series=table.series, number=2, size=3)
    seated = table.seats.first().player
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=other, series=table.series, number=1, player=seated)


def test_seat_number_and_table_size_are_checked():
    table = factories.table_of(3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, series=table.series, number=5, player=factories.player())
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(series=table.series, number=9, size=5)


def test_membership_numbers_are_unique_but_may_be_empty():
    Player.objects.create(name="A", membership_number="")
    Player.objects.create(name="B", membership_number="")
    Player.objects.create(name="C", membership_number="123")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="D", membership_number="123")


def test_registrations_playing_in_a_series_respect_late_entries_and_withdrawals():
    t = factories.tournament(series_count=3)
    early, late, gone = factories.registered(t, 3)
    late.first_series = 2
    late.save()
    gone.withdrawn_after_series = 1
    gone.save()
    playing = Registration.objects.filter(tournament=t).playing_in
    assert set(playing(1)) == {early, gone}
    assert set(playing(2)) == {early, late}


def test_deals_follow_from_rounds():
    t = factories.tournament(rounds_per_series=10)
    assert (t.deals_at_three, t.deals_at_four) == (30, 40)


def test_lost_game_fee_steps():
    t = factories.tournament()
    t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    t.lost_game_fees.create(from_lost_game=4, amount="1.00")
    steps = t.fee_rules().lost_game_steps  # what the settlements count by
    assert [str(fees.step_amount(steps, n)) for n in (1, 3, 4, 9)] == ["0.50", "0.50", "1.00", "1.00"]


@pytest.mark.parametrize(
    ("born", "junior", "senior"),
    # Ages at 1 January 2026 (the year minus the birth year minus one), worked by hand.
    [(2005, True, False), (2004, False, False), (1966, False, False), (1965, False, True), (None, False, False)],
)
def test_an_age_category_takes_ages_at_the_start_of_the_calendar_year(born, junior, senior):
    juniors = Category(name="Junioren", age_under=21)
    seniors = Category(name="Senioren", age_from=60)
    assert (juniors.takes(born, 2026), seniors.takes(born, 2026)) == (junior, senior)
    assert not Category(name="Damen").takes(born, 2026)


def test_an_age_category_nobody_fits_is_refused():
    with pytest.raises(ValidationError, match="must be below"):
        Category(tournament=factories.tournament(), name="Leer", age_under=21, age_from=60).full_clean()
