"""The table link on a poor hall network (static/js/entry.js): a deal that did not get
through waits on the phone, is said so and sent again by itself, and is stored exactly
once. (Without any network at all, and across a reload: tests/browser/test_offline.py.)"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests import factories

from .pages import enter, pass_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Where the phone's screenshot goes, to look at (not in git).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", tempfile.gettempdir()))


@pytest.fixture
def phone(browser):
    """A phone without the table links' service worker. Once the worker controls the page
    (it claims it as soon as it is active), the deal POSTs pass through it, and Playwright's
    ``page.route`` no longer sees them: the "lost" deal would get through and the test would
    see no loss. The worker's own part is tests/browser/test_offline.py's."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB", service_workers="block"
    )
    yield context.new_page()
    context.close()


def open_table(phone, live_server, size: int = 3):
    table = factories.table_of(size)
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    return table


def on_posts(phone, table, answer) -> list[str]:
    """Route the POSTs of the table's entry URL (not its preview) through ``answer(n, route)``."""
    posts: list[str] = []

    def handle(route, request) -> None:
        if request.method != "POST":
            route.continue_()
            return
        posts.append(request.post_data or "")
        answer(len(posts), route)

    phone.route(f"**{table.entry_url()}", handle)
    return posts


def test_a_deal_that_never_left_the_phone_is_sent_again_and_stored_once(phone, live_server):
    # The resend waits on the page's clock, paused once the page is in, which the test
    # moves: "no connection" stays shown until then (on the real clock it lasts a second,
    # which a loaded CI machine's polls could miss). ``install`` alone leaves the clock
    # running.
    phone.clock.install()
    table = open_table(phone, live_server)
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1_000)

    def lose_the_first(n, route):
        route.abort("internetdisconnected") if n == 1 else route.continue_()

    posts = on_posts(phone, table, lose_the_first)
    enter(phone, "Seat2", "Grand", tops=2, declarer_points=70)
    expect(phone.locator("#connection")).to_contain_text("No connection to the office. Deals waiting on this phone: 1")
    expect(phone.locator("tr.queued")).to_contain_text("waiting to send · valued when sent")
    phone.screenshot(path=str(SCREENSHOTS / "phone-no-connection.png"))
    assert len(posts) == 1 and not Game.objects.filter(table=table).exists()
    phone.clock.run_for(1_000)  # the first pause before a resend (entry.js: PAUSES)
    phone.wait_for_selector("text=Deal 1 entered: +72.")
    expect(phone.locator("#connection")).to_be_hidden()
    expect(phone.locator("tr.queued")).to_have_count(0)
    assert len(posts) == 2 and posts[0] == posts[1]  # the same deal, the same client id
    game = Game.objects.get(table=table)
    assert (game.number, game.declarer_seat, game.score) == (1, 2, 72)


def test_a_deal_whose_answer_was_lost_is_not_stored_twice(phone, live_server):
    table = open_table(phone, live_server)

    def lose_the_first_answer(n, route):
        if n == 1:
            route.fetch()  # the office stores the deal ...
            route.abort("connectionreset")  # ... but the phone never hears back
        else:
            route.continue_()

    posts = on_posts(phone, table, lose_the_first_answer)
    enter(phone, "Seat3", "Hearts", tops=1, declarer_points=70)
    phone.wait_for_selector("text=Deal 1 entered: +20.")
    assert len(posts) == 2
    assert Game.objects.filter(table=table).count() == 1


def test_a_passed_out_deal_is_sent_again_as_passed_out(phone, live_server):
    table = open_table(phone, live_server)

    def lose_the_first(n, route):
        route.abort("timedout") if n == 1 else route.continue_()

    posts = on_posts(phone, table, lose_the_first)
    pass_out(phone)
    phone.wait_for_selector("text=Deal 1 entered: passed out.")
    assert len(posts) == 2 and "passed_out=on" in posts[1]
    assert Game.objects.get(table=table).passed_out


