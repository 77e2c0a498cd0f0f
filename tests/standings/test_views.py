"""The standings pages as a spec: pages of 50 with page links, a find-a-player box, start
numbers, the full list as CSV and PDF; the public page computed once per change of the
results and answered with a 304 while nothing changed."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from django.utils import translation

from draw.series import draw_series
from scoring.models import Game
from standings.pages import PER_PAGE
from standings.places import standings
from tests import factories
from tests.standings.test_places import play
from tournaments.models import Player, Registration, Series, Tournament
from tournaments.names import search_key

pytestmark = pytest.mark.django_db


def field(players: int, director=None, **fields) -> Tournament:
    """A tournament of ``players`` with start numbers 1.., one round played at every table."""
    fields.setdefault("rounds_per_series", 1)
    t = factories.tournament(directors=[director] if director else [], **fields)
    for number, registration in enumerate(factories.registered(t, players, clubs=3), start=1):
        Registration.objects.filter(pk=registration.pk).update(start_number=number)
    play(draw_series(t), random.Random(players))
    return t


def rename(t: Tournament, start_number: int, name: str) -> None:
    player = Registration.objects.get(tournament=t, start_number=start_number).player
    Player.objects.filter(pk=player.pk).update(name=name, search_key=search_key(name))


def get(client, t: Tournament, name: str = "director:standings", **query):
    response = client.get(reverse(name, args=[t.pk]), query)
    assert response.status_code == 200, response.content[:500]
    return response


def names_on(response) -> list[str]:
    return [row.record["name"] for row in response.context["table"].rows]


def test_the_standings_come_in_pages_of_50_with_page_links(client, director):
    t = field(120, director)
    ranked = [entry.item.name for entry in standings(t)]
    first = get(client, t)
    assert names_on(first) == ranked[:PER_PAGE]
    html = first.content.decode()
    assert 'href="?page=2"' in html and 'href="?page=3"' in html and "Rows 1\N{EN DASH}50 of 120" in html
    second = get(client, t, page="2")
    assert names_on(second) == ranked[PER_PAGE : 2 * PER_PAGE]
    assert 'rel="prev" href="?page=1"' in second.content.decode()
    assert names_on(get(client, t, page="99")) == ranked[2 * PER_PAGE :]  # out of range: the last page
    assert names_on(get(client, t, page="x")) == ranked[:PER_PAGE]


def test_the_page_links_keep_the_series_and_the_sort(client, director):
    t = field(120, director)
    html = get(client, t, series="1", sort="-points").content.decode()
    assert 'href="?series=1&amp;sort=-points&amp;page=2"' in html


def test_a_sorted_page_is_a_page_of_the_whole_list_sorted(client, director):
    t = field(120, director)
    by_points = sorted(standings(t), key=lambda entry: (-entry.rating.points, entry.place))
    response = get(client, t, sort="points", page="2")
    assert names_on(response) == [entry.item.name for entry in by_points[PER_PAGE : 2 * PER_PAGE]]


def test_each_row_shows_the_players_start_number(client, director):
    t = field(9, director)
    rename(t, 7, "Greta Siebert")
    html = get(client, t).content.decode()
    assert "<th" in html and "No." in html
    row = html[html.index("Greta Siebert") - 400 : html.index("Greta Siebert")]
    assert '<td class="num">7</td>' in row


@pytest.mark.parametrize("query", ["mueller anna", "Anna Müller", "Müller, A", "MULLER"])
def test_find_a_player_by_his_name_in_any_order_and_spelling(client, director, query):
    t = field(120, director)
    rename(t, 77, "Anna Müller")
    response = get(client, t, q=query)
    assert names_on(response) == ["Anna Müller"]
    place = next(entry.place for entry in standings(t) if entry.item.name == "Anna Müller")
    assert response.context["table"].rows[0].record["place"] == place  # his place in the whole field
    assert "1 player found" in response.content.decode()


def test_find_a_player_by_his_start_number(client, director):
    t = field(30, director)
    rename(t, 12, "Zacharias Zwölf")
    assert names_on(get(client, t, q="12")) == ["Zacharias Zwölf"]
    assert names_on(get(client, t, q="999")) == []


def test_the_search_box_works_without_javascript_and_answers_htmx_with_the_list_only(client, director):
    t = field(30, director)
    rename(t, 3, "Otto Dritter")
    html = get(client, t).content.decode()
    assert '<form method="get"' in html and 'name="q"' in html and 'hx-target="#standings-list"' in html
    part = client.get(
        reverse("director:standings", args=[t.pk]),
        {"q": "otto"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="standings-list",
    ).content.decode()
    assert "Otto Dritter" in part and "<html" not in part and "find-player" not in part


def test_the_category_ranking_stays_in_pages(client, director):
    t = field(120, director)
    women = t.categories.create(name="Damen")
    Registration.objects.filter(tournament=t, start_number__lte=60).update(category=women)
    response = get(client, t, category=str(women.pk))
    places = [row.record["place"] for row in response.context["table"].rows]
    assert places == list(range(1, 51)) and response.context["page"].paginator.num_pages == 2


def test_the_full_list_is_linked_as_pdf_and_csv(client, director):
    t = field(120, director)
    html = get(client, t, series="1").content.decode()
    assert f"{reverse('director:standings_pdf', args=[t.pk])}?series=1" in html
    assert f"{reverse('public:standings_csv', args=[t.pk])}?series=1" in html
    csv = client.get(reverse("public:standings_csv", args=[t.pk]), {"series": "1"}).content.decode("utf-8-sig")
    lines = csv.strip().splitlines()
    assert len(lines) == 121 and lines[0].startswith("Place;No.;Player;Club;")
    first = standings(t, 1)[0]
    assert lines[1].startswith(
        f"1;{Registration.objects.get(tournament=t, player_id=first.item.player_id).start_number};"
    )


def test_the_public_full_list_pdf_is_made_for_everybody(client):
    t = field(9, standings_public=True)
    response = client.get(reverse("public:standings_pdf", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


@pytest.mark.parametrize("name", ["director:standings", "public:standings", "public:live"])
def test_a_fixed_number_of_queries_whatever_the_field(client, director, django_assert_max_num_queries, name):
    """Computed (the first request after a change) and from the cache, at 12 and 60 players."""
    for players in (12, 60):
        t = field(players, director, standings_public=True)
        url = reverse(name, args=[t.pk])
        with django_assert_max_num_queries(12):
            assert client.get(url).status_code == 200
        with django_assert_max_num_queries(6):  # from the cache: the session, the user, the tournament, the mark
            assert client.get(url, {"page": "2"} if name != "public:live" else {}).status_code == 200
        with django_assert_max_num_queries(7):
            assert client.get(url, {"q": "player"}).status_code == 200


# --- computed once per change of the results -------------------------------------------------


def test_an_unchanged_refresh_is_a_304(client):
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    first = client.get(url)
    assert first["ETag"] and first["Last-Modified"] and "no-cache" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_an_unchanged_refresh_costs_two_queries(client, django_assert_max_num_queries):
    t = field(12, standings_public=True)
    url = reverse("public:live", args=[t.pk])
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(2):  # the tournament and its results mark
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_change_of_the_results_changes_the_page(client):
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    first = client.get(url)
    table = t.series.get().tables.order_by("number").first()
    factories.game(table, table.deals + 1, declarer_seat=2, contract="grand", tops=4, declarer_points=120)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert second.content != first.content


def test_after_a_deal_the_page_reads_the_changed_table_not_the_series_again(client, django_assert_max_num_queries):
    """The series links and how final the standings are count on the tournament's own
    counter and the tables' sign-offs: a deal costs its table, not those queries again."""
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    client.get(url)
    table = t.series.get().tables.order_by("number").first()
    factories.game(table, table.deals + 1, declarer_seat=2, contract="grand", tops=4, declarer_points=120)
    # The tournament, the mark, the changed counters, the changed table's seats.
    with django_assert_max_num_queries(4):
        assert client.get(url).status_code == 200


