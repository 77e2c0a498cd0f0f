"""The ranking's pages, each read as a spec: who sees what, what a form changes, what a
bad input answers (a message naming the field, nothing changed)."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from rankings import people, services
from rankings.models import PersonDecision, PlacePoints, Ranking, RankingLine, RankingTournament
from tests import factories
from tests.rankings.helpers import WIN, evening
from transfer.exports.writers import league_xlsx

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    user = factories.user("chair")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def ranked(director):
    """A ranking of two evenings: Anna 196 + 0, Bert 98 + 294 (4 players, women a category)."""
    a, b, c, d = (factories.player(n, club="SC Herz") for n in ("Anna Alt", "Bert Bau", "Carl Cis", "Dora Dix"))
    women = {a: "Damen", d: "Damen"}
    ranking = Ranking.objects.create(name="Jahreswertung", season="2027")
    ranking.directors.add(director)
    for day, wins in ((5, {a: 2, b: 1, c: 0, d: 0}), (12, {a: 0, b: 3, c: 0, d: 0})):
        t = evening(f"Evening {day}", datetime.date(2027, 1, day), wins, directors=[director], categories=women)
        services.add_tournament(ranking, t, director)
    return ranking


def logged_in(client, user):
    client.force_login(user)
    return client


def test_the_list_shows_the_users_rankings_and_the_way_to_a_new_one(client, director, ranked):
    other = Ranking.objects.create(name="Someone else's cup")
    page = logged_in(client, director).get(reverse("rankings:list")).content.decode()
    assert "Jahreswertung 2027" in page and other.name not in page and reverse("rankings:new") in page


def test_a_new_ranking_is_set_up_with_its_rules_and_its_director(client, director):
    data = {"name": "Cup Nord", "season": "2027", "counts": "place_points", "unit": "tournament"}
    data |= {"aggregate": "sum", "best": "3", "planned": "5", "minimum": "2", "penalty": "0", "tie_break_1": "best"}
    data |= {"points-TOTAL_FORMS": "2", "points-INITIAL_FORMS": "0", "points-MIN_NUM_FORMS": "0"}
    data |= {"points-MAX_NUM_FORMS": "500", "points-0-place": "1", "points-0-points": "25"}
    data |= {"points-1-place": "2", "points-1-points": "20"}
    response = logged_in(client, director).post(reverse("rankings:new"), data)
    ranking = Ranking.objects.get(name="Cup Nord")
    assert response.status_code == 302 and ranking.directors.get() == director
    assert ranking.rules().place_points == (25, 20) and ranking.rules().best == 3


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"best": "8", "planned": "5"}, "best", "best 8 of 5 cannot be counted"),
        ({"penalty": "-5"}, "penalty", "must not be negative"),
        ({"counts": "place_points"}, "counts", "points per place need at least the first place"),
    ],
)
def test_rules_that_cannot_be_computed_are_refused_naming_the_field(client, director, ranked, changes, field, words):
    data = {"name": "Jahreswertung", "season": "2027", "counts": "rating", "unit": "tournament", "aggregate": "sum"}
    data |= {"minimum": "0", "penalty": "0", "points-TOTAL_FORMS": "0", "points-INITIAL_FORMS": "0"}
    data |= {"points-MIN_NUM_FORMS": "0", "points-MAX_NUM_FORMS": "500"} | changes
    response = logged_in(client, director).post(reverse("rankings:rules", args=[ranked.pk]), data)
    assert response.status_code == 422
    assert words in response.context["form"].errors[field][0]
    ranked.refresh_from_db()
    assert (ranked.best, ranked.penalty, ranked.counts) == (None, 0, "rating")


def test_the_ranking_page_is_a_page_of_stored_lines_searchable_and_per_category(
    client, director, ranked, django_assert_max_num_queries
):
    logged_in(client, director)
    with django_assert_max_num_queries(12):
        page = client.get(reverse("rankings:ranking", args=[ranked.pk])).content.decode()
    assert page.index("Bert Bau") < page.index("Anna Alt") < page.index("Carl Cis")
    assert f'<td class="num">{4 * WIN}</td>' in page
    found = client.get(reverse("rankings:ranking", args=[ranked.pk]), {"q": "dix"}).content.decode()
    assert "Dora Dix" in found and "Anna Alt" not in found
    women = client.get(reverse("rankings:ranking", args=[ranked.pk]), {"category": "Damen"}).content.decode()
    assert "Anna Alt" in women and "Bert Bau" not in women


def test_rules_page_shows_the_rules(client, director, ranked):
    response = logged_in(client, director).get(reverse("rankings:rules", args=[ranked.pk]))
    assert response.status_code == 200 and response.context["form"].instance == ranked


def test_the_tournaments_page_lists_them_with_the_forms(client, director, ranked, django_assert_max_num_queries):
    logged_in(client, director)
    with django_assert_max_num_queries(10):
        page = client.get(reverse("rankings:tournaments", args=[ranked.pk])).content.decode()
    assert page.index("Evening 12") < page.index("Evening 5") and "Add the tournament" in page


def test_adding_a_tournament_twice_is_explained(client, director, ranked):
    entry = RankingTournament.objects.filter(ranking=ranked).first()
    response = logged_in(client, director).post(
        reverse("rankings:add", args=[ranked.pk]), {"tournament": entry.tournament_id}, follow=True
    )
    assert "is in this ranking already" in response.content.decode()
    assert RankingTournament.objects.filter(ranking=ranked).count() == 2


def test_adding_a_tournament_reads_it(client, director, ranked):
    a = factories.player("Anna Alt", club="SC Herz")
    t = evening("Evening 19", datetime.date(2027, 1, 19), {a: 1, **{factories.player(): 0 for _ in range(3)}})
    t.directors.add(director)
    response = logged_in(client, director).post(reverse("rankings:add", args=[ranked.pk]), {"tournament": t.pk})
    assert response.status_code == 302 and RankingTournament.objects.filter(ranking=ranked).count() == 3


def test_a_tournament_the_user_does_not_direct_cannot_be_added(client, director, ranked):
    t = factories.tournament(name="Not mine")
    logged_in(client, director).post(reverse("rankings:add", args=[ranked.pk]), {"tournament": t.pk})
    assert not RankingTournament.objects.filter(tournament=t).exists()


def test_a_tournament_file_is_imported_and_added(client, director, ranked):
    source = RankingTournament.objects.filter(ranking=ranked).first().tournament
    out = io.BytesIO()
    league_xlsx(source, out)
    upload = SimpleUploadedFile("evening.xlsx", out.getvalue())
    response = logged_in(client, director).post(
        reverse("rankings:import", args=[ranked.pk]), {"file": upload}, follow=True
    )
    assert "is added: 4 players with a result" in response.content.decode()
    assert RankingTournament.objects.filter(ranking=ranked).count() == 3


def test_a_file_that_is_no_tournament_file_changes_nothing(client, director, ranked):
    upload = SimpleUploadedFile("evening.xlsx", b"not a workbook")
    response = logged_in(client, director).post(
        reverse("rankings:import", args=[ranked.pk]), {"file": upload}, follow=True
    )
    assert "Tournament file: nothing was imported" in response.content.decode()
    assert RankingTournament.objects.filter(ranking=ranked).count() == 2


def test_a_tournament_taken_out_no_longer_counts(client, director, ranked):
    entry = RankingTournament.objects.filter(ranking=ranked).last()
    logged_in(client, director).post(reverse("rankings:remove", args=[ranked.pk, entry.pk]))
    assert RankingLine.objects.get(ranking=ranked, category="", name="Bert Bau").value == str(WIN)


def test_reading_again_computes_the_ranking(client, director, ranked):
    RankingLine.objects.filter(ranking=ranked).delete()
    logged_in(client, director).post(reverse("rankings:refresh", args=[ranked.pk]))
    assert RankingLine.objects.filter(ranking=ranked, category="").count() == 4


def test_a_players_line_lists_every_result_counted_and_dropped(client, director, ranked):
    ranked.best = 1
    ranked.save()
    services.refresh(ranked)
    anna = RankingLine.objects.get(ranking=ranked, category="", name="Anna Alt")
    response = logged_in(client, director).get(reverse("rankings:player", args=[ranked.pk, anna.player_id]))
    assert [(r.tournament, r.value, r.counted) for r in response.context["results"]] == [
        ("Evening 5", 2 * WIN, True),
        ("Evening 12", 0, False),
    ]


def test_who_is_who_lists_the_doubtful_and_a_decision_merges(client, director, ranked):
    a2 = factories.player("Anna Alt", club="TuS Pik")
    t = evening("Evening 19", datetime.date(2027, 1, 19), {a2: 1, **{factories.player(): 0 for _ in range(3)}})
    services.add_tournament(ranked, t, director)
    a = RankingLine.objects.filter(ranking=ranked, name="Anna Alt").order_by("player_id").first().player
    page = logged_in(client, director).get(reverse("rankings:people", args=[ranked.pk]))
    assert [(d.player, d.other) for d in page.context["doubtful"]] == [(a, a2)]
    data = {"player": a.pk, "other": a2.pk, "same": "1", "reason": "changed clubs"}
    client.post(reverse("rankings:decide", args=[ranked.pk]), data)
    assert RankingLine.objects.filter(ranking=ranked, category="", name="Anna Alt").count() == 1


def test_a_decision_without_a_reason_is_refused(client, director, ranked):
    a, b = RankingLine.objects.filter(ranking=ranked, category="").values_list("player_id", flat=True)[:2]
    response = logged_in(client, director).post(
        reverse("rankings:decide", args=[ranked.pk]), {"player": a, "other": b, "same": "1"}, follow=True
    )
    assert "why: This field is required." in response.content.decode()
    assert not PersonDecision.objects.exists()


def test_a_record_from_another_tournament_is_refused_without_its_name(client, director, ranked):
    """Another director's unpublished tournament: its player's id reads like one that does not exist."""
    stranger = factories.player("Xaver Fremdling", club="SC Geheim")
    factories.tournament(name="Secret Open", directors=[factories.user("rival")]).registrations.create(player=stranger)
    a = RankingLine.objects.filter(ranking=ranked, category="").values_list("player_id", flat=True).first()
    answers = []
    for player, other in ((a, stranger.pk), (stranger.pk, a), (a, 999999)):
        data = {"player": player, "other": other, "same": "1", "reason": "same person", "back": "player"}
        response = logged_in(client, director).post(reverse("rankings:decide", args=[ranked.pk]), data, follow=True)
        page = response.content.decode()
        assert response.status_code == 200 and "Fremdling" not in page and "Xaver" not in page
        answers.append([str(m) for m in response.context["messages"]])
    refusal = "Player records: choose two records with a result in this ranking."
    assert answers[0] == answers[1] == answers[2] == [refusal]
    assert not PersonDecision.objects.exists()


def test_the_same_record_twice_is_refused_not_an_error(client, director, ranked):
    for pk in (999999, RankingLine.objects.filter(ranking=ranked).values_list("player_id", flat=True).first()):
        data = {"player": pk, "other": pk, "same": "1", "reason": "x"}
        response = logged_in(client, director).post(reverse("rankings:decide", args=[ranked.pk]), data, follow=True)
        assert response.status_code == 200
        assert [str(m) for m in response.context["messages"]] == ["Choose two different player records."]
    assert not PersonDecision.objects.exists()


def test_a_player_page_of_a_record_outside_the_ranking_is_not_found(client, director, ranked):
    stranger = factories.player("Xaver Fremdling", club="SC Geheim")
    response = logged_in(client, director).get(reverse("rankings:player", args=[ranked.pk, stranger.pk]))
    assert response.status_code == 404 and "Fremdling" not in response.content.decode()


def test_undo_keeps_the_decision_marked_undone(client, director, ranked):
    a2 = factories.player("Anna Alt", club="TuS Pik")
    services.add_tournament(
        ranked,
        evening("Evening 19", datetime.date(2027, 1, 19), {a2: 1, **{factories.player(): 0 for _ in range(3)}}),
        director,
    )
    a = RankingLine.objects.filter(ranking=ranked, name="Anna Alt").order_by("player_id").first().player
    decision = people.decide(ranked, a, a2, director, "one person", same=True)
    logged_in(client, director).post(reverse("rankings:undo", args=[ranked.pk, decision.pk]))
    decision.refresh_from_db()
    assert decision.undone_by == director


def test_the_files_csv_xlsx_and_pdf(client, director, ranked):
    logged_in(client, director)
    csv = client.get(reverse("rankings:file", args=[ranked.pk, "csv"]))
    assert csv.content.decode("utf-8-sig").splitlines()[1].split(";")[:4] == ["1", "Bert Bau", "SC Herz", str(4 * WIN)]
    xlsx = client.get(reverse("rankings:file", args=[ranked.pk, "xlsx"]), {"category": "Damen"})
    rows = list(load_workbook(io.BytesIO(xlsx.content)).active.iter_rows(values_only=True))
    assert rows[1][:2] == (1, "Anna Alt") and len(rows) == 3
    pdf = client.get(reverse("rankings:file", args=[ranked.pk, "pdf"]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert client.get(reverse("rankings:file", args=[ranked.pk, "doc"])).status_code == 404


def test_the_public_pages_show_a_published_ranking_only(client, ranked):
    assert client.get(reverse("public:ranking", args=[ranked.pk])).status_code == 404
    ranked.public = True
    ranked.save()
    assert ranked.name in client.get(reverse("public:rankings")).content.decode()
    page = client.get(reverse("public:ranking", args=[ranked.pk])).content.decode()
    assert "Bert Bau" in page and reverse("rankings:rules", args=[ranked.pk]) not in page
    bert = RankingLine.objects.get(ranking=ranked, category="", name="Bert Bau")
    assert client.get(reverse("public:ranking_player", args=[ranked.pk, bert.player_id])).status_code == 200
    assert client.get(reverse("public:ranking_file", args=[ranked.pk, "pdf"])).status_code == 200


def test_points_per_place_rows_with_a_place_twice_are_refused(client, director, ranked):
    data = {"name": "Jahreswertung", "counts": "place_points", "unit": "tournament", "aggregate": "sum"}
    data |= {"minimum": "0", "penalty": "0", "points-TOTAL_FORMS": "2", "points-INITIAL_FORMS": "0"}
    data |= {"points-MIN_NUM_FORMS": "0", "points-MAX_NUM_FORMS": "500", "points-0-place": "1", "points-0-points": "9"}
    data |= {"points-1-place": "1", "points-1-points": "5"}
    response = logged_in(client, director).post(reverse("rankings:rules", args=[ranked.pk]), data)
    assert response.status_code == 422 and not PlacePoints.objects.exists()


def test_rules_the_tournaments_cannot_take_are_refused_and_not_saved(client, director, ranked):
    """Two evenings are in the ranking: "of M planned" 1 cannot be."""
    data = {"name": "Jahreswertung", "counts": "rating", "unit": "tournament", "aggregate": "sum", "planned": "1"}
    data |= {"minimum": "0", "penalty": "0", "points-TOTAL_FORMS": "0", "points-INITIAL_FORMS": "0"}
    data |= {"points-MIN_NUM_FORMS": "0", "points-MAX_NUM_FORMS": "500"}
    response = logged_in(client, director).post(reverse("rankings:rules", args=[ranked.pk]), data)
    assert response.status_code == 422
    assert "“of M planned” cannot be computed: 2 results are held" in response.content.decode()
    ranked.refresh_from_db()
    assert ranked.planned is None and RankingLine.objects.filter(ranking=ranked).exists()


def test_the_files_figures_are_numbers_and_german_readers_get_german_files(client, director, ranked):
    """An average of -3.38 is the number -3.38: no apostrophe guard in the CSV, a number cell
    in the workbook; a German reader's CSV has German headers and the decimal comma."""
    first = RankingLine.objects.filter(ranking=ranked, category="").order_by("position").first()
    RankingLine.objects.filter(pk=first.pk).update(value="-3.38")
    logged_in(client, director)
    url = reverse("rankings:file", args=[ranked.pk, "csv"])
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig").splitlines()
    assert german[0].split(";")[:4] == ["Platz", "Name", "Verein", "Wert"]
    assert german[1].split(";")[3] == "-3,38"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode("utf-8-sig").splitlines()
    assert english[0].split(";")[3] == "Value" and english[1].split(";")[3] == "-3.38"
    xlsx = client.get(reverse("rankings:file", args=[ranked.pk, "xlsx"]), HTTP_ACCEPT_LANGUAGE="de")
    rows = list(load_workbook(io.BytesIO(xlsx.content)).active.iter_rows(values_only=True))
    assert rows[0][3] == "Wert" and rows[1][3] == -3.38 and isinstance(rows[2][3], int)
