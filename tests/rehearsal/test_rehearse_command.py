"""``manage.py rehearse``: a practice evening played through the table links to the end, with no 5xx."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from referees.models import Dispute
from scoring.models import Game
from signoff.models import SignOff
from tests import factories
from tournaments.models import Category, Prize, Registration, Series, Team, Tournament

pytestmark = pytest.mark.django_db


def rehearse(*args: str) -> str:
    out = io.StringIO()
    call_command("rehearse", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_a_twelve_player_evening_is_played_to_the_end_through_the_links():
    out = rehearse("--players", "12", "--series", "2", "--rounds", "1")
    assert "5xx: 0" in out and "other refusals: 0" in out and "sheets confirmed: 4 of 6" in out
    practice = Tournament.objects.get()
    assert practice.practice
    assert list(practice.series.values_list("number", "status")) == [(1, "finished"), (2, "finished")]
    # Three tables of four, four deals each, in each series: every deal entered on the sheets.
    assert Game.objects.filter(table__series__tournament=practice).count() == 2 * 3 * 4
    assert "deals entered: 24 (and 8 on second lists)" in out
    # Table 1 corrected a deal on its link, table 2 called a referee, table 3's sheet is
    # left for the referee to mark signed on paper: the others confirmed with their PINs.
    assert Game.objects.filter(table__series__tournament=practice, table__number=1, version__gt=1).count() == 2
    assert Dispute.objects.filter(table__number=2, status=Dispute.Status.OPEN).count() == 2
    assert set(SignOff.objects.values_list("table__number", flat=True)) == {1, 2}
    # Series 2 was seeded by the standings, as the director draws it.
    assert practice.series.get(number=2).method == Series.Method.SEEDED


def test_behind_https_the_phones_come_as_https(settings):
    """``SECURE=1``: the office redirects plain HTTP and checks the Referer of a CSRF post."""
    settings.SECURE = settings.SECURE_SSL_REDIRECT = settings.CSRF_COOKIE_SECURE = settings.SESSION_COOKIE_SECURE = (
        True
    )
    out = rehearse("--players", "12", "--series", "1", "--rounds", "1")
    assert "5xx: 0, other refusals: 0" in out and "deals entered: 12 " in out


@pytest.mark.slow
def test_a_forty_player_evening_is_played_to_the_end_with_no_server_error():
    """Every series of a 40-player evening to the end, of two rounds each (8 deals a table of
    four) to keep the suite's time: the draws, disputes, corrections and sign-offs of a
    long series are the same requests, only more of them (the full evening of 12 rounds,
    1,440 deals, is `manage.py rehearse --players 40`)."""
    out = rehearse("--players", "40", "--rounds", "2")
    assert "5xx: 0" in out
    practice = Tournament.objects.get()
    assert practice.series.filter(status=Series.Status.FINISHED).count() == 3
    assert Game.objects.filter(table__series__tournament=practice).count() == 3 * 10 * 8


def test_a_server_error_is_counted_and_the_command_fails(monkeypatch):
    from referees import disputes

    def broken(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(disputes, "raise_dispute", broken)
    with pytest.raises(CommandError, match="server error"):
        rehearse("--players", "12", "--series", "1", "--rounds", "1")


def test_a_practice_copy_keeps_the_players_and_rules_and_leaves_the_tournament_alone():
    director = factories.user("copier")
    source = factories.tournament(directors=[director], series_count=2, rounds_per_series=1, entry_fee="12.00")
    seniors = Category.objects.create(tournament=source, name="Seniors")
    Prize.objects.create(tournament=source, place=1, percent=50)
    Prize.objects.create(tournament=source, category=seniors, place=1, amount=20)
    team = Team.objects.create(tournament=source, name="Kreuz Buben")
    registrations = factories.registered(source, 7)
    Registration.objects.filter(pk=registrations[0].pk).update(team=team, category=seniors)
    Registration.objects.filter(pk=registrations[1].pk).update(withdrawn_after_series=1)
    out = rehearse("--copy", str(source.pk), "--prepare")
    copy = Tournament.objects.get(practice=True)
    assert f"Practice tournament {copy.pk}" in out and copy.name == f"Practice: {source.name}"
    assert (copy.entry_fee, copy.series_count, list(copy.directors.all())) == (Decimal("12.00"), 2, [director])
    first = copy.registrations.get(player=registrations[0].player)
    assert (first.team.name, first.team.tournament, first.category.tournament) == ("Kreuz Buben", copy, copy)
    assert copy.prizes.get(category__isnull=False).category.tournament == copy
    assert copy.registrations.filter(withdrawn_after_series__isnull=True).count() == 7
    assert not copy.series.exists() and not source.practice
    # Played: the copy's series, none of the source's.
    rehearse("--practice", str(copy.pk))
    assert copy.series.filter(status=Series.Status.FINISHED).count() == 2 and not source.series.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pace", "-1"], "--pace"),
        (["--players", "2"], "--players"),
        (["--copy", "999"], "--copy: there is no tournament 999"),
        (["--practice", "999"], "--practice"),
        (["--series", "0"], "--series"),
        (["--director", "nobody"], "--director"),
    ],
)
def test_bad_options_are_refused_naming_the_option(args, message):
    with pytest.raises(CommandError, match=message):
        rehearse(*args, "--prepare")
    assert not Tournament.objects.exists()


def test_a_copy_too_small_to_draw_is_refused_with_the_draws_rule():
    source = factories.tournament()
    factories.registered(source, 2)
    with pytest.raises(CommandError, match=r"^\d[\d.]*: "):
        rehearse("--copy", str(source.pk))


def test_a_real_tournament_is_never_played_as_practice():
    real = factories.tournament()
    with pytest.raises(CommandError, match="--practice"):
        rehearse("--practice", str(real.pk))
