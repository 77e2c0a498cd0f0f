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
from django.utils.translation import get_language, gettext, pgettext

from skat.rules import Contract

from .models import ScoresheetLine

#: What :func:`game_parts` tags each word with: plain words, and the ones pages mark up.
WORD, OVERBID, VALUE, IRREGULARITY, VOID = "word", "overbid", "value", "irregularity", "void"


def announced(game: ScoresheetLine) -> tuple[bool, bool]:
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
    #: Between "without" and its number: " " in words, "" abbreviated ("wo3").
    tops_joint: str = " "


_WORDS: dict[str | None, Words] = {}
_SHORT: dict[str | None, Words] = {}


def words() -> Words:
    """The words in the active language (cached per language)."""
    language = get_language()
    found = _WORDS.get(language)
    if found is None:
        found = _WORDS[language] = Words(
            contracts={value: str(label) for value, label in ScoresheetLine.CONTRACT_CHOICES},
            tops_kinds={value: str(label) for value, label in ScoresheetLine.TopsKind.choices},
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


def short_words() -> Words:
    """The words abbreviated as on a narrow paper list, for a 390 px sheet (cached per
    language): the suits as their signs, "wo3" for without 3, "H" for hand; a page that
    shows them gives the full words as titles and a legend (:func:`legend`)."""
    language = get_language()
    found = _SHORT.get(language)
    if found is None:
        full = words()
        found = _SHORT[language] = Words(
            contracts={
                Contract.DIAMONDS.value: "♦",
                Contract.HEARTS.value: "♥",
                Contract.SPADES.value: "♠",
                Contract.CLUBS.value: "♣",
                Contract.GRAND.value: pgettext("abbreviation", "Gr"),
                Contract.NULL.value: pgettext("abbreviation", "Nu"),
            },
            tops_kinds={
                ScoresheetLine.TopsKind.WITH.value: pgettext("abbreviation", "w"),
                ScoresheetLine.TopsKind.WITHOUT.value: pgettext("abbreviation", "wo"),
            },
            passed_out=full.passed_out,
            hand=pgettext("abbreviation", "H"),
            schneider=pgettext("abbreviation", "S"),
            schwarz=pgettext("abbreviation", "Sw"),
            announced=pgettext("abbreviation", "a"),
            ouvert=pgettext("abbreviation", "O"),
            overbid=pgettext("abbreviation", "ob"),
            irregularity=full.irregularity,
            void=full.void,
            tops_joint="",
        )
    return found


def legend() -> list[tuple[str, str]]:
    """(abbreviation, word) for each abbreviation :func:`short_words` uses, in the sheet's order."""
    full, short = words(), short_words()
    pairs = [(short.contracts[c], full.contracts[c]) for c in short.contracts]
    pairs += [(short.tops_kinds[k], full.tops_kinds[k]) for k in short.tops_kinds]
    for name in ("hand", "schneider", "schwarz", "announced", "ouvert", "overbid"):
        pairs.append((getattr(short, name), getattr(full, name)))
    return pairs


def game_parts(
    game: ScoresheetLine, number: Callable[[int], str] = str, w: Words | None = None
) -> list[tuple[str, str]]:
    """The description as (kind, text) pairs in order; ``number`` formats the numbers,
    ``w`` gives the words (:func:`words` unless told: :func:`short_words`)."""
    w = w or words()
    if game.passed_out:
        parts = [(WORD, w.passed_out)]
    else:
        parts = [(WORD, w.contracts.get(game.contract, game.contract))]
        if game.tops:
            kind = w.tops_kinds.get(game.tops_kind, game.tops_kind)
            parts.append((WORD, f"{kind}{w.tops_joint}{number(game.tops)}"))
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


def game_text(game: ScoresheetLine) -> str:
    """The game in words: "Hearts without 2 hand schneider announced = 60"."""
    return " ".join(text for _kind, text in game_parts(game))


_HTML = {
    WORD: "{}",
    OVERBID: "<strong>{}</strong>",
    VALUE: '<span class="muted">{}</span>',
    IRREGULARITY: '<em class="mark">{}</em>',
    VOID: '<strong class="mark">{}</strong>',
}


def game_html(game: ScoresheetLine, number: Callable[[int], str] = str) -> SafeString:
    """:func:`game_text` as the sheets show it: overbid bold, the value muted, marks set off."""
    html = " ".join(_HTML[kind].format(conditional_escape(text)) for kind, text in game_parts(game, number))
    return mark_safe(html)  # every text escaped above


def game_short_html(game: ScoresheetLine, number: Callable[[int], str] = str) -> SafeString:
    """:func:`game_html` abbreviated ("♠ wo3 H = 40"), each abbreviation with its words as
    its title: a 390 px sheet shows it where whole words would break inside ("Spade s")."""
    html = []
    for (kind, text), (_same, short) in zip(
        game_parts(game, number), game_parts(game, number, short_words()), strict=True
    ):
        shown = conditional_escape(short)
        if short != text:
            shown = f'<abbr title="{conditional_escape(text)}">{shown}</abbr>'
        html.append(_HTML[kind].format(shown))
    return mark_safe(" ".join(html))  # every text escaped above
