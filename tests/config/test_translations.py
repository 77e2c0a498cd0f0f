"""German: the catalogue is complete and the pages speak it."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tests import factories

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"


def test_every_message_has_a_german_translation():
    catalogue = polib.pofile(str(CATALOGUE))
    assert len(catalogue) > 200
    # A plural entry (ngettext) has its translations in msgstr_plural, one per form.
    untranslated = [
        e.msgid
        for e in catalogue
        if not e.obsolete and not (e.msgstr_plural and all(e.msgstr_plural.values()) if e.msgid_plural else e.msgstr)
    ]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert untranslated == [] and fuzzy == []


def test_every_message_is_in_the_catalogue_once():
    """GNU msgfmt refuses a catalogue with a message twice (two branches appending the
    same msgid); polib and compiletranslations would silently keep the last one."""
    catalogue = polib.pofile(str(CATALOGUE))
    keys = [(e.msgctxt, e.msgid) for e in catalogue if not e.obsolete]
    assert sorted({k for k in keys if keys.count(k) > 1}, key=str) == []


def _german(entry) -> list[str]:
    return [entry.msgstr, *entry.msgstr_plural.values()]


def test_the_office_says_sie_to_everyone():
    """The house style at the catalogue's top: "Sie" to directors, referees, players and
    scorekeepers alike, never "du"."""
    # A word of its own: "--data-dir" is an option, not "dir".
    du = re.compile(r"(?<![-\w])(du|dein\w*|dich|dir|hast|bist|kannst|musst|leitest)(?![-\w])", re.IGNORECASE)
    found = [text for e in polib.pofile(str(CATALOGUE)) for text in _german(e) if du.search(text)]
    assert found == []


def test_a_hint_is_a_hinweis_and_a_count_has_its_plural():
    found = [
        text
        for e in polib.pofile(str(CATALOGUE))
        for text in _german(e)
        if re.search(r"\bTipps?\b|\w\((e|en|n)\)", text)
    ]
    assert found == []


def test_the_german_help_keeps_the_same_style():
    """The help's German pages (docs/pages/**/*.de.md) as the catalogue: "Sie", no "Tipp"."""
    pages = sorted((Path(settings.BASE_DIR) / "docs" / "pages").rglob("*.de.md"))
    assert pages
    style = re.compile(r"\b(du|dein\w*|dich|Tipps?)\b")
    found = [(page.name, m.group()) for page in pages for m in style.finditer(page.read_text(encoding="utf-8"))]
    assert found == []


def test_placeholders_survive_translation():
    import re

    for entry in polib.pofile(str(CATALOGUE)):
        for pattern in (r"%\((\w+)\)s", r"\{(\w+)\}"):  # Django's and the rules engine's templates
            names = sorted(re.findall(pattern, entry.msgid))
            if not entry.msgid_plural:
                assert sorted(re.findall(pattern, entry.msgstr)) == names, entry.msgid
                continue
            # A plural: the singular may leave the count out ("Each player's best series
            # counts."); every form uses only names the English has, the last form all of
            # the plural's.
            plural = sorted(re.findall(pattern, entry.msgid_plural))
            forms = [entry.msgstr_plural[key] for key in sorted(entry.msgstr_plural)]
            for form in forms:
                assert set(re.findall(pattern, form)) <= set(names) | set(plural), entry.msgid
            assert sorted(set(re.findall(pattern, forms[-1]))) == sorted(set(plural)), entry.msgid_plural