def test_after_a_deal_the_projector_reads_the_changed_table_only(client, django_assert_max_num_queries):
    t = field(12, standings_public=True)
    t.series.update(status=Series.Status.RUNNING)  # as the phones' first deal does
    url = reverse("public:live", args=[t.pk]) + "?part=board&page=1"
    client.get(url)
    table = t.series.get().tables.order_by("number").first()
    factories.game(table, table.deals + 1, declarer_seat=2, contract="grand", tops=4, declarer_points=120)
    # The tournament, the mark, the changed counters, the changed table's seats, its deals.
    with django_assert_max_num_queries(5):
        assert client.get(url).status_code == 200


def test_a_new_series_shows_in_the_links_at_once(client):
    t = field(12, standings_public=True, series_count=2)
    url = reverse("public:standings", args=[t.pk])
    assert client.get(url).context["numbers"] == [1]
    t.series.update(status=Series.Status.FINISHED)
    draw_series(t)
    assert client.get(url).context["numbers"] == [1, 2]


def test_a_renamed_player_shows_at_once(client):
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    client.get(url)
    rename(t, 1, "Neu Benannt")
    assert "Neu Benannt" in client.get(url).content.decode()


def test_the_cache_is_not_shared_between_tournaments(client):
    one = field(12, standings_public=True)
    two = field(12, standings_public=True)
    rename(one, 1, "Nur Eins")
    rename(two, 1, "Nur Zwei")
    assert "Nur Eins" in client.get(reverse("public:live", args=[one.pk])).content.decode()
    page_two = client.get(reverse("public:live", args=[two.pk])).content.decode()
    assert "Nur Zwei" in page_two and "Nur Eins" not in page_two


