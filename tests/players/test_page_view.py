"""The player's own page (/me/<token>/), read as a spec.

- Before any draw it says so; after a draw it shows his table and seat in the series now
  drawn and who sits with him, never the table's entry link.
- Published standings: his place and his results per series; unpublished: the seat only.
- His lines in the published rankings this tournament counts for.
- A wrong token is a 404; the page is never stored by a cache nor indexed; the access log
  shows a fingerprint, not the token.
- A handful of queries whatever the field's size.
"""

from __future__ import annotations

import logging

import pytest
from django.test import Client, override_settings

from config.access import loggable_path
from draw.series import draw_series
from rankings.models import Ranking, RankingLine, RankingTournament
from tests import factories
from tournaments.models import Registration, Seat, Series
from tournaments.player_links import player_path

pytestmark = pytest.mark.django_db


def _drawn(players: int = 8, **fields):
    t, series = factories.drawn(players, **fields)
    for number, reg in enumerate(Registration.objects.filter(tournament=t).order_by("pk"), start=1):
        Registration.objects.filter(pk=reg.pk).update(start_number=number)
    return t, series


def _first(t) -> Registration:
    return Registration.objects.filter(tournament=t).select_related("player").order_by("pk").first()


def test_before_the_draw_the_page_says_no_series_is_drawn(client):
    t = factories.tournament()
    (reg,) = factories.registered(t, 1)
    response = client.get(player_path(reg))
    assert response.status_code == 200
    assert "No series is drawn yet" in response.content.decode()


def test_after_the_draw_it_shows_his_table_seat_and_table_mates_but_never_the_entry_link(client):
    t, series = _drawn(8)
    reg = _first(t)
    seat = Seat.objects.select_related("table").get(series=series, player=reg.player)
    page = client.get(player_path(reg)).content.decode()
    assert f"Table {seat.table.number}" in page and f"Seat {seat.number}" in page
    for mate in Seat.objects.filter(table=seat.table).select_related("player"):
        assert mate.player.name in page
    assert seat.table.token not in page and seat.table.control_token not in page
    assert "/s/" not in page


def test_a_seat_changed_after_the_draw_shows_at_once(client):
    t, series = _drawn(8)
    reg = _first(t)
    mine = Seat.objects.select_related("table").get(series=series, player=reg.player)
    client.get(player_path(reg))
    theirs = Seat.objects.filter(series=series).exclude(table=mine.table).select_related("table", "player").first()
    # The director swaps the two (draw.seating does it in one transaction).
    where = (mine.table, mine.number)
    mine.delete()
    Seat.objects.filter(pk=theirs.pk).update(player=reg.player)
    Seat.objects.create(table=where[0], series=series, number=where[1], player=theirs.player)
    page = client.get(player_path(reg)).content.decode()
    assert f"Table {theirs.table.number}" in page and f"Seat {theirs.number}" in page


def test_unpublished_standings_show_the_seat_but_no_place(client):
    t, series = _drawn(8, standings_public=False)
    factories.play_series(series)
    page = client.get(player_path(_first(t))).content.decode()
    assert "Table " in page
    assert "not published yet" in page and "Place " not in page


def test_published_standings_show_his_place_and_results_per_series(client):
    t, series = _drawn(8, standings_public=True, rounds_per_series=1)
    table = series.tables.order_by("number").first()
    declarer = table.seats.get(number=2)
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=61)
    reg = Registration.objects.get(tournament=t, player=declarer.player)
    page = client.get(player_path(reg)).content.decode()
    assert "Place 1" in page
    assert "Series" in page and "Overall" in page


def test_his_published_rankings_show_with_every_result(client):
    t, _series = _drawn(8)
    reg = _first(t)
    ranking = Ranking.objects.create(name="Jahreswertung", season="2027", public=True)
    entry = RankingTournament.objects.create(ranking=ranking, tournament=t)
    RankingLine.objects.create(
        ranking=ranking, position=1, place=3, player=reg.player, name=reg.player.name,
        value="812", played=1, counted=1, missed=0, penalty=0, results=[[entry.pk, None, 812, True]],
    )  # fmt: skip
    hidden = Ranking.objects.create(name="Hidden cup", public=False)
    RankingTournament.objects.create(ranking=hidden, tournament=t)
    page = client.get(player_path(reg)).content.decode()
    assert "Jahreswertung 2027" in page and "812" in page and "Place 3" in page
    assert "Hidden cup" not in page


def test_a_wrong_token_is_a_404_and_the_page_is_kept_out_of_caches(client):
    t, _series = _drawn(4)
    reg = _first(t)
    assert client.get(player_path(reg)[:-3] + "x/").status_code == 404
    assert client.get("/me/nothing/").status_code == 404
    response = client.get(player_path(reg))
    assert response["Cache-Control"] == "no-store, private"
    assert "noindex" in response["X-Robots-Tag"]


def test_the_access_log_shows_a_fingerprint_not_the_token(caplog):
    t, _series = _drawn(4)
    path = player_path(_first(t))
    token = path.split("/")[2]
    assert token not in loggable_path(path)
    assert loggable_path(f"/me/find/{t.pk}/") == f"/me/find/{t.pk}/"
    with override_settings(DEBUG=False), caplog.at_level(logging.INFO, logger="office.access"):
        Client().get(path)
    assert token not in caplog.text


