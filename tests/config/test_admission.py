"""Entries first under overload (config.admission): spectators beyond the slots never reach Django."""

from __future__ import annotations

import io
import threading

import pytest
from django.utils import translation

from config.admission import KEPT_PAGES, SpectatorAdmission, language_of


class App:
    """A WSGI app that answers at once, or holds a request until released (an expensive page)."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.release = threading.Event()
        self.hold = False
        self.calls: list[str] = []
        self.headers = [("Content-Type", "text/html"), ("ETag", '"mark-7"')]

    def __call__(self, environ, start_response):
        self.calls.append(environ["PATH_INFO"])
        if self.hold:
            self.inside.set()
            self.release.wait(timeout=30)
        start_response("200 OK", list(self.headers))
        return [b"<p>", environ["PATH_INFO"].encode(), b"</p>"]


def call(app, path: str, method: str = "GET", **headers: str) -> tuple[str, dict, bytes]:
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": ""} | headers
    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen.update(status=status, headers=dict(response_headers))

    body = b"".join(app(environ, start_response))
    return seen["status"], seen["headers"], body


@pytest.fixture
def held():
    """One spectator's request inside Django (the only slot taken), released at the end."""
    inner = App()
    admission = SpectatorAdmission(inner, slots=1, retry_after=7)
    inner.hold = True
    first = threading.Thread(target=call, args=(admission, "/p/1/standings/"))
    first.start()
    assert inner.inside.wait(timeout=30)
    yield admission, inner
    inner.release.set()
    first.join()


