"""What the office prints to the director's terminal (office.terminal): any console or file
encoding, and the terminal's language where the environment names none (Windows)."""

from __future__ import annotations

import io
import sys

import pytest
from django.core.management.base import OutputWrapper

from office import terminal


def test_text_the_encoding_cannot_write_is_replaced_not_raised():
    assert terminal.printable("Grand ▄█ Kreuz-Bube, Gebühr 5 €", "cp1252") == "Grand ?? Kreuz-Bube, Gebühr 5 €"
    assert terminal.printable("Gebühr ▄", "ascii") == "Geb?hr ?"
    assert terminal.printable("Gebühr", "no-such-encoding") == "Geb?hr"


@pytest.mark.parametrize(
    "encoding, drawn", [("utf-8", True), ("cp437", True), ("cp850", True), ("cp1252", False), ("ascii", False)]
)
def test_the_qr_code_is_drawn_only_where_the_stream_can_write_its_blocks(encoding, drawn):
    assert terminal.can_draw_qr(encoding) is drawn


def test_the_qr_code_is_drawn_with_blocks():
    drawing = terminal.terminal_qr("http://192.168.1.20:8000/")
    assert drawing.count("\n") > 10 and set(drawing) <= set(terminal.QR_CHARACTERS + "\n")


def test_a_line_goes_out_in_the_streams_encoding():
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252")
    terminal.write(OutputWrapper(stream), "Gebühr ▄")
    stream.flush()
    assert raw.getvalue() == "Gebühr ?\n".encode("cp1252")


def test_a_stream_that_cannot_be_written_loses_the_line_not_the_start():
    closed = io.StringIO()
    closed.close()
    terminal.write(OutputWrapper(closed), "Director login created: director / abcd-efgh-jkmn")
    terminal.write(None, "no stream at all (pythonw)")


@pytest.mark.parametrize(
    "environ, language",
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_ALL": "de_AT.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_the_environment_names_the_language_first(environ, language):
    def probe() -> str:
        raise AssertionError("the system is asked only when the environment names no language")

    assert terminal.language(environ, probe) == language


@pytest.mark.parametrize(
    "system, language",
    [("de_DE", "de"), ("German_Germany", "de"), ("en_US", "en"), ("English_United Kingdom", "en"), ("", "en")],
)
def test_without_lang_the_systems_language_decides(system, language):
    """Windows sets no LANG: its display language (de_DE) or the locale's name (German_Germany)."""
    assert terminal.language({}, lambda: system) == language


def test_on_windows_the_display_language_is_asked(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(terminal, "windows_ui_language", lambda: "de_DE")
    assert terminal.system_language() == "de_DE"
    monkeypatch.setattr(terminal, "windows_ui_language", lambda: "")
    monkeypatch.setattr(terminal.locale, "getlocale", lambda: ("German_Germany", "1252"))
    assert terminal.system_language() == "German_Germany"


def test_the_windows_display_language_id_is_read_as_a_locale_name(monkeypatch):
    import ctypes

    class Kernel32:
        @staticmethod
        def GetUserDefaultUILanguage() -> int:  # the Windows function's name
            return 0x0407  # German (Germany)

    class Windll:
        kernel32 = Kernel32

    monkeypatch.setattr(ctypes, "windll", Windll, raising=False)
    assert terminal.windows_ui_language() == "de_DE"
    monkeypatch.delattr(ctypes, "windll")
    assert terminal.windows_ui_language() == ""  # not Windows
