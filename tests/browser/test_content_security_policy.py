"""The Content-Security-Policy in a real browser: every main page runs under it without a
single violation, and what inline handlers did before still works from static/js/office.js.

Each page must come with the policy (config/headers.py); the browser reports every
script, style or request the policy blocks as a ``securitypolicyviolation`` event and a
console error, and any such report (or a script error, or a static file that does not
load) fails the test with the page's name.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from referees.models import Dispute
from tests import factories
from tournaments.models import Registration, Table

from .pages import enter, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " " + (e.sample || ""));
});
"""


class Watched:
    """A page whose console errors, script errors and policy violations are collected."""

    def __init__(self, page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(str(error)))
        # A page's own file that does not load (say static/js/office.js); the browser's
        # favicon request is no page's and the office has none.
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"{r.status} {r.url}"))

    def _console(self, message) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.problems.append(message.text)

    def visit(self, name: str, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status == 200, (name, response and response.status)
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, (name, policy)
        self.page.wait_for_load_state("networkidle")
        self.check(name)

    def check(self, name: str) -> None:
        found = self.problems + self.page.evaluate("window.__violations || []")
        self.problems.clear()
        assert found == [], f"{name}: {found}"


def world():
    chef = factories.user("chef", superuser=True)
    t, series = factories.drawn(7, directors=[chef], series_count=2, rounds_per_series=1, standings_public=True)
    played, open_ = Table.objects.filter(series=series).order_by("number")[:2]
    factories.game(played, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)
    dispute = Dispute.objects.create(table=played, description="revoke", raised_by="Anna (table link)")
    return chef, t, played, open_, dispute


def test_the_main_pages_pass_the_policy(live_server, desktop, phone):
    chef, t, played, open_, dispute = world()
    league, _group, _teams = factories.league_group(teams=0, managers=[chef])
    base = live_server.url
    director = Watched(desktop)
    director.visit("login", base + reverse("login"))
    log_in(desktop, base, "chef")
    desktop.wait_for_url(base + "/")
    director.check("home after login")
    game = played.games.get(number=1)
    pages = {
        "dashboard": reverse("director:detail", args=[t.pk]),
        "players": reverse("director:players", args=[t.pk]),
        "rules and fees": reverse("director:edit", args=[t.pk]),
        "series": reverse("director:series", args=[t.pk, 1]),
        "director's table": reverse("director:table", args=[t.pk, 1, played.number]),
        "standings": reverse("director:standings", args=[t.pk]),
        "statistics": reverse("director:statistics", args=[t.pk]),
        "fee account": reverse("director:fee_account", args=[t.pk]),
        "directors": reverse("director:directors", args=[t.pk]),
        "referees' board": reverse("referees:board", args=[t.pk]),
        "referee's table": reverse("referees:table", args=[t.pk, played.pk]),
        "dispute": reverse("referees:dispute", args=[t.pk, dispute.pk]),
        "new dispute": reverse("referees:dispute_new", args=[t.pk]),
        "assign referees": reverse("referees:assign", args=[t.pk]),
        "league managers": reverse("leagues:managers", args=[league.pk]),
        "correction": reverse("referees:correct", args=[t.pk, game.pk]),
        "admin": reverse("admin:index"),
        "admin players": reverse("admin:tournaments_player_changelist"),
    }
    for name, url in pages.items():
        director.visit(name, base + url)
    director.visit("new tournament from a preset", base + reverse("director:create") + "?preset=club")
    # The office grid: its keyboard handling (static/js/grid.js) and each row's live value (htmx).
    director.visit("office grid", base + reverse("director:grid", args=[t.pk, 1, open_.number]))
    desktop.keyboard.type("-")
    desktop.wait_for_selector("#out-1 >> text=passed out")
    desktop.keyboard.press("Enter")
    director.check("office grid after a typed row")

    table = Watched(phone)
    table.visit("public standings", base + reverse("public:standings", args=[t.pk]))
    table.visit("live", base + reverse("public:live", args=[t.pk]))
    table.visit("second list", base + reverse("table:sheet", args=[open_.control_token]))
    table.visit("table dispute", base + reverse("table:dispute", args=[open_.token]))
    table.visit("table link", base + reverse("table:sheet", args=[open_.token]))
    seat = open_.seats.get(number=2).player.name
    enter(phone, seat, "Grand", tops=1, declarer_points=70)  # the live value and the entry: htmx
    phone.wait_for_selector("text=Deal 1 entered: +48.")
    table.check("table link after an entry")
    assert open_.games.count() == 1


def test_confirmations_and_the_language_switch_work_without_inline_script(live_server, desktop):
    chef = factories.user("chef", superuser=True)
    t = factories.tournament(directors=[chef])
    registration = factories.registered(t, 1)[0]
    base = live_server.url
    director = Watched(desktop)
    log_in(desktop, base, "chef")
    desktop.wait_for_url(base + "/")
    director.visit("players", base + reverse("director:players", args=[t.pk]))
    asked = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    desktop.once("dialog", lambda dialog: answer(dialog, accept=False))
    desktop.click("button:has-text('remove')")
    # The live server answers one request at a time, in order: a form sent by the click
    # would be answered before this request.
    assert desktop.evaluate("fetch(location.href).then(r => r.status)") == 200
    assert asked == [f"Remove {registration.player.name} from this tournament?"]
    assert Registration.objects.filter(pk=registration.pk).exists()
    desktop.once("dialog", lambda dialog: answer(dialog, accept=True))
    with desktop.expect_navigation():
        desktop.click("button:has-text('remove')")
    assert not Registration.objects.filter(pk=registration.pk).exists()
    director.check("players after removing")

    with desktop.expect_navigation():
        desktop.click(".lang a[lang=de]")
    assert desktop.locator("html").get_attribute("lang") == "de"
    director.check("players in German")
