"""The deal lines validate their constraints as Django does, without building the checks that
name a field left out (scoring.models.constraints): the same refusals, and the rules those
checks carry still refuse a deal entered at the table, with the rule's message."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import models

from scoring.forms import GameForm
from scoring.models import ControlEntry, Game
from tests import factories

pytestmark = pytest.mark.django_db

HEARTS = {"number": "2", "declarer_seat": "1", "contract": "hearts", "tops_kind": "with", "tops": "2"}


def refusal(check, *args) -> str | None:
    """The message dict of a validation, or None where it passes."""
    try:
        check(*args)
    except ValidationError as error:
        return str(error.message_dict)
    return None


def line(model, table, **fields):
    values = {"table": table, "number": 1, "dealer_seat": 1, "declarer_seat": 2, "contract": "hearts"} | fields
    return model(**values)


#: Lines that break a check constraint (passed out with a declarer, won and lost, deal 0), and one that breaks none.
BROKEN = {
    "passed-with-declarer": {"passed_out": True},
    "declared-without-declarer": {"declarer_seat": None},
    "won-and-lost": {"won": True, "lost": True},
    "deal-0": {"number": 0},
    "sound": {},
}
#: Fields left out as the table link's form leaves them out, and as other forms might.
LEFT_OUT = {
    "none": set(),
    "the-forms": {field.name for field in Game._meta.fields} - set(GameForm._meta.fields),
    "score-only": {"score"},
    "number-only": {"number"},
    "won-only": {"won"},
}


@pytest.mark.parametrize("model", [Game, ControlEntry])
@pytest.mark.parametrize("left_out", LEFT_OUT.values(), ids=LEFT_OUT.keys())
@pytest.mark.parametrize("broken", BROKEN.values(), ids=BROKEN.keys())
def test_the_same_refusals_as_djangos_own_validation(model, left_out, broken):
    table = factories.table_of(4)
    instance = line(model, table, **broken)
    ours = refusal(instance.validate_constraints, left_out)
    djangos = refusal(models.Model.validate_constraints, instance, left_out)
    assert ours == djangos
    # The second list has no "not won and lost" check (the sheet's referee fields).
    forbidden = broken and not (model is ControlEntry and "won" in broken)
    if not left_out and forbidden:  # and the check is made: a line its model forbids is refused
        assert ours is not None


def test_the_forms_fields_leave_every_check_constraint_to_the_rules_and_the_database():
    """What the form validates skips each check: each names a field the form leaves out."""
    left_out = LEFT_OUT["the-forms"]
    for model in (Game, ControlEntry):
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.CheckConstraint):
                assert models.Q(constraint.condition).referenced_base_fields & left_out, constraint.name


@pytest.mark.parametrize(
    ("posted", "field", "message"),
    [
        ({"declarer_seat": ""}, "declarer_seat", "5.5.1: choose the declarer, or mark the deal passed out"),
        ({"number": "0"}, "number", "greater than or equal to 1"),
    ],
    ids=["declared-without-declarer", "deal-0"],
)
def test_the_rules_of_the_checks_still_refuse_a_deal_with_their_message(posted, field, message):
    table = factories.table_of(4)
    form = GameForm(HEARTS | {"declarer_points": "80"} | posted, table=table, players={1: "A", 3: "C", 4: "D"})
    assert not form.is_valid()
    assert any(message in error for error in form.errors[field])


def test_a_deal_passed_out_keeps_no_declarer():
    """Passed out with a declarer typed: the engine clears the declarer (5.5.1), as the check requires."""
    table = factories.table_of(4)
    form = GameForm(HEARTS | {"passed_out": "on"}, table=table, players={1: "A", 3: "C", 4: "D"})
    assert form.is_valid(), form.errors
    assert form.instance.passed_out and form.instance.declarer_seat is None and form.instance.score == 0
