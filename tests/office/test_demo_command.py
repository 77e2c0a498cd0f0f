"""`manage.py demo`: what `make run` loads, built through the real services."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Count
from django.utils import translation

from office.demo import demo_players
from scoring.models import Game
from standings.places import standings, team_standings
from tests.standings.test_places import engine_ratings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_terminal(monkeypatch):
    """The command speaks the terminal's language (LANG): English here."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def test_the_demo_is_a_tournament_in_progress(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    # Never a fixed password: a generated one, printed once.
    password = re.search(r"director / (\S+) \(shown only now", out).group(1)
    director = get_user_model().objects.get(username="director")
    assert password != "skat" and director.check_password(password)
    t = Tournament.objects.get(name="Demo Open")
    assert t.is_director(director) and t.standings_public
    assert t.registrations.count() == len(demo_players()) == 24
    first, second = t.series.order_by("number")
    assert (first.status, second.status, second.method) == ("finished", "running", "seeded")
    assert Game.objects.filter(table__series=first).count() == 6 * 48
    assert Game.objects.filter(table__series=second).count() == 6 * 24
    # Series 1 is signed off (on paper), series 2 still provisional.
    assert first.tables.filter(signoff__on_paper=True).count() == 6
    assert not second.tables.filter(signoff__isnull=False).exists()
    assert {row.item.player_id: row.rating for row in standings(t)} == engine_ratings(t)
    # Each club is a team of four, kept apart by the draw and ranked as a team.
    assert sorted(t.teams.annotate(n=Count("members")).values_list("n", flat=True)) == [4] * 6
    for series in (first, second):
        for table in series.tables.all():
            teams = list(table.seats.values_list("player__registrations__team", flat=True))
            assert len(teams) == len(set(teams)), f"team-mates at table {table}"
    # The first ten places share the whole prize pool.
    assert sum(p.percent for p in t.prizes.all()) == 100 and t.prizes.count() == 10
    ranked = team_standings(t)
    assert len(ranked) == 6 and sum(r.rating.rating for r in ranked) == sum(r.rating.rating for r in standings(t))


def test_running_it_again_changes_nothing(capsys):
    call_command("demo")
    call_command("demo")
    assert "password unchanged" in capsys.readouterr().out
    assert Tournament.objects.count() == 1


def test_a_given_password_is_the_directors(capsys):
    call_command("demo", password="Null-Ouvert-Hand")
    assert get_user_model().objects.get(username="director").check_password("Null-Ouvert-Hand")
    assert "Null-Ouvert-Hand" not in capsys.readouterr().out


def test_it_speaks_the_terminals_language_whatever_a_page_left_active(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with translation.override("en"):
        call_command("demo")
    assert "Turnierleiter-Zugang angelegt: director" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "C.UTF-8")
    with translation.override("de"):
        call_command("demo")
    assert "Director login: director (password unchanged)" in capsys.readouterr().out
