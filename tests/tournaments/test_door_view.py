"""The check-in and cash desk: find, tap present and paid, add a walk-in, the totals."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError
from django.urls import reverse

from draw.series import draw_series
from tests import factories
from tournaments import door, services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _register(t, name, club=""):
    return services.register(t, services.Entry(name=name, club=club))


def test_the_search_finds_a_player_however_typed_in_one_query(django_assert_num_queries):
    t = factories.tournament()
    anna = _register(t, "Anna Müller", "SC Altenburg")
    _register(t, "Bernd Müller")
    _register(t, "Anna Schmidt")
    for query in ("mueller anna", "Anna Müller", "Müller, A.", str(anna.start_number)):
        with django_assert_num_queries(1):
            found = list(door.search(Registration.objects.filter(tournament=t), query))
        assert found == [anna], query


def test_digits_that_are_no_number_find_nobody_and_never_fail(client, director):
    """ "²" and "٣" pass str.isdigit() but int() refuses "²": the search box answers, not a 500."""
    t = factories.tournament(directors=[director])
    anna = _register(t, "Anna Müller")
    for query in ("²", "٣", "1" * 40):
        response = client.get(reverse("director:desk", args=[t.pk]), {"q": query})
        assert response.status_code == 200, query
        assert anna.player.name not in response.content.decode()


def test_a_tap_marks_present_and_paid_and_the_totals_count_the_cash(client, director):
    t = factories.tournament(directors=[director], entry_fee=Decimal("10"), list_fee=Decimal("2"), series_count=3)
    anna = _register(t, "Anna Müller")
    _register(t, "Bernd Becker")
    url = reverse("director:desk_toggle", args=[t.pk, anna.pk, "present"])
    response = client.post(url, {"value": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'id="desk-totals"' in response.content.decode()
    client.post(reverse("director:desk_toggle", args=[t.pk, anna.pk, "paid"]), {"value": "1"})
    anna.refresh_from_db()
    assert anna.present and anna.paid and anna.list_fees_paid
    totals = door.totals(t)
    assert (totals.present, totals.paid, totals.cash) == (1, 1, Decimal("16"))  # 10 + 3 x 2
    page = client.get(reverse("director:desk", args=[t.pk])).content.decode()
    assert "16.00" in page and "take 16.00" in page  # Bernd still owes it


def test_a_bad_tap_is_refused_and_changes_nothing(client, director):
    t = factories.tournament(directors=[director])
    anna = _register(t, "Anna Müller")
    unknown = reverse("director:desk_toggle", args=[t.pk, anna.pk, "vip"])
    assert client.post(unknown, {"value": "1"}).status_code == 404
    url = reverse("director:desk_toggle", args=[t.pk, anna.pk, "paid"])
    response = client.post(url, {"value": "yes"}, follow=True)
    assert "value: send 1 or 0." in response.content.decode()
    anna.refresh_from_db()
    assert not anna.paid


def test_a_walk_in_is_added_present_with_the_next_start_number(client, director):
    t = factories.tournament(directors=[director])
    first = _register(t, "Anna Müller")
    services.withdraw(first)  # before any draw: removed, her number stays unused
    response = client.post(
        reverse("director:desk_add", args=[t.pk]),
        {"walkin-name": "Paula Quast", "walkin-club": "SC Zeitz", "walkin-membership_number": "00042"},
    )
    assert response.status_code == 302
    paula = Registration.objects.get(player__name="Paula Quast")
    assert paula.present and paula.start_number == 2 and paula.player.membership_number == "00042"


def test_a_walk_in_without_a_name_is_refused(client, director):
    t = factories.tournament(directors=[director])
    response = client.post(reverse("director:desk_add", args=[t.pk]), {"walkin-name": " "})
    assert response.status_code == 422 and "This field is required." in response.content.decode()
    assert not t.registrations.exists()


def test_start_numbers_are_never_given_twice():
    t = factories.tournament()
    a, b = _register(t, "A One"), _register(t, "B Two")
    b.delete()
    assert _register(t, "C Three").start_number == 3
    assert a.start_number == 1


def test_the_same_person_twice_is_stopped_by_the_database():
    t = factories.tournament()
    _register(t, "Anna Schäfer", "SC Altenburg")
    with pytest.raises(IntegrityError):
        _register(t, "Schäfer, Anna", "SC Altenburg")


def test_a_namesake_the_director_confirmed_registers():
    t = factories.tournament()
    _register(t, "Anna Schäfer", "SC Altenburg")
    second = services.register(t, services.Entry(name="Anna Schäfer", club="SC Altenburg", namesake_ok=True))
    assert second.identity_key.endswith("#2")


def test_once_check_in_started_the_draw_seats_only_who_is_present():
    t = factories.tournament()
    registrations = [_register(t, f"Player {i}") for i in range(9)]
    for r in registrations[:7]:
        door.set_present(r, True)
    series = draw_series(t)
    seated = set(series.seats.values_list("player_id", flat=True))
    assert seated == {r.player_id for r in registrations[:7]}


def test_the_fee_account_counts_the_desk_and_the_tables_do_not_charge_again(client, director):
    from money.ledger import fee_account

    t = factories.tournament(directors=[director], entry_fee=Decimal("10"), list_fee=Decimal("2"), series_count=1)
    registrations = [_register(t, f"Player {i}") for i in range(4)]
    for r in registrations:
        door.set_present(r, True)
    door.set_paid(registrations[0], True)
    draw_series(t)
    account = fee_account(t)
    assert account.at_registration.entry_fees == Decimal("10")
    assert account.at_registration.list_fees == Decimal("2")
    series_account = account.by_series[0][2]
    assert series_account.list_fees == Decimal("6"), "three list fees at the table, the desk took the fourth"
    assert series_account.entry_fees == Decimal("30")
    assert account.total.entry_fees + account.total.list_fees == Decimal("48")


def _many(t, count: int) -> None:
    """``count`` players Player 001.. with start numbers, quickly."""
    from tournaments.models import Player

    people = Player.objects.bulk_create([Player(name=f"Player {i:03d}").fill_keys() for i in range(count)])
    Registration.objects.bulk_create(
        [Registration(tournament=t, player=p, start_number=i + 1) for i, p in enumerate(people)]
    )


def test_the_desk_lists_a_page_of_players_and_pages_on(client, director):
    t = factories.tournament(directors=[director])
    _many(t, door.SEARCH_LIMIT + 10)
    url = reverse("director:desk", args=[t.pk])
    first = client.get(url).content.decode()
    assert "Player 000" in first and f"Player {door.SEARCH_LIMIT:03d}" not in first
    assert f"page 1 of 2 (1\N{EN DASH}{door.SEARCH_LIMIT} of {door.SEARCH_LIMIT + 10})" in first
    second = client.get(url, {"page": 2}).content.decode()
    assert f"Player {door.SEARCH_LIMIT:03d}" in second and "Player 000" not in second
    assert client.get(url, {"page": "x"}).status_code == 200  # no number: the first page, never an error


def test_the_search_as_you_type_swaps_the_list_and_its_pager(client, director):
    t = factories.tournament(directors=[director])
    _many(t, 3)
    _register(t, "Anna Müller")
    response = client.get(reverse("director:desk", args=[t.pk]), {"q": "mueller anna"}, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert "<html" not in page and 'id="desk-rows"' in page
    assert "Anna Müller" in page and "Player 000" not in page


def test_a_tap_without_javascript_keeps_the_search_and_the_page(client, director):
    t = factories.tournament(directors=[director])
    anna = _register(t, "Anna Müller")
    url = reverse("director:desk_toggle", args=[t.pk, anna.pk, "present"])
    response = client.post(url, {"value": "1", "q": "anna", "page": "2"})
    assert response.status_code == 302 and response.url.endswith("?q=anna&page=2")


def test_the_desk_cash_is_net_of_the_list_fees_refunded_to_withdrawals():
    """Entry 10, list fee 2 for 3 series; the tournament refunds half of an unplayed list fee."""
    t = factories.tournament(entry_fee=Decimal("10"), list_fee=Decimal("2"), series_count=3)
    t.list_fee_refund_percent = 50
    t.save()
    regs = factories.registered(t, 7)
    Registration.objects.filter(pk__in=[r.pk for r in regs[:2]]).update(paid=True, list_fees_paid=True)
    assert door.totals(t).cash == Decimal("32")  # 2 x (10 + 3 x 2)
    # One withdraws after series 1: two series unplayed, half of 2.00 back for each.
    Registration.objects.filter(pk=regs[0].pk).update(withdrawn_after_series=1)
    totals = door.totals(t)
    assert (totals.refunded, totals.cash) == (Decimal("2.00"), Decimal("30.00"))
    regs[0].refresh_from_db()
    assert door.refund(t, regs[0]) == Decimal("2.00")


def test_one_tap_checks_in_and_takes_the_fee(client, director):
    """The usual arrival is one tap, not two."""
    t = factories.tournament(directors=[director], entry_fee=Decimal("10"), list_fee=Decimal("2"), series_count=3)
    anna = _register(t, "Anna Müller")
    page = client.get(reverse("director:desk", args=[t.pk])).content.decode()
    assert "check in and take 16.00" in page
    url = reverse("director:desk_toggle", args=[t.pk, anna.pk, "arrived"])
    row = client.post(url, {"value": "1"}, headers={"HX-Request": "true"}).content.decode()
    anna.refresh_from_db()
    assert anna.present and anna.paid and anna.list_fees_paid
    assert "check in and take" not in row and "present ✓" in row and "paid ✓" in row
    assert door.totals(t).cash == Decimal("16")


def test_the_desk_counts_as_the_dashboard_and_finds_a_withdrawn_player(client, director):
    """After a no-show the desk's counts leave him out, as the dashboard's do,
    and searching him says he withdrew and offers him back, not "add him above"."""
    t = factories.tournament(directors=[director])
    regs = factories.registered(t, 4)
    Registration.objects.filter(pk__in=[r.pk for r in regs]).update(present=True, paid=True)
    Registration.objects.filter(pk=regs[0].pk).update(withdrawn_after_series=1, present=False)
    totals = door.totals(t)
    assert (totals.registered, totals.present, totals.paid, totals.withdrawn) == (3, 3, 3, 1)
    dashboard = client.get(reverse("director:detail", args=[t.pk])).content.decode()
    assert "<strong>3</strong> players registered" in dashboard and "(and 1 withdrawn)" in dashboard
    page = client.get(reverse("director:desk", args=[t.pk]), {"q": regs[0].player.name}).content.decode()
    assert "Withdrawn after series 1: registered, not playing the rest of the tournament." in page
    assert "Nobody found" not in page
    assert reverse("director:undo_withdrawal", args=[t.pk, regs[0].pk]) in page
    back = client.post(reverse("director:undo_withdrawal", args=[t.pk, regs[0].pk]), {"back": "desk"})
    assert back.status_code == 302 and back.url.startswith(reverse("director:desk", args=[t.pk]) + "?q=")


def test_a_walk_in_gets_a_category(client, director):
    t = factories.tournament(directors=[director])
    women = t.categories.create(name="Damen")
    assert 'name="walkin-category"' in client.get(reverse("director:desk", args=[t.pk])).content.decode()
    client.post(reverse("director:desk_add", args=[t.pk]), {"walkin-name": "Paula Quast", "walkin-category": women.pk})
    assert Registration.objects.get(player__name="Paula Quast").category == women
