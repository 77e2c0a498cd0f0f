"""The hook map (docs/pages/developers/hooks.md) lists exactly the hooks the office declares,
where each is declared and the function that fills it, as the running office has them."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from tests.test_layers import module_files
from tournaments.hooks import DECLARED, Hook

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "pages" / "developers" / "hooks.md"
ROW = re.compile(r"^\|\s*`([\w.]+)`\s*\|\s*`([\w.]+)`\s*\|[^|]*\|\s*`([\w.]+)`\s*\|[^|]*\|\s*$")


def declaring_modules(modules: dict[str, Path]) -> dict[str, set[str]]:
    """{module: the names of the hooks it declares}, read from the source (``Hook("name", ...)``)."""
    found: dict[str, set[str]] = {}
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Hook"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.setdefault(module, set()).add(node.args[0].value)
    return found


def live_hooks(hooks: list[Hook]) -> set[tuple[str, str, str | None]]:
    """(hook, declared in, filled by) of the office's hooks (not those a test makes up)."""
    return {(h.name, h.declared_in, h.filled_by) for h in hooks if h.declared_in.split(".")[0] != "tests"}


def mapped_hooks(text: str) -> list[tuple[str, str, str]]:
    """(hook, declared in, filled by) of each row of the page's table."""
    return [match.groups() for line in text.splitlines() if (match := ROW.match(line))]


def test_the_hook_map_lists_every_hook_and_who_fills_it():
    declared = declaring_modules(module_files())
    for module in declared:  # a hook's module may not be imported at start-up: the map holds it all the same
        importlib.import_module(module)
    live = live_hooks(DECLARED)
    assert {name for names in declared.values() for name in names} == {name for name, _, _ in live}
    assert {(name, module) for module, names in declared.items() for name in names} == {(n, m) for n, m, _ in live}
    assert all(filler is not None for _, _, filler in live), "a hook no app fills: give it its row as unfilled"

    rows = mapped_hooks(PAGE.read_text(encoding="utf-8"))
    assert len(rows) == len(set(rows)), "a hook listed twice"
    assert set(rows) - live == set(), "rows for hooks the office does not have (or filled by another function)"
    assert live - set(rows) == set(), "hooks the map does not list: add a row to docs/pages/developers/hooks.md"
    assert len(live) >= 19  # the scan sees them all: tournaments', scoring's, referees', the leagues'


# The checks themselves, on a made-up hook and made-up rows.


def test_a_hook_knows_where_it_is_declared_and_who_fills_it():
    hook = Hook("test.made_up", lambda: 0)
    assert (hook.declared_in, hook.filled_by) == (__name__, None)
    hook.fill(mapped_hooks)
    assert hook.filled_by == "tests.test_hooks_map.mapped_hooks"
    assert live_hooks([hook]) == set()  # a test's hook is not the office's


def test_the_rows_are_read_from_the_table_and_nothing_else():
    text = (
        "| hook | declared in | what it asks | filled by | what it answers |\n"
        "| --- | --- | --- | --- | --- |\n"
        "| `a.asks` | `a.hooks` | whether | `b.views.answer` | yes, `by default` no |\n"
        "Prose naming `a.other` | `x.y` is no row.\n"
    )
    assert mapped_hooks(text) == [("a.asks", "a.hooks", "b.views.answer")]


def test_the_scan_finds_a_declaration(tmp_path):
    source = tmp_path / "hooks.py"
    source.write_text('from tournaments.hooks import Hook\nasks = Hook("made.asks", lambda: None)\nHook.x = 1\n')
    assert declaring_modules({"made.hooks": source}) == {"made.hooks": {"made.asks"}}
