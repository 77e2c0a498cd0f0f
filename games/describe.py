"""One describer for a game: what every page, PDF and export says was played.

The table link's sheet, the referee's table and correction pages, the second list's
comparison, the scoresheet PDF and the league workbook all describe a game from here,
so none of them can drop a word the others show ("schneider announced" on one page,
plain "schneider" on another, and a referee judging from the wrong one).

The words follow the paper list (5.5.2): contract, tops with or without, hand, the
levels counted (schneider, schwarz) each followed by "announced" when it was
predicted, ouvert, overbid, "= value", and a referee's marks (irregularity, void).
5.2.6: ouvert includes schwarz announced, which includes schneider announced, so the
higher announcement stands for the lower ones it includes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from skat.rules import Contract

from .models import Deal

#: What :func:`game_parts` tags each word with: plain words, and the ones pages mark up.
WORD, OVERBID, VALUE, IRREGULARITY, VOID = "word", "overbid", "value", "irregularity", "void"


def announced(game: Deal) -> tuple[bool, bool]:
    """(schneider announced, schwarz announced) of a game as they count (see :func:`announced_levels`)."""
    if game.passed_out:
        return False, False
    return announced_levels(game.contract, game.schneider_announced, game.schwarz_announced, game.ouvert)


def announced_levels(contract: str, schneider: bool, schwarz: bool, ouvert: bool) -> tuple[bool, bool]:
    """5.2.6: ouvert includes schwarz announced, which includes schneider announced. Null
    games announce neither (2.1.3): null ouvert is no schwarz announcement. For the
    exports, which read the flags straight from the database."""
    if contract in ("", Contract.NULL):
        return False, False
    schwarz = bool(schwarz or ouvert)
    return bool(schneider or schwarz), schwarz


@dataclass(frozen=True, slots=True)
class Words:
    """The describer's words in one language, looked up once (a sheet has many rows)."""

    contracts: dict[str, str]
    tops_kinds: dict[str, str]
    passed_out: str
    hand: str
    schneider: str
    schwarz: str
    announced: str
    ouvert: str
    overbid: str
    irregularity: str
    void: str


_WORDS: dict[str | None, Words] = {}


def words() -> Words:
    """The words in the active language (cached per language)."""
    language = get_language()
    found = _WORDS.get(language)
    if found is None:
        found = _WORDS[language] = Words(
            contracts={value: str(label) for value, label in Deal.CONTRACT_CHOICES},
            tops_kinds={value: str(label) for value, label in Deal.TopsKind.choices},
            passed_out=gettext("passed out"),
            hand=gettext("hand"),
            schneider=gettext("schneider"),
            schwarz=gettext("schwarz"),
            announced=gettext("announced"),
            ouvert=gettext("ouvert"),
            overbid=gettext("overbid"),
            irregularity=gettext("irregularity"),
            void=gettext("void"),
        )
    return found


def game_parts(game: Deal, number: Callable[[int], str] = str) -> list[tuple[str, str]]:
    """The description as (kind, text) pairs in order; ``number`` formats the numbers."""
    w = words()
    if game.passed_out:
        parts = [(WORD, w.passed_out)]
    else:
        parts = [(WORD, w.contracts.get(game.contract, game.contract))]
        if game.tops:
            parts.append((WORD, f"{w.tops_kinds.get(game.tops_kind, game.tops_kind)} {number(game.tops)}"))
        if game.hand:
            parts.append((WORD, w.hand))
        schneider_announced, schwarz_announced = announced(game)
        if game.schneider or schneider_announced:
            parts.append((WORD, w.schneider))
            if schneider_announced and not schwarz_announced:
                parts.append((WORD, w.announced))
        if game.schwarz or schwarz_announced:
            parts.append((WORD, w.schwarz))
            if schwarz_announced and not game.ouvert:
                parts.append((WORD, w.announced))
        if game.ouvert:
            parts.append((WORD, w.ouvert))
        if game.overbid:
            parts.append((OVERBID, w.overbid))
        parts.append((VALUE, f"= {number(game.value)}"))
        if game.irregularity:
            parts.append((IRREGULARITY, w.irregularity))
    if game.voided:
        parts.append((VOID, w.void))
    return parts


def game_text(game: Deal) -> str:
    """The game in words: "Hearts without 2 hand schneider announced = 60"."""
    return " ".join(text for _kind, text in game_parts(game))


_HTML = {
    WORD: "{}",
    OVERBID: "<strong>{}</strong>",
    VALUE: '<span class="muted">{}</span>',
    IRREGULARITY: '<em class="mark">{}</em>',
    VOID: '<strong class="mark">{}</strong>',
}


def game_html(game: Deal, number: Callable[[int], str] = str) -> SafeString:
    """:func:`game_text` as the sheets show it: overbid bold, the value muted, marks set off."""
    html = " ".join(_HTML[kind].format(conditional_escape(text)) for kind, text in game_parts(game, number))
    return mark_safe(html)  # every text escaped above