def test_a_spectator_beyond_the_slots_is_told_to_come_again_in_his_language(held):
    admission, inner = held
    status, headers, body = call(admission, "/p/1/live/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert status.startswith("503") and headers["Retry-After"] == "7" and headers["Cache-Control"] == "no-store"
    with translation.override("de"):
        assert translation.gettext("The office is busy").encode() in body
    assert b"7" in body and len(body) < 1000
    assert inner.calls == ["/p/1/standings/"]  # never reached Django


def test_another_method_of_a_public_page_waits_for_a_slot_too(held):
    """OPTIONS is safe to Django (no CSRF check): the view renders the whole page. A flood of
    it must not pass beside the slots, nor get a copy of the page."""
    admission, inner = held
    for method in ("OPTIONS", "POST"):
        assert call(admission, "/p/1/standings/", method=method)[0].startswith("503")
    assert inner.calls == ["/p/1/standings/"]


def test_entries_and_staff_pages_pass_while_spectators_hold_the_slots(held):
    admission, inner = held
    inner.hold = False
    assert call(admission, "/s/token/", method="POST")[0] == "200 OK"
    assert call(admission, "/t/1/series/2/")[0] == "200 OK"
    assert inner.calls[1:] == ["/s/token/", "/t/1/series/2/"]


def test_a_busy_spectator_gets_the_page_last_answered_or_not_modified():
    inner = App()
    admission = SpectatorAdmission(inner, slots=1, retry_after=5)
    assert call(admission, "/p/1/standings/")[2] == b"<p>/p/1/standings/</p>"
    inner.hold = True
    holder = threading.Thread(target=call, args=(admission, "/p/1/live/"))
    holder.start()
    assert inner.inside.wait(timeout=30)
    try:
        status, headers, body = call(admission, "/p/1/standings/")
        assert (status, body, headers["ETag"]) == ("200 OK", b"<p>/p/1/standings/</p>", '"mark-7"')
        status, _headers, body = call(admission, "/p/1/standings/", HTTP_IF_NONE_MATCH='"mark-7"')
        assert (status, body) == ("304 Not Modified", b"")
        # Another language's page was never answered: no copy of it, busy.
        assert call(admission, "/p/1/standings/", HTTP_ACCEPT_LANGUAGE="de")[0].startswith("503")
    finally:
        inner.release.set()
        holder.join()
    assert inner.calls == ["/p/1/standings/", "/p/1/live/"]


def test_an_answer_that_sets_a_cookie_is_never_handed_to_another_spectator():
    inner = App()
    inner.headers.append(("Set-Cookie", "sessionid=abc"))
    admission = SpectatorAdmission(inner, slots=1, retry_after=5)
    call(admission, "/p/1/standings/")
    assert not admission.kept


def test_a_logged_in_page_is_never_handed_to_a_spectator():
    """A director's /p/ page names him, holds his log-out form's CSRF token and, before
    publication, previews the standings: no busy spectator may get a copy of it."""
    inner = App()
    admission = SpectatorAdmission(inner, slots=1, retry_after=5)
    call(admission, "/p/1/live/", HTTP_COOKIE="csrftoken=abc; sessionid=director")
    assert not admission.kept


def test_a_spectator_cannot_poison_the_copy_with_a_fragment_or_get_a_copy_when_logged_in():
    inner = App()
    admission = SpectatorAdmission(inner, slots=1, retry_after=5)
    call(admission, "/p/1/live/", HTTP_HX_REQUEST="true")  # the board alone (Vary: HX-Request)
    assert not admission.kept
    call(admission, "/p/1/standings/")
    inner.hold = True
    holder = threading.Thread(target=call, args=(admission, "/p/1/live/"))
    holder.start()
    assert inner.inside.wait(timeout=30)
    try:
        assert call(admission, "/p/1/standings/")[0] == "200 OK"
        # The director's browser sees his own page or none: busy, not the public copy.
        assert call(admission, "/p/1/standings/", HTTP_COOKIE="sessionid=director")[0].startswith("503")
        assert call(admission, "/p/1/standings/", HTTP_HX_REQUEST="true")[0].startswith("503")
    finally:
        inner.release.set()
        holder.join()


@pytest.mark.parametrize(
    "cookie", ["django_language=en; django_language=de", 'django_language="de"', "django_language = de"]
)
def test_the_copy_is_keyed_by_the_language_django_reads_from_the_cookie(cookie):
    assert language_of({"HTTP_COOKIE": cookie, "HTTP_ACCEPT_LANGUAGE": "en"}) == "de"


def test_a_page_in_another_language_than_its_key_is_not_kept():
    """Whatever way a spectator finds to make the key and Django's language differ, the
    German page is never handed to the English spectators."""
    inner = App()
    inner.headers.append(("Content-Language", "de"))
    admission = SpectatorAdmission(inner, slots=1, retry_after=5)
    call(admission, "/p/1/standings/", HTTP_ACCEPT_LANGUAGE="en")
    assert not admission.kept
    call(admission, "/p/1/standings/", HTTP_ACCEPT_LANGUAGE="de")
    assert list(admission.kept) == [("/p/1/standings/", "", "de")]


def test_invented_queries_do_not_push_out_the_page_the_flood_asks_for():
    inner = App()
    admission = SpectatorAdmission(inner, slots=1, retry_after=5)
    call(admission, "/p/1/standings/")
    for n in range(KEPT_PAGES - 1):
        call(admission, "/p/1/standings/", QUERY_STRING=f"x={n}")
    admission.slots.acquire()  # every slot taken: the flood gets copies
    try:
        assert call(admission, "/p/1/standings/")[0] == "200 OK"
    finally:
        admission.slots.release()
    call(admission, "/p/1/standings/", QUERY_STRING="x=again")
    assert ("/p/1/standings/", "", "en") in admission.kept
    assert ("/p/1/standings/", "x=0", "en") not in admission.kept


@pytest.mark.django_db
def test_the_directors_projector_preview_never_reaches_a_busy_spectator(settings):
    """A standings preview meets the spectators' copies: the director opens /p/<id>/live/ before publishing;
    the page (no cookie set) must not become the copy a flood of spectators gets."""
    from django.core.signals import request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections
    from django.test import Client
    from django.urls import reverse

    from tests import factories

    tournament = factories.tournament(standings_public=False)
    director = factories.user()
    tournament.directors.add(director)
    client = Client()
    client.force_login(director)
    path = reverse("public:live", args=[tournament.pk])
    admission = SpectatorAdmission(get_wsgi_application(), slots=1, retry_after=5)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    server = {"SERVER_NAME": "testserver", "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO()}
    request_started.disconnect(close_old_connections)  # as the test client does: the test's transaction stays
    try:
        status, headers, body = call(admission, path, HTTP_COOKIE=cookie, **server)
        assert status == "200 OK" and b"data-preview" in body and "Set-Cookie" not in headers
        admission.slots.acquire()  # the flood: every slot taken
        try:
            status, _headers, body = call(admission, path, **server)
        finally:
            admission.slots.release()
    finally:
        request_started.connect(close_old_connections)
    assert status.startswith("503") and b"data-preview" not in body


def test_a_page_answered_a_moment_ago_goes_to_the_next_spectators_even_with_slots_free(settings):
    """3,000 spectators reloading every 30 s cost one computation of the page every
    SPECTATOR_FRESH_SECONDS, not 100 a second; older, it is computed again."""
    settings.SPECTATOR_FRESH_SECONDS = 60  # the copy is aged by hand below, not by a slow machine
    inner = App()
    admission = SpectatorAdmission(inner, slots=4, retry_after=5)
    answers = [call(admission, "/p/1/standings/") for _ in range(50)]
    assert inner.calls == ["/p/1/standings/"]
    assert {(status, body) for status, _headers, body in answers} == {("200 OK", b"<p>/p/1/standings/</p>")}
    assert call(admission, "/p/1/standings/", HTTP_IF_NONE_MATCH='"mark-7"')[0] == "304 Not Modified"
    # A logged-in browser, htmx's fragment and a POST are never given the copy.
    call(admission, "/p/1/standings/", HTTP_COOKIE="sessionid=director")
    call(admission, "/p/1/standings/", HTTP_HX_REQUEST="true")
    call(admission, "/p/1/standings/", method="POST")
    assert len(inner.calls) == 4
    admission.kept[("/p/1/standings/", "", "en")].at -= 60.5
    call(admission, "/p/1/standings/")
    assert len(inner.calls) == 5


def test_without_a_fresh_interval_every_spectator_with_a_slot_reaches_django(settings):
    settings.SPECTATOR_FRESH_SECONDS = 0
    inner = App()
    admission = SpectatorAdmission(inner, slots=4, retry_after=5)
    for _ in range(3):
        call(admission, "/p/1/standings/")
    assert len(inner.calls) == 3


@pytest.mark.django_db
def test_the_public_standings_set_no_cookie_so_the_crowd_gets_their_copy(settings):
    """The top bar's language switch is a link, not a form with a CSRF token: an anonymous
    standings page sets no cookie and is kept for the next spectators (before, every
    answer set a CSRF cookie, was personal, and 3,000 spectators were computed one by one)."""
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections
    from django.urls import reverse

    from tests import factories

    tournament = factories.tournament(standings_public=True)
    admission = SpectatorAdmission(get_wsgi_application(), slots=2, retry_after=5)
    server = {"SERVER_NAME": "testserver", "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO()}
    # As the test client does: the test's transaction stays open across the two requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        for name in ("public:standings", "public:live"):
            status, headers, body = call(admission, reverse(name, args=[tournament.pk]), **server)
            assert status == "200 OK" and "Set-Cookie" not in headers, name
            assert b"csrfmiddlewaretoken" not in body
            assert name == "public:live" or b"/lang/de/?next=" in body  # the projector has no top bar
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert len(admission.kept) == 2


def test_a_page_is_computed_by_one_request_at_a_time_the_crowd_gets_its_last_copy(settings):
    """Every entry changes the standings, so each computation of 3,000 players' standings
    is a new one: while one runs, the next spectators get the last copy (or "busy" when
    there is none yet), never a second computation beside it, whatever slots are free."""
    settings.SPECTATOR_FRESH_SECONDS = 1
    inner = App()
    admission = SpectatorAdmission(inner, slots=4, retry_after=5)
    call(admission, "/p/1/standings/")
    admission.kept[("/p/1/standings/", "", "en")].at -= 10  # older than fresh, within BUSY_COPY_SECONDS
    inner.hold = True
    computing = threading.Thread(target=call, args=(admission, "/p/1/standings/"))
    computing.start()
    assert inner.inside.wait(timeout=30)
    try:
        for _ in range(5):
            status, _headers, body = call(admission, "/p/1/standings/")
            assert (status, body) == ("200 OK", b"<p>/p/1/standings/</p>")
        # Another page, and a logged-in browser's own, are computed beside it.
        inner.hold = False
        assert call(admission, "/p/1/statistics/")[0] == "200 OK"
        assert call(admission, "/p/1/standings/", HTTP_COOKIE="sessionid=director")[0] == "200 OK"
    finally:
        inner.release.set()
        computing.join()
    assert inner.calls == ["/p/1/standings/", "/p/1/standings/", "/p/1/statistics/", "/p/1/standings/"]
    assert not admission.computing


def test_without_any_copy_the_crowd_is_told_busy_while_the_first_computation_runs(settings):
    inner = App()
    admission = SpectatorAdmission(inner, slots=4, retry_after=5)
    inner.hold = True
    computing = threading.Thread(target=call, args=(admission, "/p/1/standings/"))
    computing.start()
    assert inner.inside.wait(timeout=30)
    try:
        assert call(admission, "/p/1/standings/")[0].startswith("503")
    finally:
        inner.release.set()
        computing.join()
    assert inner.calls == ["/p/1/standings/"]
