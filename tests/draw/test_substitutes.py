"""A team's reserve between series, and a withdrawal undone (draw.substitutes)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from draw.series import draw_series
from draw.substitutes import leaving, substitute, undo_withdrawal
from skat.rules import RuleError
from tests import factories
from tournaments import services
from tournaments.models import Registration, Seat

pytestmark = pytest.mark.django_db


def team_tournament(players: int = 8, **fields):
    t = factories.tournament(series_count=3, **fields)
    regs = factories.registered(t, players)
    team = t.teams.create(name="Herz Dame")
    Registration.objects.filter(pk__in=[r.pk for r in regs[:2]]).update(team=team)
    return t, team, [Registration.objects.get(pk=r.pk) for r in regs]


def test_the_reserve_plays_for_the_team_from_the_next_series_and_the_player_leaves():
    t, team, regs = team_tournament()
    factories.play_series(draw_series(t))
    assert regs[0] in leaving(t) and regs[5] not in leaving(t)
    done = substitute(regs[0], services.Entry(name="Rita Reserve", club="SC Altenburg"))
    assert done.from_series == 2 and done.reserve.team == team and done.reserve.first_series == 2
    regs[0].refresh_from_db()
    assert regs[0].withdrawn_after_series == 1
    second = draw_series(t)
    seated = set(Seat.objects.filter(series=second).values_list("player_id", flat=True))
    assert done.reserve.player_id in seated and regs[0].player_id not in seated
    # Team-mates never share a table, the reserve included.
    tables = {}
    for seat in Seat.objects.filter(series=second, player__registrations__team=team):
        assert seat.table_id not in tables
        tables[seat.table_id] = seat


def test_a_substitution_before_the_first_draw_or_after_the_last_is_refused():
    t, _team, regs = team_tournament()
    with pytest.raises(RuleError, match="no series is drawn yet"):
        substitute(regs[0], services.Entry(name="Rita Reserve"))
    for _ in range(3):
        series = draw_series(t)
        factories.play_series(series)
    with pytest.raises(RuleError, match="all 3 series are drawn"):
        substitute(regs[0], services.Entry(name="Rita Reserve"))
    assert not Registration.objects.filter(player__name="Rita Reserve").exists()


def test_only_a_teams_player_is_substituted():
    t, _team, regs = team_tournament()
    draw_series(t)
    with pytest.raises(RuleError, match="plays for no team"):
        substitute(regs[6], services.Entry(name="Rita Reserve"))


def test_the_substituted_player_is_told_his_list_fee_refund_by_the_tournaments_share():
    t, _team, regs = team_tournament(list_fee=Decimal("4.00"), list_fee_refund_percent=100)
    Registration.objects.filter(pk=regs[0].pk).update(paid=True, list_fees_paid=True)
    regs[0].refresh_from_db()
    factories.play_series(draw_series(t))
    done = substitute(regs[0], services.Entry(name="Rita Reserve"))
    assert done.refund == Decimal("8.00")  # series 2 and 3, paid in advance, not played


def test_a_withdrawal_is_undone_before_the_next_draw():
    t, _team, regs = team_tournament()
    factories.play_series(draw_series(t))
    services.withdraw(regs[6])
    back = undo_withdrawal(regs[6])
    assert back.from_series == 2 and back.change is None
    regs[6].refresh_from_db()
    assert regs[6].withdrawn_after_series is None


def test_a_withdrawal_undone_after_the_next_draw_seats_the_player_while_his_table_can_change():
    t, _team, regs = team_tournament(players=7)
    factories.play_series(draw_series(t))
    services.withdraw(regs[6])
    second = draw_series(t)  # six players: two threes
    back = undo_withdrawal(regs[6])
    assert back.change is not None and back.from_series == 2
    assert Seat.objects.filter(series=second, player=regs[6].player).exists()


def test_a_withdrawal_is_not_undone_once_the_next_series_is_played_without_him():
    t, _team, regs = team_tournament(players=7)
    factories.play_series(draw_series(t))
    services.withdraw(regs[6])
    factories.play_series(draw_series(t))
    with pytest.raises(RuleError, match="series 2 is played without"):
        undo_withdrawal(regs[6])
    regs[6].refresh_from_db()
    assert regs[6].withdrawn_after_series == 1


def test_a_withdrawal_after_the_last_series_is_not_undone_into_a_series_that_does_not_exist():
    t, _team, regs = team_tournament(players=7)
    for _number in range(3):
        factories.play_series(draw_series(t))
    services.withdraw(regs[6])
    with pytest.raises(RuleError, match="withdrew after the last series"):
        undo_withdrawal(regs[6])
    regs[6].refresh_from_db()
    assert regs[6].withdrawn_after_series == 3
