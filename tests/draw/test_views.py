"""The director's pages after the draw: no-show, late arrival, redraw, substitute, undo a
withdrawal. Each says what it changed and offers the changed tables' reprints; a bad
choice is named and changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from draw.series import draw_series
from tests import factories
from tournaments.models import Registration, Seat, Table

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"director:{name}", args=args)


def page(client, response) -> str:
    """The page a redirect lands on (its messages included)."""
    assert response.status_code == 302, response.status_code
    return client.get(response["Location"]).content.decode()


def seat(series, table: int, number: int = 1) -> Seat:
    return Seat.objects.select_related("player").get(series=series, table__number=table, number=number)


def test_the_series_page_offers_no_show_late_arrival_and_redraw_before_play(client, director):
    t, _series = factories.drawn(8, directors=[director])
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"), first_series=2)
    html = client.get(url("series", t.pk, 1)).content.decode()
    assert url("no_show", t.pk, 1) in html and url("late_arrival", t.pk, 1) in html and url("redraw", t.pk, 1) in html
    assert f'<option value="{late.pk}">Late Larry</option>' in html


def test_the_series_page_offers_nothing_once_every_table_has_a_deal(client, director):
    t, series = factories.drawn(8, directors=[director])
    for table in series.tables.all():
        factories.game(table, 1, passed_out=True)
    html = client.get(url("series", t.pk, 1)).content.decode()
    assert url("no_show", t.pk, 1) not in html and url("redraw", t.pk, 1) not in html


def test_a_no_show_is_removed_and_the_message_lists_the_changed_table_with_reprints(client, director):
    t, series = factories.drawn(8, directors=[director])
    gone = seat(series, 2, 3)
    response = client.post(url("no_show", t.pk, 1), {"player": gone.player.name})
    assert response["Location"] == url("series", t.pk, 1) + "?reprint=2#reprint"
    html = page(client, response)
    assert (
        f"{gone.player.name} did not turn up and is withdrawn from the rest of the tournament (from series 1 on"
        in html
    )
    assert url("series_cards_pdf", t.pk, 1) + "?tables=2" in html
    assert url("series_pin_slips_pdf", t.pk, 1) + "?tables=2" in html
    assert Table.objects.get(series=series, number=2).size == 3


def test_a_no_show_who_paid_his_list_fees_is_told_the_refund_by_the_tournaments_rule(client, director):
    t, series = factories.drawn(8, directors=[director], series_count=3, list_fee=Decimal("5.00"))
    t.list_fee_refund_percent = 50
    t.save()
    gone = seat(series, 1)
    Registration.objects.filter(tournament=t, player=gone.player).update(paid=True, list_fees_paid=True)
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": gone.player.name}))
    # Three series paid in advance, none played: half of 3 x 5.00.
    assert "Refund 7.50 of the list fees he paid at the desk (the tournament&#x27;s 50 %)." in html


def test_a_no_show_at_a_tournament_without_list_fee_hears_nothing_of_refunds(client, director):
    t, series = factories.drawn(8, directors=[director], series_count=3, list_fee=Decimal("0.00"))
    t.list_fee_refund_percent = 0
    t.save()
    gone = seat(series, 1)
    Registration.objects.filter(tournament=t, player=gone.player).update(paid=True, list_fees_paid=True)
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": gone.player.name}))
    assert f"{gone.player.name} did not turn up" in html
    assert "refund" not in html.lower() and "list fees he paid" not in html


def test_a_no_show_is_found_by_start_number_or_by_name_in_any_order(client, director):
    t, series = factories.drawn(8, directors=[director])
    anna, bernd = seat(series, 1, 1), seat(series, 2, 1)
    Registration.objects.filter(tournament=t, player=anna.player).update(start_number=17)
    anna.player.name, bernd.player.name = "Anna Müller", "Bernd Müller"
    anna.player.save()
    bernd.player.save()
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": "mueller"}))
    assert "player: Several seated players match “mueller”: " in html and "enter the start number." in html
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": "Müller, Bernd"}))
    assert "Bernd Müller did not turn up" in html
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": "17"}))
    assert "Anna Müller did not turn up" in html


def test_a_no_show_choice_that_is_not_seated_is_named_and_changes_nothing(client, director):
    t, series = factories.drawn(8, directors=[director])
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": "999999"}))
    assert "player: No player seated in series 1 is “999999”." in html
    assert Seat.objects.filter(series=series).count() == 8


def test_a_no_show_at_a_table_with_a_deal_is_refused_with_the_reason(client, director):
    t, series = factories.drawn(8, directors=[director])
    factories.game(Table.objects.get(series=series, number=1), 1, passed_out=True)
    gone = seat(series, 1)
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": gone.player.name}))
    assert "3.1.2: a deal is entered at table 1 of series 1" in html
    assert Seat.objects.filter(series=series).count() == 8


def test_a_late_arrival_is_seated_and_the_message_says_where(client, director):
    t, _series = factories.drawn(7, directors=[director])
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"), first_series=2)
    response = client.post(url("late_arrival", t.pk, 1), {"registration": late.pk})
    html = page(client, response)
    assert "Late Larry is seated in series 1. Changed: table 2: " in html and "4. Late Larry" in html
    assert "?tables=2" in html


def test_a_late_arrival_after_play_started_plays_from_the_next_series(client, director):
    t, series = factories.drawn(7, directors=[director], series_count=2)
    for table in series.tables.all():
        factories.game(table, 1, passed_out=True)
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"))
    html = page(client, client.post(url("late_arrival", t.pk, 1), {"registration": late.pk}))
    assert "Late Larry is not seated in series 1 (3.1.2: deals are entered at every table of series 1)" in html
    assert "plays from series 2" in html


def test_a_late_arrival_choice_must_be_someone_unseated(client, director):
    t, series = factories.drawn(8, directors=[director])
    taken = Registration.objects.get(tournament=t, player=seat(series, 1).player)
    html = page(client, client.post(url("late_arrival", t.pk, 1), {"registration": taken.pk}))
    assert "player: Choose a registered player who has no seat in this series." in html


def test_a_series_is_drawn_again_after_a_confirmation(client, director):
    t, series = factories.drawn(12, directors=[director])
    old_tokens = set(series.tables.values_list("token", flat=True))
    html = page(client, client.post(url("redraw", t.pk, 1), {}))
    assert "confirm: tick the box to draw the series again." in html
    assert set(series.tables.values_list("token", flat=True)) == old_tokens
    html = page(client, client.post(url("redraw", t.pk, 1), {"confirm": "on"}))
    assert "Series 1 is drawn again: table 1: 1. " in html
    assert set(series.tables.values_list("token", flat=True)).isdisjoint(old_tokens)
    assert "?tables=1,2,3" in html


def test_a_redraw_is_refused_once_a_deal_is_entered(client, director):
    t, series = factories.drawn(8, directors=[director])
    factories.game(Table.objects.get(series=series, number=2), 1, passed_out=True)
    html = page(client, client.post(url("redraw", t.pk, 1), {"confirm": "on"}))
    assert "3.1.2: series 1 cannot be drawn again: deals are entered at tables 2" in html


def test_a_reserve_substitutes_a_teams_player_between_series(client, director):
    t = factories.tournament(directors=[director], series_count=3)
    team = t.teams.create(name="Herz Dame")
    regs = factories.registered(t, 8)
    Registration.objects.filter(pk=regs[0].pk).update(team=team)
    series = draw_series(t)
    factories.play_series(series)
    assert client.get(url("substitute", t.pk)).status_code == 200
    response = client.post(
        url("substitute", t.pk), {"sub-out": regs[0].pk, "sub-name": "Rita Reserve", "sub-club": "SC Altenburg"}
    )
    html = page(client, response)
    name = regs[0].player.name
    assert f"Rita Reserve replaces {name} for Herz Dame from series 2" in html
    assert f"{name} withdrew after series 1." in html
    rita = Registration.objects.get(tournament=t, player__name="Rita Reserve")
    assert rita.team == team and rita.first_series == 2
    regs[0].refresh_from_db()
    assert regs[0].withdrawn_after_series == 1


def test_a_substitute_form_names_a_wrong_choice(client, director):
    t, _series = factories.drawn(8, directors=[director], series_count=2)
    Registration.objects.filter(pk=Registration.objects.filter(tournament=t).first().pk).update(
        team=t.teams.create(name="Herz Dame")
    )
    response = client.post(url("substitute", t.pk), {"sub-out": "12345", "sub-name": ""})
    assert response.status_code == 422
    html = response.content.decode()
    assert "Choose a team&#x27;s player who plays the next series." in html
    assert "This field is required." in html


def test_without_a_team_player_to_replace_the_substitute_page_says_why(client, director):
    t, _series = factories.drawn(8, directors=[director], series_count=2)
    html = client.get(url("substitute", t.pk)).content.decode()
    assert "No substitution now: a reserve comes in between series, for a team's player" in html


def test_a_withdrawal_is_undone_from_the_players_page(client, director):
    t = factories.tournament(directors=[director], series_count=3)
    regs = factories.registered(t, 8)
    factories.play_series(draw_series(t))
    client.post(url("withdraw", t.pk, regs[0].pk))
    html = client.get(url("players", t.pk)).content.decode()
    assert url("undo_withdrawal", t.pk, regs[0].pk) in html
    html = page(client, client.post(url("undo_withdrawal", t.pk, regs[0].pk)))
    assert f"{regs[0].player.name} plays on from series 2." in html
    regs[0].refresh_from_db()
    assert regs[0].withdrawn_after_series is None


def test_undoing_a_withdrawal_that_was_not_made_is_refused(client, director):
    t, _series = factories.drawn(8, directors=[director])
    reg = Registration.objects.filter(tournament=t).first()
    html = page(client, client.post(url("undo_withdrawal", t.pk, reg.pk)))
    assert f"3.1.2: {reg.player.name} has not withdrawn" in html


@pytest.mark.parametrize("name", ["no_show", "late_arrival", "redraw"])
def test_the_series_changes_are_the_directors_only(client, name):
    t, _series = factories.drawn(8)
    client.force_login(factories.user("stranger"))
    assert client.post(url(name, t.pk, 1), {}).status_code == 403


def test_reprints_take_only_the_changed_tables(client, director):
    t, _series = factories.drawn(12, directors=[director])
    assert client.get(url("series_cards_pdf", t.pk, 1), {"tables": "1,3"}).status_code == 200
    response = client.get(url("series_pin_slips_pdf", t.pk, 1), {"tables": "2"})
    assert response.status_code == 200 and "tables-2-pin-slips" in response["Content-Disposition"]
    bad = client.get(url("series_cards_pdf", t.pk, 1), {"tables": "1,9"})
    assert bad.status_code == 400
    assert "tables: 9 is not a table of series 1 (its tables: 1, 2, 3)." in bad.content.decode()


def test_the_series_page_and_a_no_show_take_as_many_queries_for_43_players_as_for_11(client, director):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (11, 43):
        t, series = factories.drawn(players, directors=[director])
        Registration.objects.create(tournament=t, player=factories.player("Late Larry"), first_series=2)
        with CaptureQueriesContext(connection) as page_queries:
            assert client.get(url("series", t.pk, 1)).status_code == 200
        gone = seat(series, 1)
        with CaptureQueriesContext(connection) as no_show_queries:
            assert client.post(url("no_show", t.pk, 1), {"player": gone.player.name}).status_code == 302
        counts.append((len(page_queries), len(no_show_queries)))
    assert counts[0] == counts[1]


def test_a_no_show_or_reprint_spelled_in_other_digits_is_refused_not_a_500(client, director):
    """ "²" passes str.isdigit() but is no number: named as no player, and no table to reprint."""
    t, _series = factories.drawn(8, directors=[director])
    html = page(client, client.post(url("no_show", t.pk, 1), {"player": "²"}))
    assert "No player seated in series 1 is “²”." in html
    response = client.get(url("series", t.pk, 1), {"reprint": "1,²"})
    assert response.status_code == 200 and "?tables=1" in response.content.decode()