def test_the_cache_is_not_shared_between_languages(client):
    t = field(12, standings_public=True)
    url = reverse("public:live", args=[t.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert "Game points" in english.content.decode()
    with translation.override("de"):
        assert translation.gettext("Game points") in german.content.decode()
    assert "Game points" not in german.content.decode()
    assert english["ETag"] != german["ETag"]


# --- the projector page ------------------------------------------------------------------------


def live(client, t: Tournament, **query) -> str:
    return get(client, t, "public:live", **query).content.decode()


def test_the_projector_shows_20_places_a_page_and_names_the_next_page(client):
    t = field(45, standings_public=True)
    url = reverse("public:live", args=[t.pk])
    ranked = [entry.item.name for entry in standings(t)]
    first = live(client, t)
    assert first.count('<td class="name">') == 20 and ranked[0] in first and ranked[20] not in first
    assert f'data-next="{url}?page=2&amp;part=board"' in first and "Page 1 of 3" in first
    last = live(client, t, page="3", part="board")
    assert "<html" not in last and last.count('<td class="name">') == 5 and ranked[-1] in last
    assert f'data-next="{url}?page=1&amp;part=board"' in last  # round again from the top


def test_the_projector_says_the_series_progress_and_its_provisional_state_once(client):
    t = field(12, standings_public=True, rounds_per_series=2)
    Game.objects.filter(table__series__tournament=t, number__gt=4).delete()  # one round of two: 4 deals of 8 left
    html = live(client, t)
    assert "Series 1: 0 of 3 tables finished · 3 playing · 12 deals left" in html
    assert html.count("Provisional") == 1 and "provisional (unconfirmed" not in html


def test_the_projector_pace_is_chosen_in_the_address(client):
    t = field(12, standings_public=True)
    assert 'data-seconds="12"' in live(client, t)
    assert 'data-seconds="8"' in live(client, t, seconds="8")
    assert 'data-seconds="3"' in live(client, t, seconds="1")  # the quickest pace
    assert 'data-seconds="12"' in live(client, t, seconds="fast")


def test_the_projector_turns_through_the_teams_too(client):
    t = field(16, standings_public=True)
    team = t.teams.create(name="Kreuz Bube")
    Registration.objects.filter(tournament=t, start_number__lte=4).update(team=team)
    html = live(client, t, view="teams")
    assert "team standings" in html and "Kreuz Bube" in html and "No.</th>" not in html


def test_the_projector_turns_only_while_the_standings_are_public_even_for_its_director(client):
    """The director may open the projector page to look before publishing; its turns ask
    for the next page as the hall sees it, so withdrawn standings leave the screen even in
    the director's logged-in browser (static/js/projector.js shows "not public" on 404)."""
    director = factories.user("boss")
    client.force_login(director)
    t = field(12, director=director, standings_public=False)
    url = reverse("public:live", args=[t.pk])
    page = client.get(url).content.decode()
    # The page says it is a preview and keeps its page (data-preview: no blanking).
    assert "data-preview" in page and "the standings are not published" in page
    assert client.get(url, {"part": "board", "page": "1"}).status_code == 404
    standings_page = client.get(reverse("director:standings", args=[t.pk])).content.decode()
    assert "Not published: only the tournament" in standings_page and "(not published)" in standings_page
    Tournament.objects.filter(pk=t.pk).update(standings_public=True)
    assert client.get(url, {"part": "board", "page": "1"}).status_code == 200
    assert "data-preview" not in client.get(url).content.decode()
    standings_page = client.get(reverse("director:standings", args=[t.pk])).content.decode()
    assert "Not published" not in standings_page and "(not published)" not in standings_page


# --- in play: the public pages lag behind a few seconds----------------------------------------


def test_the_public_pages_follow_the_results_within_the_settling_time(client, director, settings):
    """Many changes a second in play: the public page is computed once per settling time,
    with the ETag of what it shows; the director's page shows every change at once."""
    settings.STANDINGS_SETTLE_SECONDS = 3600
    t = field(12, director, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    first = client.get(url)
    rename(t, 1, "Neu Benannt")
    settled = client.get(url)
    assert "Neu Benannt" not in settled.content.decode() and settled["ETag"] == first["ETag"]
    assert "Neu Benannt" in get(client, t).content.decode()  # the director's standings
    settings.STANDINGS_SETTLE_SECONDS = 0
    assert "Neu Benannt" in client.get(url).content.decode()


def test_the_directors_csv_shows_every_change_at_once_like_his_page(client, director, settings):
    """The director's standings link the CSV: it lists what his page shows, not the settled list."""
    settings.STANDINGS_SETTLE_SECONDS = 3600
    t = field(12, director, standings_public=True)
    url = reverse("public:standings_csv", args=[t.pk])
    client.get(reverse("public:standings", args=[t.pk]))  # a public page settles on the mark
    rename(t, 1, "Neu Benannt")
    assert "Neu Benannt" in get(client, t).content.decode()
    assert "Neu Benannt" in client.get(url).content.decode("utf-8-sig")


def shown_mark(tournament, mark, now: float):
    """The mark a public page shows at ``now`` (standings.cache.public_mark), its move finished
    as the page's request finishes it (standings.cache.conditional)."""
    from standings.cache import public_mark

    shown, move = public_mark(tournament, mark, now)
    if move is not None:
        move.done()
    return shown


def test_the_public_mark_is_the_one_shown_until_the_time_is_up(settings):
    from standings.cache import Mark

    settings.STANDINGS_SETTLE_SECONDS = 5
    t = factories.tournament()
    one, two, three = Mark(1, None), Mark(2, None), Mark(3, None)
    assert shown_mark(t, one, now=1000.0) == one
    assert shown_mark(t, two, now=1004.0) == one  # 4 s later: still the one shown
    assert shown_mark(t, two, now=1005.5) == two  # the time is up: the new one
    assert shown_mark(t, three, now=1006.0) == two
    assert shown_mark(factories.tournament(), three, now=1006.0) == three  # each tournament its own


def test_a_slow_page_keeps_its_mark_longer(settings):
    """The window is ten times what the last move's page took (at 9,000 players in a
    loaded hall 1-2 s): that computation keeps a tenth of a core at most; never less than
    STANDINGS_SETTLE_SECONDS, never more than LAG_LONGEST."""
    from standings.cache import LAG_FACTOR, LAG_LONGEST, Mark, lag_seconds, public_mark

    settings.STANDINGS_SETTLE_SECONDS = 5
    assert lag_seconds(0.1) == 5 and lag_seconds(2.0) == 2.0 * LAG_FACTOR == 20
    assert lag_seconds(3600.0) == LAG_LONGEST
    t = factories.tournament()
    one, two = Mark(1, None), Mark(2, None)
    shown, move = public_mark(t, one, now=1000.0)
    assert shown == one
    move.done(cost=2.0)  # the first page of mark one took 2 s
    assert public_mark(t, two, now=1015.0) == (one, None)  # 15 s: past 5 s, not past 20 s
    shown, move = public_mark(t, two, now=1020.5)
    assert shown == two and move is not None


def test_one_request_moves_the_public_pages_and_the_others_keep_the_mark_before(settings):
    """The new mark's first page takes a second or two: meanwhile every other request, in
    any serving process, shows the mark before (its pages are in the cache) instead of
    waiting for the new page or computing it a second time."""
    from standings.cache import Mark, public_mark, shown_now

    settings.STANDINGS_SETTLE_SECONDS = 5
    t = factories.tournament()
    one, two = Mark(1, None), Mark(2, None)
    public_mark(t, one, now=1000.0)[1].done(cost=0.1)
    shown, move = public_mark(t, two, now=1010.0)
    assert shown == two and move is not None  # this request computes mark two
    assert public_mark(t, two, now=1010.5) == (one, None)  # the crowd meanwhile
    move.done(cost=1.5)
    assert shown_now(t).mark == two and shown_now(t).cost == 1.5 and shown_now(t).since == 1010.0
    assert public_mark(t, two, now=1011.0) == (two, None)
    public_mark(t, Mark(3, None), now=1030.0)[1].failed()  # an error: the next request moves instead
    assert public_mark(t, Mark(3, None), now=1030.1)[0] == Mark(3, None)


def test_the_crowd_gets_the_page_and_etag_of_the_mark_before_while_the_new_one_is_computed(client, settings):
    """A request while another process computes the new mark's page: the page shown so
    far, with its own ETag (a browser is never told "unchanged" about the newer mark)."""
    from standings.cache import _move_key, _shown_key, shown_now, store
    from standings.claims import claim, release

    settings.STANDINGS_SETTLE_SECONDS = 5
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    first = client.get(url)
    before = shown_now(t)
    assert before is not None and before.cost > 0  # the page that moved the pages took its time
    rename(t, 1, "Neu Benannt")
    store(_shown_key(t), (before.mark.version, before.mark.changed_at, before.since - 3600, before.cost))
    assert claim(_move_key(t), 60)  # another process is computing the new mark's page
    meanwhile = client.get(url)
    assert "Neu Benannt" not in meanwhile.content.decode() and meanwhile["ETag"] == first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    release(_move_key(t))  # that process died before showing it: this request moves
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and "Neu Benannt" in moved.content.decode()
    assert moved["ETag"] != first["ETag"] and shown_now(t).mark.version > before.mark.version


def test_a_page_that_fails_leaves_the_move_to_the_next_request(client, settings, monkeypatch):
    """An error in the request that was moving the public pages gives its claim back: the
    next request moves them (not a minute of the mark before)."""
    from standings import views
    from standings.cache import shown_now

    settings.STANDINGS_SETTLE_SECONDS = 5
    t = field(12, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    standings_of = views._standings

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "_standings", broken)
    with pytest.raises(RuntimeError):
        client.get(url)
    assert shown_now(t) is None
    monkeypatch.setattr(views, "_standings", standings_of)
    assert client.get(url).status_code == 200 and shown_now(t) is not None


def test_a_visitors_own_parameters_never_reach_another_visitors_page(client):
    """A page of the list is rendered once and kept: what one visitor added to the address
    (its links and headings keep every parameter) must not be served to the next."""
    t = field(120, standings_public=True)
    url = reverse("public:standings", args=[t.pk])
    client.get(url, {"page": "2", "from": "evil.example"})
    assert "evil.example" not in client.get(url, {"page": "2"}).content.decode()
