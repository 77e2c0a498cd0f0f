"""A league season a Ligaleiter can trust: a bound result does not
change without a record, binding is stored, line-ups are not overwritten unseen."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from draw.series import draw_series
from leagues import checks, lineups
from leagues.models import LeagueEvent, MatchDay
from leagues.publication import new_host
from leagues.results import season_tables
from referees.corrections import correct_game
from scoring.models import Game
from skat.rules import RuleError
from tests import factories
from tournaments.models import Registration

from .helpers import played_day, roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(client):
    manager = factories.user("staffelleiter")
    client.force_login(manager)
    league, group, teams = factories.league_group(managers=[manager], series_per_matchday=2, rounds_per_series=1)
    return manager, league, teams, played_day(group, teams, 1, ["Team A", "Team B"])


def edit(client, day, player, team: str):
    registration = Registration.objects.get(tournament=day.tournament, player=player)
    url = reverse("director:player_edit", args=[day.tournament_id, registration.pk])
    return client.post(url, {"name": player.name, "club": player.club.name, "membership_number": "", "team": team})


def team_of(day, player) -> str:
    return Registration.objects.get(tournament=day.tournament, player=player).team.name


# 1: the Players page of a match day


def test_a_bound_match_days_player_is_not_moved_to_another_team(client, day):
    manager, _league, teams, day = day
    checks.check(day, user=manager)
    checks.make_binding(day, user=manager)
    a1 = roster(teams[0], 1)[0]
    answer = edit(client, day, a1, "Team B")
    assert answer.status_code == 422
    assert "Match day 1 is binding: its teams and results can no longer change (5.5.3)." in answer.content.decode()
    assert team_of(day, a1) == "Team A"


def test_a_team_fields_no_player_of_another_roster(client, day):
    _manager, _league, teams, day = day
    a1 = roster(teams[0], 1)[0]
    answer = edit(client, day, a1, "Team B")
    assert answer.status_code == 422
    assert "A1 is not on the roster of Team B: a team fields only its own roster&#x27;s players." in (
        answer.content.decode()
    )
    answer = edit(client, day, a1, "Team Z")
    assert "Team Z does not play match day 1." in answer.content.decode()
    assert team_of(day, a1) == "Team A"
    stranger = {"name": "Stranger", "team": "Team A", "first_series": 2}
    answer = client.post(reverse("director:players", args=[day.tournament_id]), stranger)
    assert "This player is not on the roster of Team A" in answer.content.decode()
    assert not Registration.objects.filter(player__name="Stranger").exists()


def test_a_change_on_a_checked_match_day_is_recorded_and_withdraws_the_check(client, day):
    manager, _league, teams, day = day
    a1 = roster(teams[0], 1)[0]
    checks.check(day, user=manager)
    answer = edit(client, day, a1, "")  # the roster's own team stays; taking him out of it is refused
    assert answer.status_code == 422
    assert "every player plays for a team of his roster" in answer.content.decode()
    # A player on two rosters (the league allows it) moves between them, on the record.
    teams[1].roster.create(player=a1, position=7)
    assert edit(client, day, a1, "Team B").status_code == 302
    day.refresh_from_db()
    assert day.checked_at is None and day.binding_due is None
    kinds = list(day.events.values_list("kind", "note"))
    assert ("team_change", "A1: Team A -> Team B") in kinds and kinds[-1][0] == "unchecked"


# 2: binding is stored


def test_changing_the_period_later_does_not_unbind_a_match_day(day):
    manager, league, _teams, day = day
    checks.check(day, user=manager)
    MatchDay.objects.filter(pk=day.pk).update(
        checked_at=timezone.now() - datetime.timedelta(days=15),
        binding_due=timezone.now() - datetime.timedelta(days=1),
    )
    day.refresh_from_db()
    assert day.binding
    league.binding_days = 30
    league.save()
    day = MatchDay.objects.get(pk=day.pk)
    assert day.binding
    game = Game.objects.filter(table__series__tournament=day.tournament, won=True).first()
    with pytest.raises(RuleError, match="binding"):
        correct_game(game.pk, expected_version=game.version, changes={"declarer_points": 50}, user=manager, reason="x")


def test_a_change_racing_the_deadline_does_not_withdraw_the_check_of_a_bound_day(day):
    """Refused before the deadline, recorded after it: the day bound meanwhile stays bound."""
    manager, _league, _teams, day = day
    checks.check(day, user=manager)
    MatchDay.objects.filter(pk=day.pk).update(binding_due=timezone.now())
    assert not checks.uncheck(day.pk, user=manager, note="series 1, table 1, deal 1")
    day = MatchDay.objects.get(pk=day.pk)
    assert day.checked_at is not None and day.binding


def test_the_deadline_is_the_periods_at_the_check(day):
    manager, league, _teams, day = day
    checks.check(day, user=manager)
    day.refresh_from_db()
    assert day.binding_due == day.checked_at + datetime.timedelta(days=14)
    league.binding_days = 0
    league.save()
    assert not MatchDay.objects.get(pk=day.pk).binding


def test_checking_again_does_not_move_the_check(day):
    manager, _league, _teams, day = day
    checks.check(day, user=manager)
    first = MatchDay.objects.get(pk=day.pk).checked_at
    with pytest.raises(RuleError, match="the match day is checked already"):
        checks.check(day, user=manager)
    assert MatchDay.objects.get(pk=day.pk).checked_at == first


def test_a_correction_after_the_check_withdraws_it_on_the_record(day):
    manager, _league, _teams, day = day
    checks.check(day, user=manager)
    game = Game.objects.filter(table__series__tournament=day.tournament, won=True).first()
    correct_game(game.pk, expected_version=game.version, changes={"declarer_points": 50}, user=manager, reason="x")
    day.refresh_from_db()
    assert day.checked_at is None and not day.binding
    event = day.events.last()
    assert event.kind == "unchecked" and event.note.startswith("series 1, table")
    checks.check(day, user=manager)  # checked again: the period starts anew
    assert MatchDay.objects.get(pk=day.pk).checked_at is not None


# 7: the line-up form


def test_the_line_up_form_shows_the_saved_line_up_and_a_change_is_recorded(client):
    manager = factories.user("m")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager])
    day = lineups.create_match_day(group, number=1, date="2026-09-05", teams=teams)
    team = teams[0]
    a = {p.name: p.pk for p in roster(team, 1, 2, 3, 4, 5)}
    url = reverse("leagues:line_up", args=[day.pk, team.pk])
    prefix = f"lineup-{team.pk}"
    with_reserve = [a["A1"], a["A2"], a["A3"], a["A5"]]
    assert client.post(url, {f"{prefix}-team": team.pk, f"{prefix}-players": with_reserve}).status_code == 302
    page = client.get(reverse("leagues:match_day", args=[day.pk])).content.decode()
    assert "Saved: A1, A2, A3, A5" in page
    form = page.split(f'data-team="{team.name}"')[1].split("</form>")[0]
    assert f'value="{a["A5"]}" id' in form and "checked" in form.split(f'value="{a["A5"]}"')[1][:80]
    assert "checked" not in form.split(f'value="{a["A4"]}"')[1][:80].split("<label")[0]
    # The form the other manager opened before the change does not overwrite it unseen.
    regulars = [a["A1"], a["A2"], a["A3"], a["A4"]]
    stale = {f"{prefix}-team": team.pk, f"{prefix}-players": regulars, f"{prefix}-saved": ""}
    answer = client.post(url, stale)
    assert answer.status_code == 422
    assert "the line-up of Team A was saved meanwhile as A1, A2, A3, A5; check it and save again" in (
        answer.content.decode()
    )
    assert lineups.saved_line_up(day, team)[-1].name == "A5"
    stale[f"{prefix}-saved"] = ",".join(str(pk) for pk in sorted(with_reserve))
    assert client.post(url, stale).status_code == 302
    assert [p.name for p in lineups.saved_line_up(day, team)] == ["A1", "A2", "A3", "A4"]
    assert day.events.last().note == "Team A: A1, A2, A3, A5 -> A1, A2, A3, A4"


# 13: small things


def test_league_host_with_a_name_in_other_case_says_so_without_a_traceback():
    league, _group, _teams = factories.league_group()
    new_host(league, "SC Herz Dame")
    with pytest.raises(CommandError, match="has a host SC Herz Dame already"):
        call_command("league_host", str(league.pk), "sc herz dame")


def test_the_season_table_before_the_first_match_day_lists_every_team_with_nothing(client):
    manager = factories.user("m")
    client.force_login(manager)
    league, _group, _teams = factories.league_group(managers=[manager])
    (season,) = season_tables(league.groups.all())
    assert [p.result.team.name for p in season.table] == ["Team A", "Team B", "Team C", "Team D"]
    assert {p.place for p in season.table} == {1}
    page = client.get(reverse("leagues:season", args=[league.pk])).content.decode()
    assert page.count("<td>1</td>") == 4 and "Team D" in page


def test_line_up_events_are_kept_in_the_match_days_history(day):
    _manager, _league, _teams, day = day
    assert LeagueEvent.objects.filter(match_day=day, kind="line_up").count() == 4


# 5: the draw when a team does not turn up


def test_a_match_day_without_one_team_seats_the_three_others_apart(day):
    _manager, _league, teams, _day = day
    absent = lineups.create_match_day(teams[0].group, number=2, date="2026-09-12", teams=teams)
    for team in teams[:3]:  # Team D does not turn up
        lineups.set_line_up(absent, team, roster(team, 1, 2, 3, 4))
    series = draw_series(absent.tournament)
    tables = [
        [seat.player.registrations.get(tournament=absent.tournament).team.name for seat in table.seats.all()]
        for table in series.tables.prefetch_related("seats__player")
    ]
    assert sorted(map(len, tables)) == [3, 3, 3, 3]
    assert all(sorted(names) == ["Team A", "Team B", "Team C"] for names in tables)


# 9: the fixed seating plan (Setzplan)


def test_a_match_day_of_four_teams_is_seated_by_its_plan_without_repeat_meetings(client):
    from itertools import combinations

    from tests.factories import play_series

    manager = factories.user("m")
    client.force_login(manager)
    _league, group, teams = factories.league_group(managers=[manager], series_per_matchday=3, rounds_per_series=1)
    day = played_day(group, teams, 1, ["Team A", "Team B"], substitute=True)  # A5 for A1 before series 2
    play_series(draw_series(day.tournament), "Team C")
    pairs = []
    for series in day.tournament.series.prefetch_related("tables__seats__player"):
        for table in series.tables.all():
            names = [seat.player.name for seat in sorted(table.seats.all(), key=lambda s: s.number)]
            assert [n[0] for n in names] == ["A", "B", "C", "D"]  # the plan's seat order: one of each team
            pairs += [frozenset(pair) for pair in combinations(names, 2)]
    assert len(pairs) == len(set(pairs))  # nobody meets anybody twice
    first, second = (
        {seat.player.name: seat.table.number for seat in s.seats.select_related("player", "table")}
        for s in day.tournament.series.order_by("number")[:2]
    )
    assert second["A5"] == first["A1"]  # the reserve takes the seat of the plan the player left
    report = client.get(reverse("leagueoffice:report_pdf", args=[day.pk]))
    import io

    import pypdf

    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(report.content)).pages)
    assert "Seating plan" in text and "Team A: A1 · Team B: B1 · Team C: C1 · Team D: D1" in text
    assert "Team A: A5 · Team B: B2 · Team C: C3 · Team D: D4" in text  # series 2, table 1: the reserve


def test_a_team_typed_in_other_case_is_the_match_days_team(client, day):
    """Loose end: "team a" on the Players page is Team A, not a second team the results miss."""
    manager, _league, teams, day = day
    checks.check(day, user=manager)
    a1 = roster(teams[0], 1)[0]
    assert edit(client, day, a1, "team a").status_code == 302
    assert team_of(day, a1) == "Team A"
    assert sorted(day.tournament.teams.values_list("name", flat=True)) == ["Team A", "Team B", "Team C", "Team D"]
    day.refresh_from_db()
    assert day.checked_at is not None  # nothing changed: no team change recorded, the check stays
    assert not day.events.filter(kind="team_change").exists()
