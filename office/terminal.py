"""What the office's commands print to the director's terminal, and in which language.

Output that cannot stop a start: on Windows a start from a shortcut, a scheduled task or
``> out.txt`` writes in the system's code page (cp1252), which has no block characters
for the QR code and raised ``UnicodeEncodeError`` after the director's login was made and
before its password was printed. Every line goes through :func:`printable` (the stream's
encoding, anything it cannot encode replaced), and the QR code is drawn only where the
stream can draw it (:func:`can_draw_qr`), else one line says where the QR codes are.

The language is the terminal's: ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` as Unix sets
them, and where none is set (Windows never sets them) the system's display language.
"""

from __future__ import annotations

import contextlib
import io
import locale
import os
import sys
from collections.abc import Callable, Mapping

import segno
from django.utils import translation

#: The characters segno's compact terminal drawing uses.
QR_CHARACTERS = "▀▄█ "


def stream_encoding(stream: object) -> str:
    """The encoding ``stream`` writes with (a Django OutputWrapper passes the question on); UTF-8 for a text buffer."""
    return getattr(stream, "encoding", None) or "utf-8"


def printable(text: str, encoding: str) -> str:
    """``text`` as ``encoding`` can write it: what it cannot is replaced by ``?``, never an error."""
    try:
        return text.encode(encoding, errors="replace").decode(encoding, errors="replace")
    except LookupError:  # an encoding Python does not know: plain ASCII is safe
        return text.encode("ascii", errors="replace").decode("ascii")


def can_draw_qr(encoding: str) -> bool:
    """Whether a stream in ``encoding`` can write the QR code's block characters
    (UTF-8 and Windows' console code pages cp437 and cp850: yes; cp1252, files on Windows: no)."""
    try:
        QR_CHARACTERS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def terminal_qr(url: str) -> str:
    """``url`` as a QR code drawn with block characters, for a phone to scan off the screen."""
    drawing = io.StringIO()
    segno.make(url, error="m").terminal(out=drawing, compact=True)
    return drawing.getvalue()


def write(stream: object, text: str, ending: str = "\n") -> None:
    """Write ``text`` to ``stream`` (a command's OutputWrapper) in its encoding. A stream that
    cannot be written (closed, a broken pipe, none under pythonw) loses the line but never
    stops the office."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream.write(printable(text, stream_encoding(stream)), ending=ending)  # type: ignore[attr-defined]


def windows_ui_language() -> str:
    """The Windows display language as a locale name (``de_DE``), or "" where there is none."""
    import ctypes

    try:
        language_id = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return ""
    return locale.windows_locale.get(language_id, "")


def system_language() -> str:
    """The system's language when the environment names none: Windows' display language,
    else the locale Python reads (``German_Germany`` on Windows, ``de_DE`` elsewhere)."""
    if sys.platform == "win32":
        found = windows_ui_language()
        if found:
            return found
    try:
        return locale.getlocale()[0] or ""
    except ValueError:
        return ""


#: Windows' English names of the office's languages (locale.getlocale() there: "German_Germany").
WINDOWS_NAMES = {"german": "de", "english": "en"}


def language(environ: Mapping[str, str] = os.environ, probe: Callable[[], str] = system_language) -> str:
    """The terminal's language: ``LANG=de_DE.UTF-8`` (or ``LC_ALL``, ``LC_MESSAGES``) says German;
    with none of them set, ``probe()`` (the system's language) decides; else English."""
    name = environ.get("LC_ALL") or environ.get("LC_MESSAGES") or environ.get("LANG") or ""
    if not name:
        name = probe() or ""
        name = WINDOWS_NAMES.get(name.split("_")[0].lower(), name)
    try:
        return translation.get_supported_language_variant(translation.to_language(name.split(".")[0]))
    except LookupError:
        return "en"