def test_before_the_first_deal_no_place_is_shown(client):
    """Every rating is 0 then: the "places" would be a tie broken by nothing."""
    t, series = _drawn(8, standings_public=True, rounds_per_series=1)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    reg = _first(t)
    page = client.get(player_path(reg))
    assert page.context["page"].overall is None and page.context["page"].series == []
    html = page.content.decode()
    assert "No results yet." in html and "Place " not in html
    table = series.tables.order_by("number").first()
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=61)
    page = client.get(player_path(reg))
    assert page.context["page"].overall is not None and [n for n, _f in page.context["page"].series] == [1]


def test_the_page_costs_a_handful_of_queries(client, django_assert_max_num_queries):
    t, series = _drawn(24, standings_public=True)
    factories.play_series(series)
    reg = _first(t)
    client.get(player_path(reg))  # fills the standings cache
    # His registration, the results mark, his table's seats, his rankings' lines.
    with django_assert_max_num_queries(4):
        client.get(player_path(reg))


def test_a_player_without_a_seat_in_the_newest_series_is_told_so(client):
    t, series = _drawn(8)
    reg = _first(t)
    Seat.objects.filter(series=series, player=reg.player).delete()
    assert "You have no seat in series 1" in client.get(player_path(reg)).content.decode()


def test_the_series_drawn_and_not_started_has_no_results_row(client):
    t, series = _drawn(8, standings_public=True, rounds_per_series=1)
    factories.play_series(series)
    draw_series(t)
    reg = _first(t)
    page = client.get(player_path(reg))
    assert [number for number, _figures in page.context["page"].series] == [1]
    assert "Series 2" in page.content.decode()  # his seat in it


def test_while_another_page_computes_the_new_results_the_seat_still_shows_at_once(client):
    from players.services import CLAIM_SECONDS, figures_claim
    from standings.cache import results_mark
    from standings.claims import claim

    t, series = _drawn(8, standings_public=True)
    factories.play_series(series)
    reg = _first(t)
    assert claim(figures_claim(t, results_mark(t)), CLAIM_SECONDS)  # another process's, as it computes
    page = client.get(player_path(reg)).content.decode()
    assert "Table " in page and "being brought up to date" in page and "Place " not in page


def test_the_figures_claim_is_given_back_once_they_are_stored_and_when_their_computation_fails(client, monkeypatch):
    from django.core.cache import cache

    from players import services
    from standings.cache import results_mark
    from standings.claims import claim, release

    t, series = _drawn(8, standings_public=True)
    factories.play_series(series)
    reg = _first(t)
    assert "Place " in client.get(player_path(reg)).content.decode()
    key = services.figures_claim(t, results_mark(t))
    assert claim(key, services.CLAIM_SECONDS)  # given back: free
    release(key)

    cache.clear()  # the figures gone: the next page computes them, and fails
    monkeypatch.setattr(services, "_index", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        client.get(player_path(reg))
    assert claim(key, services.CLAIM_SECONDS)  # given back, not held for CLAIM_SECONDS


def test_figures_another_page_stored_meanwhile_are_not_computed_again(client, monkeypatch):
    """A page that missed the figures just before another page stored them and gave its claim back
    finds them once it holds the claim: not a second computation of every player's figures."""
    from players import services

    t, series = _drawn(8, standings_public=True)
    factories.play_series(series)
    reg = _first(t)
    assert "Place " in client.get(player_path(reg)).content.decode()  # stored, the claim given back
    looked, index = services.lookup, services._index
    missed, computed = [], []

    def before_they_were_stored(key):  # its first look came just before the other page stored them
        if not missed:
            missed.append(key)
            return None
        return looked(key)

    monkeypatch.setattr(services, "lookup", before_they_were_stored)
    monkeypatch.setattr(services, "_index", lambda *args: computed.append(args) or index(*args))
    assert "Place " in client.get(player_path(reg)).content.decode()
    assert missed and computed == []


def test_the_figures_claim_is_given_back_when_storing_them_is_cut_short(client, monkeypatch):
    """A worker stopped while it stores the figures (gunicorn's timeout raises SystemExit) gives its
    claim back: the pages do not say "being brought up to date" for CLAIM_SECONDS."""
    from players import services
    from standings.cache import results_mark
    from standings.claims import claim

    t, series = _drawn(8, standings_public=True)
    factories.play_series(series)
    reg = _first(t)

    def stopped(*args):
        raise SystemExit(1)

    monkeypatch.setattr(services, "store", stopped)
    with pytest.raises(SystemExit):
        client.get(player_path(reg))
    assert claim(services.figures_claim(t, results_mark(t)), services.CLAIM_SECONDS)


def test_with_a_cache_that_cannot_be_written_the_page_computes_his_figures_itself(client, settings, tmp_path):
    """No claim can be made nor the figures kept (the cache's folder cannot be made): each page
    computes them, never "being brought up to date" for ever, never an error."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(blocker / "c")}
    }
    t, series = _drawn(8, standings_public=True)
    factories.play_series(series)
    reg = _first(t)
    for _again in range(2):
        page = client.get(player_path(reg)).content.decode()
        assert "Place " in page and "being brought up to date" not in page
