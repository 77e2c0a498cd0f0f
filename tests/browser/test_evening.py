"""A whole evening in a real browser: the director's pages on a desktop, one table's
games on a phone through its link, and the standings changing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from scoring.models import Game
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.click("form button[type=submit]")


def enter(phone, declarer: str, contract: str, **fields) -> None:
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


def test_a_director_runs_an_evening_and_a_phone_enters_a_table(live_server, desktop, phone, django_user_model):
    director = django_user_model.objects.create_user("leiter", password="pw")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    base = live_server.url

    log_in(desktop, base, "leiter")
    desktop.click("text=New tournament")
    desktop.fill("#id_name", "Kneipenabend")
    desktop.fill("#id_date", "2026-11-27")
    desktop.fill("#id_series_count", "1")
    desktop.fill("#id_rounds_per_series", "1")
    desktop.click("form button[type=submit]")
    desktop.wait_for_url(re.compile(r"/players/$"))
    for i, name in enumerate(["Anna", "Bernd", "Clara", "Dieter", "Elke", "Frank", "Gisela"]):
        desktop.fill("#id_name", name)
        desktop.fill("#id_club", f"Club {i % 3}")
        desktop.click("form.form-grid button[type=submit]")
        desktop.wait_for_selector(f"text={name} is registered.")
    desktop.click("text=Dashboard")
    desktop.click("form.inline-form button[type=submit]")  # draw series 1
    desktop.wait_for_selector("text=Series 1 is drawn")

    tournament = Tournament.objects.get(name="Kneipenabend")
    table = Table.objects.get(series__tournament=tournament, size=3)
    names = [s.player.name for s in table.seats.order_by("number")]

    # The scorekeeper scans the table card: the link opens this table only.
    phone.goto(base + table.entry_url())
    phone.wait_for_selector("text=Deal 1")
    assert phone.evaluate("typeof htmx") == "object", "htmx.min.js must load (static files)"
    # A slow phone: htmx settles swapped content late. The form's own swap must not wait
    # for it, or the live value of a field changed at once after a refusal never came.
    phone.evaluate("htmx.config.defaultSettleDelay = 700")
    # A grand has at most 4 tops: refused with the paragraph, nothing stored.
    enter(phone, names[0], "Grand", tops=5, declarer_points=70)
    # The refusal comes back from the server at the field (the live value showed it already).
    phone.wait_for_selector("fieldset.tops .errorlist >> text=2.4.3: a grand has at most 4 tops, not 5")
    assert not Game.objects.filter(table=table).exists()
    phone.fill("#id_tops", "2")
    phone.wait_for_selector("#preview >> text=+72")  # the value appears before saving
    phone.click("button.enter")
    phone.wait_for_selector("text=Deal 1 entered: +72.")
    phone.click("button.passed")
    phone.wait_for_selector("text=Deal 2 entered: passed out.")
    enter(phone, names[2], "Hearts", tops=1, declarer_points=70, bid=50)  # 5.4.1: overbid
    phone.wait_for_selector("text=Deal 3 entered: -100.")
    phone.wait_for_selector("text=All deals are entered")
    assert list(Game.objects.filter(table=table).order_by("number").values_list("score", flat=True)) == [72, 0, -100]

    desktop.click("text=Standings")
    rows = desktop.locator("table.standings tbody tr")
    expect(rows).to_have_count(7)  # waits for the page, unlike rows.count()
    first = rows.first.inner_text()
    # names[0]: 72 + 50 for the won grand + 40 for the hearts lost by names[2] = 162.
    assert names[0] in first and "162" in first
