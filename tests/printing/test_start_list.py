"""The start list for the wall: who plays where, a withdrawn player kept where he played,
no-shows left off and counted."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from draw.series import draw_series
from printing.documents import start_list_pdf
from tests import factories
from tournaments.models import Registration, Seat, Series

pytestmark = pytest.mark.django_db


def text_of(tournament) -> str:
    out = io.BytesIO()
    with translation.override("en"):
        start_list_pdf(tournament, out=out)
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(out.getvalue())).pages)


def test_a_withdrawn_player_keeps_his_seat_and_no_shows_are_counted_not_listed():
    t = factories.tournament(series_count=2)
    regs = factories.registered(t, 10)
    absent = regs[9]
    Registration.objects.filter(pk__in=[r.pk for r in regs[:9]]).update(present=True)
    draw_series(t)
    left = regs[0]
    Registration.objects.filter(pk=left.pk).update(withdrawn_after_series=1)
    seat = Seat.objects.select_related("table").get(series__number=1, player=left.player)
    Series.objects.filter(tournament=t, number=1).update(status=Series.Status.FINISHED)
    draw_series(t, "random", provisional=True)  # series 2, without him
    text = text_of(t)
    line = next(ln for ln in text.splitlines() if left.player.name in ln)
    assert f"{seat.table.number}/{seat.number}" in line and line.rstrip().endswith("x")
    assert absent.player.name not in text
    assert "1 registered player without a seat in any drawn series (not checked in) is not listed." in text
    assert "x: withdrew." in text


def test_before_the_draw_everyone_registered_is_listed():
    t = factories.tournament(series_count=2)
    regs = factories.registered(t, 5)
    text = text_of(t)
    assert all(r.player.name in text for r in regs)
    assert "not listed" not in text