#: Counts the page's POSTs of deals as it starts them (window.fetch called), before any
#: network; ENTRY is the entry URL's path (the hall check's report before play is a POST
#: of the page too, to another URL).
COUNT_POSTS = """
window.postsStarted = 0;
const send = window.fetch;
window.fetch = function (url, options) {
  const path = new URL(String(url), location.href).pathname;
  if (options && options.method === "POST" && path === ENTRY) window.postsStarted += 1;
  return send.apply(this, arguments);
};
"""


def test_a_refusal_without_a_rule_is_shown_and_not_repeated(phone, live_server):
    """A 4xx the office gives without a rule (here 403) is a refusal: said, not sent again
    by itself (the deal waits until the page is opened again)."""
    # The page's timers run on a fake clock (running, as ``install`` leaves it) that the
    # test also moves: a minute of pauses passes at once, and any resend they would start
    # is counted as the page starts it.
    phone.clock.install()
    table = factories.table_of(3)
    phone.add_init_script(f"const ENTRY = {json.dumps(table.entry_url())};" + COUNT_POSTS)
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("text=Deal 1")

    def refuse(n, route):
        route.fulfill(status=403, body="Forbidden")

    posts = on_posts(phone, table, refuse)
    enter(phone, "Seat2", "Grand", tops=2, declarer_points=70)
    refused = "The office refused the deal (error 403): it is not saved yet."
    expect(phone.locator("#connection")).to_contain_text(refused)
    assert phone.evaluate("window.postsStarted") == 1
    phone.clock.run_for(60_000)  # longer than the pauses before the first resends (1, 2, 4, ... s)
    assert phone.evaluate("window.postsStarted") == 1
    assert len(posts) == 1
    assert not Game.objects.filter(table=table).exists()
    expect(phone.locator("tr.queued")).to_have_count(1)  # the deal waits on the phone
    expect(phone.locator("#game-form")).to_be_visible()  # and the next one can be entered


def test_an_office_error_is_not_a_refusal_and_the_deal_is_sent_again(phone, live_server):
    """A 500 is the office's own problem, not a refusal of the deal: the phone says so,
    keeps the deal and sends it again after its pauses, and it is stored once."""
    phone.clock.install()
    table = factories.table_of(3)
    phone.add_init_script(f"const ENTRY = {json.dumps(table.entry_url())};" + COUNT_POSTS)
    phone.goto(live_server.url + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1_000)

    def fail_twice(n, route):
        route.fulfill(status=500, body="Server Error") if n <= 2 else route.continue_()

    posts = on_posts(phone, table, fail_twice)
    enter(phone, "Seat2", "Grand", tops=2, declarer_points=70)
    banner = phone.locator("#connection")
    expect(banner).to_contain_text("The office had a problem (error 500); it did not refuse the deal.")
    expect(banner).not_to_contain_text("refused the deal (error")
    expect(phone.locator("tr.queued")).to_contain_text("waiting to send")
    assert not Game.objects.filter(table=table).exists()
    phone.clock.run_for(1_000)  # the first pause (entry.js: PAUSES): the second 500
    expect(banner).to_contain_text("error 500")
    # The second pause (2 s) starts when the second answer reaches the page, which may be a
    # moment after the clock moved: the clock moves a second at a time until the office
    # has stored the deal (a clock moved past a pause not yet set would never end it).
    entered = phone.locator("text=Deal 1 entered: +72.")
    for _ in range(10):
        phone.clock.run_for(1_000)
        if entered.count():
            break
    expect(entered).to_be_visible()
    expect(banner).to_be_hidden()
    assert len(posts) == 3
    assert Game.objects.filter(table=table).count() == 1


def test_a_refused_deal_brings_its_rule_into_view(phone, live_server):
    """The answer to a refused deal starts at the sheet's top; the rule must not be off-screen."""
    table = open_table(phone, live_server)
    enter(phone, "Seat2", "Grand", tops=5, declarer_points=70)  # 2.4.3: at most 4 tops
    refusal = phone.locator("#preview .errorlist")
    expect(refusal).to_contain_text("2.4.3: a grand has at most 4 tops, not 5")
    expect(refusal).to_be_in_viewport()
    assert not Game.objects.filter(table=table).exists()
