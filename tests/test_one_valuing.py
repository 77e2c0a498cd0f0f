"""One place values a deal: no module of the office values a deal or writes a deal's
derived fields around it.

What this protects: every stored deal carries the engine's value, score and won/lost,
because every write goes through :meth:`scoring.models.ScoresheetLine.save` (it values the deal)
or :mod:`scoring.services` (bulk inserts and versioned updates, valued first, under the
table's lock). A new write path that stores a game nobody valued (a ``bulk_create`` of
games, a queryset ``update(score=...)``, its own call of the engine) fails here, named
by file and line. The office's code is parsed like ``tests/test_layers.py`` parses it;
tests and migrations are not scanned (a test may write a row around ``save()`` on
purpose, to see a database constraint).

It finds, outside :data:`THE_PLACE`:

* a call of ``apply_rules`` (the model's valuation) or of the engine's ``evaluate``;
* ``bulk_create`` or ``bulk_update`` on a deal's model or a table's deals
  (``Game.objects``, ``table.games``, a ``model`` of the deal lists);
* ``update()`` of a queryset that sets a derived field (``score=...``), or of the deals
  that sets what the valuing reads (``voided``, ``declarer_points``) or spreads ``**``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scoring.models import Game, ScoresheetLine
from tests.test_layers import PACKAGES, ROOT

#: The one place: the model's save() and its valuation, and the service beside it.
THE_PLACE = {"scoring/models/deals.py", "scoring/services.py"}
#: What names a deal's table or list in a query chain.
DEAL_NAMES = {"Game", "ControlEntry", "ConflictingEntry", "games", "control_entries", "conflicting_entries"}
#: A variable the deal lists are written through (scoring.entry: ``model = type(game)``).
DEAL_VARIABLES = {"model"}
COMPUTED = set(ScoresheetLine.COMPUTED_FIELDS)
#: What the valuing reads or writes: a change of any of these needs the engine again.
VALUED = set(Game.VALUED_FIELDS) | {"voided"}


def _chain(node: ast.AST) -> tuple[str, set[str]]:
    """The name a call's receiver starts from and the attributes it is built of
    (``Game.objects.filter(...)``: "Game", {"objects", "filter"})."""
    names: set[str] = set()
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return (node.id if isinstance(node, ast.Name) else ""), names


def _about_deals(node: ast.AST, names: set[str]) -> bool:
    """Whether an expression is built from the deals (``Game.objects.filter(...)``,
    ``table.games``) or from a variable that holds them (``names``)."""
    root, receiver = _chain(node)
    return root in names or bool(receiver & DEAL_NAMES)


def _deal_variables(tree: ast.AST) -> set[str]:
    """The names a module binds to the deals, besides :data:`DEAL_NAMES`: a queryset kept
    in a variable (``updated = model.objects.filter(pk=pk, version=v)``, then
    ``updated.update(**values)``, as the table's correction once wrote it) is the deals too."""
    names = DEAL_NAMES | DEAL_VARIABLES
    while True:
        bound = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign | ast.AnnAssign)
            and node.value is not None
            and _about_deals(node.value, names)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)
        }
        if bound <= names:
            return names
        names = names | bound


def valuing_outside(source: str) -> list[str]:
    """Where ``source`` values a deal or writes its derived fields itself ("line 12: ...")."""
    found = []
    tree = ast.parse(source)
    deal_names = _deal_variables(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "skat.rules"
            and any(alias.name == "evaluate" for alias in node.names)
        ):
            found.append(f"line {node.lineno}: imports the engine's valuation (evaluate)")
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name, (root, receiver) = node.func.attr, _chain(node.func.value)
        keywords = {k.arg for k in node.keywords}
        about_deals = root in deal_names or bool(receiver & DEAL_NAMES)
        if name == "apply_rules":
            found.append(f"line {node.lineno}: values a deal itself (apply_rules)")
        elif name == "evaluate" and "rules" in {root, *receiver}:
            found.append(f"line {node.lineno}: values a game itself (rules.evaluate)")
        elif name in {"bulk_create", "bulk_update"} and about_deals:
            found.append(f"line {node.lineno}: {name} of deals, around ScoresheetLine.save")
        elif name == "update" and (keywords & COMPUTED or (about_deals and (keywords & VALUED or None in keywords))):
            found.append(f"line {node.lineno}: update() of a deal's derived fields, around ScoresheetLine.save")
    return found


def _office_modules() -> list[Path]:
    return [
        path
        for package in PACKAGES
        if package != "skat"  # the engine: it is the valuation
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and "tests" not in path.parts
    ]


def test_no_module_values_or_writes_a_deal_around_the_one_place():
    found = {}
    for path in _office_modules():
        where = path.relative_to(ROOT).as_posix()
        if where not in THE_PLACE and (lines := valuing_outside(path.read_text(encoding="utf-8"))):
            found[where] = lines
    assert found == {}, "store deals through ScoresheetLine.save or scoring.services, which value them with the engine"


def test_the_one_place_is_where_the_test_says():
    """The scan would pass on nothing if the service moved away: it must find its own calls there."""
    for where in sorted(THE_PLACE):
        assert valuing_outside((ROOT / where).read_text(encoding="utf-8")), f"{where} values nothing: update THE_PLACE"


@pytest.mark.parametrize(
    "source",
    [
        "game.apply_rules(3)",
        "rules.evaluate(game)",
        "from skat.rules import evaluate",
        "Game.objects.bulk_create(games)",
        "table.games.bulk_update(games, ['score'])",
        "model.objects.bulk_create(rows, batch_size=9)",
        "Game.objects.filter(table=t).update(score=0)",
        "anything.filter(pk=1).update(won=True)",
        "Game.objects.filter(pk=1).update(voided=True)",
        "table.games.filter(number=2).update(**values)",
        # A queryset of deals kept in a variable first (the table's correction once did).
        "updated = model.objects.filter(pk=1, version=2)\nupdated.update(**values, version=3)",
        "stale: QuerySet = table.control_entries.all()\nrows = stale.filter(number=4)\nrows.update(bid=18)",
    ],
)
def test_the_scan_sees_each_way_around(source):
    assert valuing_outside(source), source


@pytest.mark.parametrize(
    "source",
    [
        "services.create_deals(games)",
        "game.save()",
        "Series.objects.filter(pk=1).update(status='running')",
        "Seat.objects.bulk_create(seats)",
        "Game.objects.filter(pk=1).update(entered_by='desk')",
        "totals.update(points)",
        "rows.model.objects.bulk_create(copies)",
        "stored = Game.objects.get(pk=1)\nseries = Series.objects.filter(pk=1)\nseries.update(status='running')",
    ],
)
def test_the_scan_leaves_other_writes_alone(source):
    assert valuing_outside(source) == [], source
