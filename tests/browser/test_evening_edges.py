"""The evening's rough edges, the director's part, in a real browser, one
evening: the desk on a phone (one tap checks in and takes the fee, the search is emptied
and keeps the focus, a withdrawn player is said withdrawn, the counts agree with the
dashboard, no sideways scrolling), the paper grid on a 1366 px laptop, the projector's
preview of standings not published, and a dispute's button opening the correction that
settles it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from referees.models import Dispute
from tests import factories
from tournaments.models import Registration

from .pages import fits, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_directors_evening_without_rough_edges(live_server, browser):
    director = User.objects.create_user("leiter", password="pw")
    t, series = factories.drawn(8, directors=[director], rounds_per_series=1, entry_fee=10, list_fee=2)
    table = series.tables.order_by("number").first()
    game = factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, tops_kind="with", declarer_points=75)
    regs = list(Registration.objects.filter(tournament=t).select_related("player").order_by("start_number"))
    arriving, gone = regs[0], regs[1]
    Registration.objects.filter(pk=gone.pk).update(withdrawn_after_series=1)
    base = live_server.url
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, base, "leiter")

    # The desk on a phone: found, one tap, the search empty and ready for the next arrival.
    page.goto(f"{base}/t/{t.pk}/desk/")
    fits(page)
    page.fill("#desk-q", arriving.player.name)
    row = page.locator(f"#desk-{arriving.pk}")
    expect(page.locator("#desk-rows tr")).to_have_count(1)
    row.locator("button", has_text="check in and take").click()
    expect(row.locator("button", has_text="paid ✓")).to_be_visible()
    expect(row.locator("button", has_text="present ✓")).to_be_visible()
    expect(page.locator("#desk-q")).to_have_value("")
    expect(page.locator("#desk-q")).to_be_focused()
    fits(page)
    arriving.refresh_from_db()
    assert arriving.present and arriving.paid
    # The withdrawn player: said so, with the way back, not "add him above".
    page.fill("#desk-q", gone.player.name)
    expect(page.locator("#desk-rows")).to_contain_text("Withdrawn after series 1")
    expect(page.locator("#desk-rows")).not_to_contain_text("Nobody found")
    expect(page.locator("#desk-totals .total-withdrawn")).to_have_text("1")
    page.screenshot(path="/tmp/edges-desk-390.png", full_page=True)
    registered = page.locator("#desk-totals strong").first.inner_text()
    page.goto(f"{base}/t/{t.pk}/")
    expect(page.locator(".stats .card").first).to_contain_text(f"{registered} players registered (and 1 withdrawn)")

    # The paper grid on a laptop: no sideways scrolling.
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/t/{t.pk}/series/1/table/{table.number}/grid/")
    fits(page)

    # The projector before publishing: the director's preview keeps its page at a turn.
    page.goto(f"{base}/t/{t.pk}/standings/")
    expect(page.locator("nav.subnav")).to_contain_text("Live (not published)")
    expect(page.locator(".unpublished")).to_contain_text("Not published")
    with page.expect_response(re.compile(r"/live/\?.*part=board")) as turn:
        page.goto(f"{base}/p/{t.pk}/live/?seconds=2")
    assert turn.value.status == 404  # the hall would see nothing
    with page.expect_response(re.compile(r"/live/\?.*part=board")):
        pass  # the next turn: the first answer has been handled by now
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("[data-preview-note]")).to_contain_text("Preview for the tournament's directors")
    expect(page.locator("[data-withdrawn]")).to_be_hidden()

    # A dispute's "Correct or void deal 1" opens the correction that settles it.
    dispute = Dispute.objects.create(table=table, game=game, description="revoke", raised_by="Seat 3")
    page.goto(f"{base}/t/{t.pk}/referees/disputes/{dispute.pk}/")
    page.click("text=Correct or void deal 1")
    expect(page.locator("select[name=dispute]").first).to_have_value(str(dispute.pk))
    expect(page.locator("select[name=dispute]").last).to_have_value(str(dispute.pk))
    context.close()
