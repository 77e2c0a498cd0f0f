"""Players' names as the door needs them: a search key, a sort key, a duplicate key.

Pure functions of the written name (no Django). A name is "First Last" (the surname is
the last word) unless written "Surname, First name". Keys are case-folded, accents
dropped, and German umlauts folded both ways (ü -> ue and u), so "mueller anna",
"Anna Müller", "Muller" and "Müller, A." find the same player. The Nordic ø and å fold
the same way (ø -> oe and o, å -> aa and a: "Soeren" and "Soren" find "Søren"). Every
other letter of any alphabet is transliterated by anyascii (ISC licence): Ł -> L,
đ -> d, æ -> ae, þ -> th, Иван -> ivan, so "Lukasz Wojcik" finds "Łukasz Wójcik".
"""

from __future__ import annotations

import unicodedata

from anyascii import anyascii

_UMLAUTS = {"ä": ("ae", "a"), "ö": ("oe", "o"), "ü": ("ue", "u"), "ø": ("oe", "o"), "å": ("aa", "a")}


def _plain(text: str) -> str:
    """Accents dropped (é -> e), ß -> ss, any other alphabet's letters in Latin
    (anyascii: Ł -> l, Иван -> ivan); umlauts kept for :func:`_variants`."""
    out = []
    # Composed first: "u" + U+0308 (as macOS and some keyboards write it) is the umlaut ü.
    for char in unicodedata.normalize("NFC", text.casefold()):
        if char in _UMLAUTS or char.isascii():
            out.append(char)
            continue
        stripped = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        out.append(stripped if stripped.isascii() else anyascii(stripped).casefold())
    return "".join(out)


def _words(text: str) -> list[str]:
    """Words of letters and digits (commas, dots and hyphens separate words)."""
    cleaned = "".join(char if char.isalnum() else " " for char in _plain(text))
    return cleaned.split()


#: Umlauts of one word spelled in every mix of ae and a; a word with more (a typed
#: "ääääää…") gets the all-ae and the all-a spelling only: 2^n spellings would not fit.
MIXED_UMLAUTS = 4


def _variants(word: str) -> set[str]:
    """A word's spellings: with umlauts as ae/oe/ue and as a/o/u."""
    if sum(char in _UMLAUTS for char in word) > MIXED_UMLAUTS:
        return {"".join(_UMLAUTS.get(c, (c, c))[i] for c in word) for i in (0, 1)}
    spelled = [""]
    for char in word:
        options = _UMLAUTS.get(char, (char,))
        spelled = [s + o for s in spelled for o in options]
    return set(spelled)


def fold(word: str) -> str:
    """The standard spelling of one word of a query or a name: umlauts as ae/oe/ue."""
    return "".join(_UMLAUTS[c][0] if c in _UMLAUTS else c for c in "".join(_words(word)))


def search_key(name: str) -> str:
    """Every spelling of every word, sorted, between spaces: `` anna mueller muller ``.

    A query word matches when `` <word>`` is in the key (the start of a word), so the
    query is one filter per word, in the database.
    """
    words = sorted({variant for word in _words(name) for variant in _variants(word)})
    return f" {' '.join(words)} " if words else ""


def query_words(query: str) -> list[str]:
    """The words of a search box's text in the key's standard spelling."""
    return [fold(word) for word in _words(query)]


def split_name(name: str) -> tuple[str, str]:
    """(surname, first names): "Anna Müller" and "Müller, Anna" -> ("Müller", "Anna")."""
    name = " ".join(name.split())
    if "," in name:
        surname, _sep, first = name.partition(",")
        return surname.strip(), first.strip()
    first, _sep, surname = name.rpartition(" ")
    return surname, first


def sort_key(name: str) -> str:
    """Surname first, folded: "Anna Müller" -> "mueller anna" (the player list's order)."""
    surname, first = split_name(name)
    return " ".join(fold(word) for word in _words(f"{surname} {first}"))[:160]


def identity_key(name: str, club_id: int | None) -> str:
    """One player of one club, whatever the spelling or word order: the duplicate check's key."""
    words = sorted(fold(word) for word in _words(name))
    return f"{' '.join(words)}|{club_id or ''}"[:200]
