"""What a user does on the pages, shared by the browser tests: log in, enter a deal on the
phone, confirm the sheet with a seat's PIN; and what every page must do: fit its screen's
width.

A click on a link or a form's button returns once the next page has started to load (its
first bytes are in), not once it has loaded: what is read then may not be parsed yet, and
htmx, loaded at the end of a page, may not listen to its fields yet. The helpers that
navigate wait for the page they lead to (``wait_for_load_state``) before they return or
read it.
"""

from __future__ import annotations

import re
from pathlib import Path


def fits(page, screenshot: Path | None = None) -> int:
    """The page never scrolls sideways: it is no wider than the viewport the test set.

    Measured against ``page.viewport_size``, not ``innerWidth``: a mobile browser (a
    context with ``is_mobile``) widens its layout viewport, and ``innerWidth`` with it,
    to a page too wide for it, so ``scrollWidth <= innerWidth`` can never fail there.
    Takes a full-page screenshot first if given one (to look at, also when it fails).
    Returns the viewport's width, the edge every control must stay inside. Measures the
    loaded page: a page still being parsed may not hold yet what widens it.
    """
    page.wait_for_load_state()
    if screenshot is not None:
        page.screenshot(path=str(screenshot), full_page=True)
    width = page.viewport_size["width"]
    wide = page.evaluate("document.scrollingElement.scrollWidth")
    seen = f" (screenshot: {screenshot})" if screenshot is not None else ""
    assert wide <= width, f"{page.url} scrolls sideways: {wide} px wide in a {width} px viewport{seen}"
    return width


def log_in(page, base: str, username: str, password: str = "pw") -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form button[type=submit]")
    page.wait_for_load_state()


def enter(phone, declarer: str, contract: str, **fields) -> None:
    """Tap a deal into the entry form: declarer and contract pills, then the fields."""
    phone.locator("#id_declarer_seat label", has_text=declarer).click()
    phone.locator("#id_contract label", has_text=contract).click()
    for name, value in fields.items():
        if value is True:
            phone.locator(".flags label", has_text=name.replace("_", " ").capitalize()).click()
        elif name == "bid":
            phone.select_option("#id_bid", str(value))
        else:
            phone.fill(f"#id_{name}", str(value))
    phone.click("button.enter")


def pass_out(phone) -> None:
    """Enter the deal as passed out: "Passed out", then the second tap it asks for
    (a stray first tap stores nothing, static/js/entry.js)."""
    button = phone.locator("button.passed")
    button.click()
    phone.locator("button.passed.armed").click()


def confirm(phone, player: str, pin: str) -> None:
    """One player confirms the sheet on the phone with the PIN from his own slip (5.5.3)."""
    phone.locator(".pin-form label", has_text=player).click()
    phone.fill("input[name=pin]", pin)
    phone.click("text=Confirm the sheet")


def correct_card_points(page, points: int, reason: str) -> None:
    """On a game's correction page: change the declarer's card points, give the reason, save."""
    page.fill("#id_declarer_points", str(points))
    page.fill("#id_reason", reason)
    page.click("text=Save correction")


def new_tournament(page, name: str, date: str, series: int, rounds: int, entry_fee: str, list_fee: str) -> None:
    """The director's *New tournament* form, filled and saved: the players page follows."""
    page.click("text=New tournament")
    page.fill("#id_name", name)
    page.fill("#id_date", date)
    page.fill("#id_series_count", str(series))
    page.fill("#id_rounds_per_series", str(rounds))
    page.fill("#id_entry_fee", entry_fee)
    page.fill("#id_list_fee", list_fee)
    page.click("form button[type=submit]")
    page.wait_for_url(re.compile(r"/players/$"))


def import_club_list(page, path, registered: int) -> None:
    """On the players page: the club list uploaded, its players registered."""
    page.set_input_files("form.import-form input[type=file]", str(path))
    page.click("form.import-form button[type=submit]")
    page.wait_for_selector(f"text={registered} players registered")
    page.wait_for_load_state()  # the message comes first; the list of players below it


def check_in_and_take(page, query: str, amount: str) -> None:
    """At the desk: the one player the typed query finds, checked in and paid.

    Typed once the desk has loaded (as the desk arrives from a click on "Check-in", htmx
    may not listen to the field yet), and read once the search has answered: the list
    shown before (the last arrival's one row, say) is marked, and the rows are counted
    only when the search's answer has taken its place.
    """
    from playwright.sync_api import expect

    page.wait_for_load_state()
    page.locator("#desk-list > table").evaluate("table => table.setAttribute('data-before-search', '')")
    page.fill("#desk-q", query)
    expect(page.locator("#desk-list > table[data-before-search]")).to_have_count(0)
    rows = page.locator("#desk-rows tr")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("button", name="check in", exact=True).click()  # not "check in and take"
    expect(rows.first.locator("button", has_text="present")).to_be_visible()
    rows.first.locator("button", has_text=f"take {amount}").click()
    expect(rows.first.locator("button", has_text="paid")).to_be_visible()


#: How the desk types the club list's players (test_door, test_messy_evening) as they
#: arrive: any order, without umlauts, abbreviated.
ARRIVALS = [
    "mueller anna",
    "Bernd Schäfer",
    "ozdemir",
    "Weiss, D.",
    "kruger elke",
    "becker",
    "Hoffmann, G.",
    "jaeger holger",
    "ines lange",
    "neumann",
    "Richter, Karin",
    "schroeder",
    "monika vogel",
]  # Not Norbert Wolf nor Olaf Zimmermann (the messy evening seats Norbert late).
