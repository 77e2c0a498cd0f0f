"""The entry page's fast renderings equal the template markup they replace (the page stays the same)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django import forms
from django.template import Context, Template
from django.utils import translation

from scoring import tablesheet
from scoring.forms import BID_CHOICES, BidSelect
from scoring.models import Game
from tests import factories
from tournaments.demo import random_game

pytestmark = pytest.mark.django_db

#: The template loop rows_html replaced (templates/scoring/_sheet_table.html before), the reference.
REFERENCE_ROWS = Template((Path(__file__).parent / "data" / "sheet_rows_reference.html").read_text().strip())


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("language", ["en", "de"])
def test_sheet_rows_equal_the_template_loop(size, language):
    table = factories.table_of(size)
    rng = random.Random(size)
    games = []
    for number in range(1, 3 * size + 1):
        game = random_game(rng, number, size)
        game.table = table
        if number == 2:
            game.voided = True
        if number == 3:
            game.irregularity = "declarer"
        game.apply_rules(size)
        if number == 4 and not game.passed_out:
            game.overbid = True
        games.append(game)
    games.append(Game(table=table, number=len(games) + 1, passed_out=True, dealer_seat=1))
    assert any(g.passed_out for g in games) and any(g.lost for g in games) and any(g.won for g in games)
    sheet = tablesheet.build(size, table.deals, games)
    players = ["<Anna & Bob>", 'Bärbel "B"', "Carl", "Dora"][:size]
    with translation.override(language):
        expected = REFERENCE_ROWS.render(Context({"sheet": sheet, "players": players}))
        assert tablesheet.rows_html(sheet, players) == expected


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("value", [None, "", "18", 18, "19", "264", ["20", "22"]])
@pytest.mark.parametrize("attrs", [None, {"id": "id_bid"}, {"id": "id_bid", "aria-invalid": "true", "x": False}])
def test_the_bid_select_equals_djangos(language, value, attrs):
    with translation.override(language):
        ours = BidSelect(choices=BID_CHOICES).render("bid", value, attrs)
        django = forms.Select(choices=BID_CHOICES).render("bid", value, attrs)
    assert ours == django