@pytest.mark.django_db
def test_the_table_page_in_german(client):
    call_command("compiletranslations")
    table = factories.table_of(4)
    page = client.get(reverse("table:sheet", args=[table.token]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    words = ("Spiel 1", "Alleinspieler", "Eingepasst", "Spitzen", "Spiel eintragen", "Seat1 gibt", "setzt aus")
    # The phone's own texts, for the deals waiting on it (static/js/entry.js).
    for word in (*words, "wartet auf das Senden · wird beim Senden bewertet", "Spiel %(number)s"):
        assert word in page
    assert "Enter deal" not in page


@pytest.mark.django_db
def test_the_language_switch_sets_german(client):
    call_command("compiletranslations")
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert "Skat-Turnierbüro" in client.get("/").content.decode()


@pytest.mark.django_db
def test_rule_messages_from_the_engine_are_german_too(client):
    call_command("compiletranslations")
    table = factories.table_of(3)
    data = {
        "number": 1,
        "declarer_seat": 1,
        "contract": "grand",
        "tops": 5,
        "tops_kind": "with",
        "declarer_points": 70,
    }
    page = client.post(reverse("table:sheet", args=[table.token]), data, HTTP_ACCEPT_LANGUAGE="de")
    assert "2.4.3: ein Grand hat höchstens 4 Spitzen, nicht 5" in page.content.decode()
    data = {"number": 1, "declarer_seat": 1, "contract": "null", "ouvert": "on", "declarer_tricks": 0, "bid": 50}
    page = client.post(reverse("table:sheet", args=[table.token]), data, HTTP_ACCEPT_LANGUAGE="de")
    assert "3.4.4: Null ouvert ist 46 wert und erreicht den Reizwert 50 nicht" in page.content.decode()


def test_a_translation_with_broken_placeholders_falls_back_to_english(monkeypatch):
    from core import rule_messages as messages
    from skat.rules import RuleError

    monkeypatch.setattr(messages, "gettext", lambda text: "kaputt {nope}" if "{" in text else text)
    error = RuleError("tops", "a {kind} has at most {most} tops, not {tops}", "2.4.3", kind="grand", most=4, tops=5)
    assert messages.rule_message(error) == "2.4.3: a grand has at most 4 tops, not 5"


def test_every_engine_message_is_in_the_catalogue():
    """Every template the engine marks (gettext_noop), rating, sheet and settlement included."""
    import ast

    catalogue = {entry.msgid for entry in polib.pofile(str(CATALOGUE)) if not entry.obsolete}
    marked = []
    for path in sorted((Path(settings.BASE_DIR) / "skat").glob("*.py")):
        module = path.stem
        tree = ast.parse(path.read_text(encoding="utf-8"))
        marked += [
            (module, node.args[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "gettext_noop"
            and isinstance(node.args[0], ast.Constant)
        ]
    assert {"rating", "sheet", "settlement"} <= {module for module, _text in marked}
    assert [(module, text) for module, text in marked if text not in catalogue] == []


#: The calls that mark a message for translation, by name (``_`` is gettext or gettext_lazy).
MARKERS = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy"}
#: Template tags with a literal message: {% translate "..." %}, optionally with a context.
TRANSLATE_TAG = re.compile(r"""{%\s*(?:translate|trans)\s+(["'])((?:(?!\1).)*)\1(?:\s+context\s+["']([^"']*)["'])?""")


def _marked_in_code() -> list[tuple[str, str | None, str]]:
    """(where, context, message) for every literal message the office's Python code marks."""
    import ast

    found = []
    root = Path(settings.BASE_DIR)
    for path in sorted(root.glob("*/**/*.py")):
        parts = path.relative_to(root).parts
        if parts[0] in {".venv", "tests", "staticfiles"} or "migrations" in parts or parts[0].startswith("."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None) and (getattr(node.func, "id", None) or getattr(node.func, "attr", None))
            if not isinstance(node, ast.Call) or name not in MARKERS or not node.args:
                continue
            texts = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name.startswith("p") and len(texts) == 2:
                found.append((f"{path.relative_to(root)}:{node.lineno}", texts[0], texts[1]))
            elif not name.startswith("p") and texts:
                found.append((f"{path.relative_to(root)}:{node.lineno}", None, texts[0]))
    return found


def _marked_in_templates() -> list[tuple[str, str | None, str]]:
    """The same for the templates' translate tags; a template's % is %% in the catalogue."""
    root = Path(settings.BASE_DIR)
    found = []
    for path in sorted(root.glob("templates/**/*.html")):
        for match in TRANSLATE_TAG.finditer(path.read_text(encoding="utf-8")):
            found.append((str(path.relative_to(root)), match.group(3), match.group(2).replace("%", "%%")))
    return found


def test_every_message_the_code_and_templates_mark_is_in_the_catalogue():
    """A message marked but never added to the German catalogue shows in English on a German
    page (a management command's plural, a new page's button): every literal one is there."""
    catalogue = {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(CATALOGUE)) if not entry.obsolete}
    code, templates = _marked_in_code(), _marked_in_templates()
    assert len(code) > 500 and len(templates) > 500  # the scans find the office's messages
    assert [(where, text) for where, context, text in code + templates if (context, text) not in catalogue] == []


def test_rating_sheet_and_settlement_messages_are_german():
    from django.utils import translation

    from core.rule_messages import rule_message
    from skat.rating import opponent_bonus, rate_table
    from skat.rules import RuleError
    from skat.settlement import settle
    from skat.sheet import SheetError, evaluate_sheet

    call_command("compiletranslations")
    refusals = []
    for attempt in (
        lambda: opponent_bonus(5),
        lambda: rate_table(3, [(0, True, -10)]),
        lambda: settle([1]),
        lambda: evaluate_sheet({"players": ["A", "B"], "games": []}),
    ):
        with pytest.raises(RuleError) as raised:
            attempt()
        refusals.append(raised.value)
    with translation.override("de"):
        german = [rule_message(error) for error in refusals]
    assert german == [
        "3.2.7: ein Tisch hat 3 oder 4 Spieler, nicht 5",
        "5.5.1: ein gewonnenes Spiel zählt seinen Wert (> 0), nicht -10",
        "5.5.5: eine Abrechnung braucht mindestens zwei Spieler, nicht 1",
        "3.2.7: ein Tisch hat 3 oder 4 Spieler, nicht 2",
    ]
    with pytest.raises(SheetError) as raised:
        evaluate_sheet({"players": ["A", "B", "C"], "games": [{"declarer": "A", "contract": "grand", "tops": 5}]})
    assert str(raised.value).startswith("game 1: tops: ") and raised.value.game == 1
    with translation.override("de"):
        assert rule_message(raised.value) == "2.4.3: ein Grand hat höchstens 4 Spitzen, nicht 5"
