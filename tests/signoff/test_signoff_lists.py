"""A differing second list blocks the players' confirmation (DOMAIN: the seat-1
list counts unless the players or a referee agree otherwise): until the scorekeepers
bring the lists in line or a referee accepts the sheet as it is."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import ControlEntry
from signoff import confirm as signoff
from signoff.models import ListsAccepted, SeatConfirmation, SignOff
from signoff.pins import seat_pin
from tests import factories
from tests.referees.helpers import full_table

pytestmark = pytest.mark.django_db

#: Deal 2 of helpers.DEALS as the sheet has it (hearts, seat 2, lost) and as the second list has it.
SHEET_DEAL_2 = {"declarer_seat": 2, "contract": "hearts", "tops": 2, "declarer_points": 50}
OTHER_DEAL_2 = {"declarer_seat": 3, "contract": "hearts", "tops": 2, "declarer_points": 70}


def differing_table():
    table = full_table(3)
    factories.control_entry(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    factories.control_entry(table, 2, **OTHER_DEAL_2)
    factories.control_entry(table, 3, passed_out=True)
    return table


def test_a_differing_second_list_refuses_every_pin():
    table = differing_table()
    with pytest.raises(signoff.SignOffRefused, match=r"5\.5\.3: the second list differs from the sheet at deal 2"):
        signoff.confirm_seat(table, 1, seat_pin(table, 1))
    assert not SeatConfirmation.objects.exists()


def test_a_differing_second_list_refuses_signed_on_paper():
    table = differing_table()
    with pytest.raises(signoff.SignOffRefused, match="a referee decides"):
        signoff.mark_on_paper(table, by="referee")
    assert not SignOff.objects.exists()


def test_once_the_lists_agree_the_players_confirm():
    table = differing_table()
    entry = ControlEntry.objects.get(table=table, number=2)
    for name, value in SHEET_DEAL_2.items():
        setattr(entry, name, value)
    entry.apply_rules(3)
    entry.save()
    signoff.confirm_seat(table, 1, seat_pin(table, 1))
    assert SeatConfirmation.objects.filter(table=table, seat_number=1).exists()


def test_a_referee_accepting_the_sheet_lets_the_players_confirm():
    table = differing_table()
    accepted = signoff.accept_sheet(table, by="ref", reason="Seat 1's list is right")
    assert accepted.deals == [2] and accepted.accepted_by == "ref"
    for seat in (1, 2, 3):
        signoff.confirm_seat(table, seat, seat_pin(table, seat))
    assert SignOff.objects.filter(table=table).exists()


def test_an_acceptance_covers_only_the_deals_it_saw():
    table = differing_table()
    signoff.accept_sheet(table, by="ref", reason="Deal 2 as on the sheet")
    ControlEntry.objects.filter(table=table, number=3).delete()
    factories.control_entry(table, 3, declarer_seat=1, contract="clubs", tops=1, declarer_points=70)
    with pytest.raises(signoff.SignOffRefused, match="at deals 2, 3"):
        signoff.confirm_seat(table, 1, seat_pin(table, 1))


def test_accepting_needs_a_reason_and_a_difference():
    table = differing_table()
    with pytest.raises(signoff.SignOffRefused, match="Why"):
        signoff.accept_sheet(table, by="ref", reason="  ")
    agreeing = full_table(3)
    with pytest.raises(signoff.SignOffRefused, match="nothing to decide"):
        signoff.accept_sheet(agreeing, by="ref", reason="just so")
    assert not ListsAccepted.objects.exists()


def test_the_table_link_shows_why_nobody_can_confirm(client):
    table = differing_table()
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert "the second list differs from the sheet at deal 2" in page
    assert 'name="pin"' not in page
    response = client.post(
        reverse("table:confirm", args=[table.token]), {"seat": 1, "pin": seat_pin(table, 1)}, follow=True
    )
    assert "a referee decides, before the sheet is confirmed" in response.content.decode()
    assert not SeatConfirmation.objects.exists()


def test_one_seats_wrong_pins_lock_only_that_seat():
    table = full_table(3)
    wrong = f"{(int(seat_pin(table, 1)) + 1) % 10_000:04d}"
    for _ in range(signoff.PIN_ATTEMPTS):
        with pytest.raises(signoff.SignOffRefused):
            signoff.confirm_seat(table, 1, wrong)
    state = signoff.state(table)
    assert set(state.locked_seats) == {1}
    signoff.confirm_seat(table, 2, seat_pin(table, 2))
    assert signoff.lift_pin_lock(table, 1) == signoff.PIN_ATTEMPTS
    assert signoff.state(table).locked_seats == {}
    signoff.confirm_seat(table, 1, seat_pin(table, 1))
    assert set(SeatConfirmation.objects.values_list("seat_number", flat=True)) == {1, 2}


def partial_table():
    """A sheet of 3 deals and a second list that holds only the first."""
    table = full_table(3)
    factories.control_entry(table, 1, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    return table


def test_a_partial_second_list_refuses_every_pin_and_names_the_missing_deals():
    table = partial_table()
    state = signoff.state(table)
    assert state.lists_differ == () and state.list_missing == (2, 3) and state.blocked
    with pytest.raises(signoff.SignOffRefused, match=r"holds 1 of the sheet's 3 deals; deals 2-3 are missing"):
        signoff.confirm_seat(table, 1, seat_pin(table, 1))
    with pytest.raises(signoff.SignOffRefused, match="stands without them"):
        signoff.mark_on_paper(table, by="referee")
    assert not SeatConfirmation.objects.exists() and not SignOff.objects.exists()


def test_the_table_link_says_how_many_deals_the_partial_list_holds(client):
    table = partial_table()
    page = client.get(reverse("table:sheet", args=[table.token])).content.decode()
    assert "no difference" not in page
    assert "Second list: 1 deal entered, the sheet 3. It does not hold deals 2-3 yet" in page
    assert "the second list holds 1 of the sheet&#x27;s 3 deals; deals 2-3 are missing" in page
    assert 'name="pin"' not in page


def test_a_referee_drops_the_partial_list_and_the_players_confirm():
    table = partial_table()
    accepted = signoff.accept_sheet(table, by="ref", reason="the second list was given up after deal 1")
    assert accepted.deals == [2, 3]
    for seat in (1, 2, 3):
        signoff.confirm_seat(table, seat, seat_pin(table, seat))
    assert SignOff.objects.filter(table=table).exists()


def test_a_complete_second_list_that_agrees_lets_the_players_confirm():
    table = partial_table()
    factories.control_entry(table, 2, **SHEET_DEAL_2)
    factories.control_entry(table, 3, passed_out=True)
    assert signoff.state(table).blocked is False
    signoff.confirm_seat(table, 1, seat_pin(table, 1))
    assert SeatConfirmation.objects.filter(table=table, seat_number=1).exists()


def correct_last_deal(client, table, **fields):
    """The table link's correction of the sheet's last deal (deal 3: passed out)."""
    last = table.games.order_by("-number").first()
    data = {"number": last.number, "version": last.version, "tops_kind": "with"}
    data.update({key: "on" if value is True else value for key, value in fields.items()})
    return client.post(reverse("table:correct", args=[table.token]), data, follow=True)


def test_a_decision_holds_for_its_deals_when_another_deal_is_corrected(client):
    table = differing_table()
    signoff.accept_sheet(table, by="ref", reason="Deal 2 as on the sheet")
    page = correct_last_deal(client, table, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    assert "Deal 3 corrected" in page.content.decode()
    assert table.games.get(number=3).version == 2
    # The second list's keeper brings his deal 3 in line with the corrected sheet.
    ControlEntry.objects.filter(table=table, number=3).delete()
    factories.control_entry(table, 3, declarer_seat=1, contract="grand", tops=1, declarer_points=70)
    assert signoff.undecided(table) == ((), ())  # deal 2 still decided: the players confirm
    signoff.confirm_seat(table, 1, seat_pin(table, 1))
    assert SeatConfirmation.objects.filter(table=table, seat_number=1).exists()


def test_a_decision_lapses_when_a_deal_it_decided_changes():
    table = differing_table()
    signoff.accept_sheet(table, by="ref", reason="Deal 2 as on the sheet")
    game = table.games.get(number=2)
    game.declarer_points = 55
    game.version += 1
    game.save()
    with pytest.raises(signoff.SignOffRefused, match="at deal 2"):
        signoff.confirm_seat(table, 1, seat_pin(table, 1))


def test_a_decision_kept_before_its_deals_were_recorded_holds_for_the_sheet_as_it_stood():
    table = differing_table()
    accepted = signoff.accept_sheet(table, by="ref", reason="Deal 2 as on the sheet")
    ListsAccepted.objects.filter(pk=accepted.pk).update(deal_versions={})
    assert signoff.undecided(table) == ((), ())
    ListsAccepted.objects.filter(pk=accepted.pk).update(fingerprint="0" * 64)
    assert signoff.undecided(table) == ((2,), ())


def test_a_correction_with_the_same_values_keeps_the_decision_and_the_pins(client):
    table = differing_table()
    signoff.accept_sheet(table, by="ref", reason="Deal 2 as on the sheet")
    for seat in (1, 2):
        signoff.confirm_seat(table, seat, seat_pin(table, seat))
    page = correct_last_deal(client, table, passed_out=True).content.decode()
    assert "Deal 3 unchanged: it already holds these values." in page
    assert "confirms it again" not in page
    assert table.games.get(number=3).version == 1  # nothing stored
    assert signoff.state(table).confirmed_seats == {1, 2}
    signoff.confirm_seat(table, 3, seat_pin(table, 3))
    assert SignOff.objects.filter(table=table).exists()
