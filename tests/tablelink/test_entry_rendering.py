"""The entry page's fast renderings equal the template markup they replace (the page stays the same)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django import forms
from django.template import Context, Template
from django.utils import translation

from office.demo import random_game
from scoring import tablesheet
from scoring.forms import (
    BID_CHOICES,
    BidSelect,
    PlainCheckboxInput,
    PlainHiddenInput,
    PlainNumberInput,
    PlainRadioSelect,
)
from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db

#: The template loop rows_html replaced (templates/scoring/_sheet_table.html before), the reference.
REFERENCE_ROWS = Template((Path(__file__).parent / "data" / "sheet_rows_reference.html").read_text().strip())


@pytest.mark.parametrize("grouping", [False, True], ids=["plain", "thousand-separator"])
@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("language", ["en", "de"])
def test_sheet_rows_equal_the_template_loop(size, language, grouping, settings):
    settings.USE_THOUSAND_SEPARATOR = grouping
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
        if number in (2, 5):  # changed by a referee: marked, its reason the mark's title (escaped)
            game.correction_reason = 'Checked <both> "lists" & the cards'
        games.append(game)
    passed = Game(table=table, number=len(games) + 1, passed_out=True, dealer_seat=1)
    passed.correction_reason = "4.5.10: nobody bid"
    games.append(passed)
    if grouping:  # four-digit scores and totals, so the separator shows (1,234 / 1.234)
        for game in games:
            game.score *= 100
            game.value *= 100
    assert any(g.passed_out for g in games) and any(g.lost for g in games) and any(g.won for g in games)
    assert not hasattr(games[0], "correction_reason")  # not annotated: not marked
    sheet = tablesheet.build(size, table.deals, games)
    players = ["<Anna & Bob>", 'Bärbel "B"', "Carl", "Dora"][:size]
    with translation.override(language):
        expected = REFERENCE_ROWS.render(Context({"sheet": sheet, "players": players}))
        assert tablesheet.rows_html(sheet, players) == expected
    assert expected.count('title="Checked &lt;both&gt; &quot;lists&quot; &amp; the cards"') == 2
    assert 'title="4.5.10: nobody bid"' in expected
    if grouping:
        separator = "," if language == "en" else "."
        assert re.search(rf">[+-]?\d{{1,3}}\{separator}\d{{3}}<", expected)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("value", [None, "", "18", 18, "19", "264", ["20", "22"]])
@pytest.mark.parametrize("attrs", [None, {"id": "id_bid"}, {"id": "id_bid", "aria-invalid": "true", "x": False}])
def test_the_bid_select_equals_djangos(language, value, attrs):
    with translation.override(language):
        ours = BidSelect(choices=BID_CHOICES).render("bid", value, attrs)
        django = forms.Select(choices=BID_CHOICES).render("bid", value, attrs)
    assert ours == django


RADIO_CHOICES = {
    "contract": Game.CONTRACT_CHOICES,
    "seats": [(1, "<Anna & Bob>"), (2, 'Bärbel "B"'), (3, "Carl")],
    "grouped": [("Suit", [("clubs", "Clubs"), ("spades", "Spades")]), ("grand", "Grand")],
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("choices", sorted(RADIO_CHOICES))
@pytest.mark.parametrize("value", [None, "", "clubs", 2, "2", "grand", ["1", "3"]])
@pytest.mark.parametrize(
    "attrs",
    [
        None,
        {"id": "id_contract"},
        {"id": "id_x", "class": "row <b>", "required": True, "aria-invalid": "true", "x": False},
    ],
)
def test_the_radios_equal_djangos(language, choices, value, attrs):
    with translation.override(language):
        ours = PlainRadioSelect(choices=RADIO_CHOICES[choices]).render("contract", value, attrs)
        django = forms.RadioSelect(choices=RADIO_CHOICES[choices]).render("contract", value, attrs)
    assert ours == django


@pytest.mark.parametrize(
    ("ours", "djangos"),
    [
        (PlainNumberInput, forms.NumberInput),
        (PlainHiddenInput, forms.HiddenInput),
        (PlainCheckboxInput, forms.CheckboxInput),
    ],
)
@pytest.mark.parametrize("value", [None, "", 0, 7, "12", True, False, '"<x>"'])
@pytest.mark.parametrize(
    "attrs", [None, {"id": "id_tops", "min": 1, "max": 11, "inputmode": "numeric", "required": True, "x": False}]
)
def test_the_plain_inputs_equal_djangos(ours, djangos, value, attrs):
    assert ours().render("tops", value, attrs) == djangos().render("tops", value, attrs)


def test_every_field_of_the_entry_form_renders_as_django_would():
    table = factories.table_of(4)
    from scoring.forms import GameForm

    form = GameForm(table=table, players={2: "Bärbel", 3: "<Carl>", 4: "Dora"}, initial={"number": 1})
    djangos = {
        PlainRadioSelect: forms.RadioSelect,
        PlainNumberInput: forms.NumberInput,
        PlainHiddenInput: forms.HiddenInput,
        PlainCheckboxInput: forms.CheckboxInput,
        BidSelect: forms.Select,
    }
    for field in form:
        widget = field.field.widget
        assert type(widget) in djangos, f"{field.name}: {type(widget).__name__} renders through templates"
        plain = djangos[type(widget)](attrs=widget.attrs)
        plain.choices = getattr(widget, "choices", [])
        assert str(field) == field.as_widget(widget=plain), field.name
