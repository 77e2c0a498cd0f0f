"""Drawing helpers shared by the printed documents: fonts, cached widths, fast text.

Every document draws directly on a reportlab canvas (no Platypus): a series of 750
scoresheets is about 600,000 strings, so text goes into one text object per page, widths
are measured once per string and the static parts of a page are PDF forms drawn once
and placed many times.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

PAGE_WIDTH, PAGE_HEIGHT = A4

#: Page streams are Flate-compressed binary, not also ASCII85-encoded: without reportlab's
#: optional C accelerator the pure-Python ASCII85 encoder took most of a long PDF's time
#: (3 of 4 seconds for a 300-page ranking appendix) and made the file a quarter larger.
rl_config.useA85 = 0
MARGIN = 24.0

#: The PDF standard fonts cover Western European text (cp1252: ä ö ü ß é ...); they need
#: no embedding and are the fastest. A name outside cp1252 (Łukasz, Dvořák, Erdős, Søren's
#: club in Đakovo) switches the whole document to DejaVu Sans, which the office ships
#: (printing/fonts, Bitstream Vera licence beside it): on Windows and macOS too.
STANDARD = ("Helvetica", "Helvetica-Bold")
DEJAVU = ("DejaVuSans", "DejaVuSans-Bold")
DEJAVU_FILES = {
    "DejaVuSans": "DejaVuSans.ttf",
    "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
}
#: The shipped copy first; a system's own only if a packager removed ours.
SHIPPED_FONTS = Path(__file__).resolve().parent.parent / "fonts"
FONT_DIRS = (SHIPPED_FONTS, Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@functools.cache
def _dejavu_available() -> bool:
    for directory in FONT_DIRS:
        if all((directory / file).is_file() for file in DEJAVU_FILES.values()):
            for name, file in DEJAVU_FILES.items():
                pdfmetrics.registerFont(TTFont(name, str(directory / file)))
            return True
    return False


def _western(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def choose_fonts(texts: Iterable[str]) -> tuple[str, str]:
    """(regular, bold): the standard fonts unless a text needs more than cp1252."""
    if all(_western(text) for text in texts if text):
        return STANDARD
    return DEJAVU if _dejavu_available() else STANDARD


@functools.lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    """The printed width of ``text``; cached, the same strings recur on every sheet."""
    return pdfmetrics.stringWidth(text, font, size)


@functools.lru_cache(maxsize=16384)
def fit(text: str, font: str, size: float, room: float) -> str:
    """``text`` cut with an ellipsis so it fits ``room`` points."""
    if width(text, font, size) <= room:
        return text
    while text and width(text + "…", font, size) > room:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def wrap(text: str, font: str, size: float, room: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``room`` points, word by word; the last one cut."""
    words = text.split()
    out: list[str] = []
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and width(f"{line} {words[0]}", font, size) <= room:
            line = f"{line} {words.pop(0)}"
        if width(line, font, size) > room:
            break_at = line
            words.insert(0, break_at)
            break
        out.append(line)
    if words:
        out.append(fit(" ".join(words), font, size, room))
    return out


def wrap_whole(text: str, font: str, size: float, room: float, lines: int = 2, smallest: float = 5.5, most: int = 3):
    """``text`` whole in ``lines`` lines of ``room`` points: (lines, font size).

    A name on a sheet is printed in full, never cut with an ellipsis: word by word (a
    double name also at its hyphen), at ``size`` if it fits, else in steps of half a
    point down to ``smallest``; a name too long even then gets up to ``most`` lines, and
    a word that fits no line at all is split where the line ends, so nothing is lost.
    """
    if not text.strip():
        return [], size
    if width(text, font, size) <= room:
        return [text], size
    words = [part for word in text.split() for part in _hyphen_parts(word)]
    for count in range(lines, max(lines, most) + 1):
        step = size
        # More lines than asked for only for a name that would be tiny on them: a point smaller still.
        while step >= (smallest if count == lines else smallest - 1):
            out = _greedy(words, font, step, room)
            if len(out) <= count and all(width(line, font, step) <= room for line in out):
                return out, step
            step -= 0.5
    out: list[str] = []
    line = ""
    for char in " ".join(text.split()):
        if line and width(line + char, font, smallest) > room:
            out.append(line)
            line = char.lstrip()
        else:
            line += char
    return ([*out, line] if line else out), smallest


def _hyphen_parts(word: str) -> list[str]:
    """ "Oberländer-Schimmelpfennig" as "Oberländer-" and "Schimmelpfennig": a line may end at the hyphen."""
    parts = word.split("-")
    return [part + "-" for part in parts[:-1] if part] + [parts[-1]] if len(parts) > 1 else [word]


def _greedy(words: list[str], font: str, size: float, room: float) -> list[str]:
    out: list[str] = []
    for word in words:
        if out:
            joined = out[-1] + word if out[-1].endswith("-") else f"{out[-1]} {word}"
            if width(joined, font, size) <= room:
                out[-1] = joined
                continue
        out.append(word)
    return out


class Text:
    """One text object per page: strings at positions, left, right or centre aligned.

    Graphics drawn on the canvas before :meth:`flush` lie under the text.
    """

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.obj = canvas.beginText()
        self.font: tuple[str, float] | None = None
        self.fast = False
        #: (font, size, text) -> the PDF operator showing it; standard fonts only.
        self.shown: dict[tuple[str, float, str], str] = {}

    def set_font(self, font: str, size: float) -> None:
        if self.font != (font, size):
            self.obj.setFont(font, size)
            self.font = (font, size)
            # A standard font's operator depends on the text alone; an embedded font's
            # on its subsets so far, so those go through reportlab's textOut every time.
            # reportlab's text object has kept _formatText and _code for many versions;
            # should they go, every string takes the public textOut path.
            self.fast = (
                not pdfmetrics.getFont(font)._dynamicFont
                and hasattr(self.obj, "_formatText")
                and hasattr(self.obj, "_code")
            )

    def left(self, x: float, y: float, text: str, font: str, size: float) -> None:
        if not text:
            return
        self.set_font(font, size)
        if self.fast:
            key = (font, size, text)
            shown = self.shown.get(key)
            if shown is None:
                shown = self.shown[key] = self.obj._formatText(text)
            # What setTextOrigin + textOut write, without measuring the text again.
            self.obj._code.append(f"1 0 0 1 {x:.2f} {y:.2f} Tm {shown}")
        else:
            self.obj.setTextOrigin(x, y)
            self.obj.textOut(text)

    def right(self, x: float, y: float, text: str, font: str, size: float) -> None:
        if text:
            self.left(x - width(text, font, size), y, text, font, size)

    def centre(self, x: float, y: float, text: str, font: str, size: float) -> None:
        if text:
            self.left(x - width(text, font, size) / 2, y, text, font, size)

    def flush(self) -> None:
        """Put the page's text on the canvas and start a new text object."""
        self.canvas.drawText(self.obj)
        self.obj = self.canvas.beginText()
        self.font = None


#: The mark on every page of a practice tournament's documents (a rehearsal: never a real result).
PRACTICE_MARK = "PRACTICE / ÜBUNG"


class PracticeCanvas(Canvas):
    """A canvas that marks every page it closes as a practice tournament's, at its top and foot."""

    def showPage(self) -> None:
        page_width, page_height = self._pagesize
        self.saveState()
        self.setFillColorRGB(0.55, 0.35, 0)
        self.setFont("Helvetica-Bold", 9)
        for y in (page_height - 14, 7):
            self.drawCentredString(page_width / 2, y, f"{PRACTICE_MARK} · {PRACTICE_MARK} · {PRACTICE_MARK}")
        self.restoreState()
        super().showPage()


def new_canvas(out, title: str, *, pagesize=A4, practice: bool = False) -> Canvas:
    """A document's canvas; a practice tournament's (``practice``) marks every page (:data:`PRACTICE_MARK`)."""
    canvas = (PracticeCanvas if practice else Canvas)(out, pagesize=pagesize, pageCompression=1, invariant=0)
    canvas.setTitle(title)
    canvas.setCreator("Skat tournament office")
    return canvas


class PageWriter:
    """A list PDF written top to bottom: the title, then lines of cells; a new page (the
    title small, then ``head`` again when given) when the room runs out. The leagues' and
    the rankings' documents share it; their spacing differs, so it is given."""

    def __init__(
        self,
        out,
        title: str,
        texts: list[str],
        *,
        row: float,
        size: float,
        head: list[tuple[float, str, str]] | None = None,
        title_gap: float = 20,
        page_gap: float = 16,
        bottom: float = 10,
        practice: bool = False,
    ) -> None:
        self.canvas = new_canvas(out, title, practice=practice)
        self.regular, self.bold = choose_fonts([*texts, title])
        self.text = Text(self.canvas)
        self.title, self.head = title, head
        self.row, self.size, self.page_gap, self.bottom = row, size, page_gap, bottom
        self.y = PAGE_HEIGHT - MARGIN - 16
        self.text.left(MARGIN, self.y, title, self.bold, 14)
        self.y -= title_gap

    def need(self, height: float) -> None:
        if self.y - height < MARGIN + self.bottom:
            self.text.flush()
            self.canvas.showPage()
            self.y = PAGE_HEIGHT - MARGIN - 16
            self.text.left(MARGIN, self.y, self.title, self.bold, 10)
            self.y -= self.page_gap
            if self.head:
                self.line(self.head, bold=True)

    def line(self, cells: list[tuple[float, str, str]], *, bold: bool = False, size: float | None = None) -> None:
        """cells: (x, text, "l" or "r")."""
        self.need(self.row)
        font = self.bold if bold else self.regular
        for x, value, align in cells:
            (self.text.right if align == "r" else self.text.left)(x, self.y, value, font, size or self.size)
        self.y -= self.row

    def finish(self) -> None:
        self.text.flush()
        self.canvas.showPage()
        self.canvas.save()
