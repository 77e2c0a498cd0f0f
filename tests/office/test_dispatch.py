"""Entries first inside each serving process (office.dispatch): the order waitress's threads take requests in."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from office import dispatch
from office.dispatch import EntriesFirst


def task(command: str, path: str) -> SimpleNamespace:
    return SimpleNamespace(request=SimpleNamespace(command=command, path=path), name=f"{command} {path}")


def goes_first(waiting: SimpleNamespace) -> bool:
    """Whether the dispatcher queues ``waiting`` among those that pass the other requests."""
    EntriesFirst().add_task(waiting)
    return waiting.skat_first


def test_entries_pass_spectators_and_both_pass_the_waiting_pages_each_in_their_own_order():
    dispatcher = EntriesFirst()  # no threads: the queue only fills
    for waiting in (
        task("GET", "/s/token-1/"),  # a phone opening its table link: 24 KiB of sheet
        task("GET", "/t/1/"),  # the director's dashboard
        task("POST", "/s/token-2/"),  # an entry
        task("GET", "/p/1/standings/"),  # a spectator (the kept copy)
        task("GET", "/s/token-3/"),
        task("POST", "/s/token-4/"),
        task("POST", "/t/1/draw/"),  # the director's POST is not an entry
    ):
        dispatcher.add_task(waiting)
    assert [queued.name for queued in dispatcher.queue] == [
        "POST /s/token-2/",
        "POST /s/token-4/",  # an entry passes the spectators too: never a queue in front of an entry
        "GET /p/1/standings/",
        "GET /s/token-1/",
        "GET /t/1/",
        "GET /s/token-3/",
        "POST /t/1/draw/",
    ]


def test_a_request_waitress_could_not_parse_waits_its_turn():
    assert not goes_first(SimpleNamespace(request=None))
    assert not goes_first(SimpleNamespace(request=SimpleNamespace(command="POST", path=None)))
    assert goes_first(task("HEAD", "/p/1/live/")) and not goes_first(task("PUT", "/s/x/"))


def test_a_pipelined_request_is_judged_by_itself_not_by_the_one_still_being_read():
    """waitress queues the channel again for the next of its ``requests`` while ``request``
    is the following one, half read (or None)."""
    entry = SimpleNamespace(command="POST", path="/s/token-2/")
    dashboard = SimpleNamespace(command="GET", path="/t/1/")
    assert goes_first(SimpleNamespace(requests=[entry], request=None))
    assert goes_first(SimpleNamespace(requests=[entry], request=dashboard))
    assert not goes_first(SimpleNamespace(requests=[dashboard], request=entry))


def test_a_request_passed_for_pass_seconds_is_passed_no_more(monkeypatch):
    """A flood of spectators beyond the threads' pace must not hold the director's page for ever."""
    from office import dispatch

    now = [100.0]
    monkeypatch.setattr(dispatch.time, "monotonic", lambda: now[0])
    dispatcher = EntriesFirst()
    dispatcher.add_task(task("GET", "/t/1/"))
    now[0] += dispatch.PASS_SECONDS / 2
    dispatcher.add_task(task("GET", "/p/1/standings/"))
    now[0] += dispatch.PASS_SECONDS
    dispatcher.add_task(task("GET", "/p/1/projector/"))
    dispatcher.add_task(task("POST", "/s/token-2/"))
    dispatcher.add_task(task("GET", "/t/2/"))  # not waiting long: still passed
    dispatcher.add_task(task("POST", "/s/token-3/"))
    assert [queued.name for queued in dispatcher.queue] == [
        "GET /p/1/standings/",
        "GET /t/1/",
        "POST /s/token-2/",  # entries pass the spectators, but not the page waiting PASS_SECONDS
        "POST /s/token-3/",
        "GET /p/1/projector/",
        "GET /t/2/",
    ]


def test_at_most_others_of_the_other_requests_run_at_once_and_entries_pass_them():
    """The phones opening their links in a burst hold at most ``others`` threads; an entry
    (and a spectator) is taken while the rest of them wait in the queue."""
    dispatcher = EntriesFirst(others=1)
    for waiting in (task("GET", "/s/token-1/"), task("GET", "/t/1/")):
        dispatcher.add_task(waiting)
    first = dispatcher.take()
    assert first.name == "GET /s/token-1/"
    assert dispatcher.take() is None  # the dashboard waits: one other runs already
    dispatcher.add_task(task("POST", "/s/token-2/"))
    dispatcher.add_task(task("GET", "/static/css/office.css"))
    assert [dispatcher.take().name, dispatcher.take().name] == ["POST /s/token-2/", "GET /static/css/office.css"]
    assert dispatcher.take() is None
    dispatcher.others_running -= 1  # the link's page is answered (handler_thread does this)
    assert dispatcher.take().name == "GET /t/1/"


class Served:
    """A queued request whose service blocks until the test lets it finish."""

    def __init__(self, command: str, path: str) -> None:
        self.request = SimpleNamespace(command=command, path=path)
        self.started, self.finish = threading.Event(), threading.Event()

    def service(self) -> None:
        self.started.set()
        assert self.finish.wait(10)


def test_the_threads_serve_an_entry_while_the_other_requests_wait_their_turn():
    dispatcher = EntriesFirst(others=1)
    dispatcher.set_thread_count(3)
    try:
        page, dashboard, entry = Served("GET", "/s/token-1/"), Served("GET", "/t/1/"), Served("POST", "/s/token-2/")
        dispatcher.add_task(page)
        assert page.started.wait(5)
        dispatcher.add_task(dashboard)
        dispatcher.add_task(entry)
        assert entry.started.wait(5)  # a thread is free, and the entry takes it
        assert not dashboard.started.is_set()  # two threads idle, but one other runs already
        entry.finish.set()
        page.finish.set()
        assert dashboard.started.wait(5)  # its turn once the page is answered
        dashboard.finish.set()
    finally:
        for served in (page, dashboard, entry):
            served.finish.set()
        dispatcher.shutdown(cancel_pending=True, timeout=5)


def test_the_number_of_others_comes_from_the_environment(monkeypatch, caplog):
    from office import dispatch

    monkeypatch.setenv("SERVE_OTHERS_AT_ONCE", "3")
    assert dispatch.others_at_once() == 3 and EntriesFirst().others == 3
    monkeypatch.setenv("SERVE_OTHERS_AT_ONCE", "")
    assert dispatch.others_at_once() == 2 and not caplog.records
    for unusable in ("0", "-1", "many", "²", "9" * 5000):
        monkeypatch.setenv("SERVE_OTHERS_AT_ONCE", unusable)
        assert dispatch.others_at_once() == 2
        assert f"SERVE_OTHERS_AT_ONCE={unusable[:40]!r} is not a whole number of at least 1" in caplog.text


def answer_of(app, environ: dict) -> tuple[str, dict, bytes]:
    seen = {}
    body = b"".join(app(environ, lambda status, headers: seen.update(status=status, headers=dict(headers))))
    return seen["status"], seen["headers"], body


def django_page(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/html")])
    return [b"the table's sheet"]


def test_a_page_that_waited_shed_seconds_for_a_thread_is_told_busy_not_computed(monkeypatch):
    """4,500 phones opening their links at once (three times the hall) queue beyond their
    patience: a page asked for after SHED_SECONDS in the queue is answered "busy, again in
    N s" (it reloads itself) without Django, a form sent is never dropped."""
    from office import dispatch

    app = dispatch.ShedStale(django_page)
    page = {"REQUEST_METHOD": "GET", "PATH_INFO": "/s/token-1/", "HTTP_ACCEPT_LANGUAGE": "de"}
    dispatch.serving.stale = True
    status, headers, body = answer_of(app, page)
    assert status.startswith("503") and headers["Retry-After"] == "5" and headers["Cache-Control"] == "no-store"
    assert "Viele Handys fragen gerade gleichzeitig an" in body.decode() and 'http-equiv="refresh"' in body.decode()
    assert answer_of(app, page)[2] == b"the table's sheet"  # the next request of the channel is not judged
    dispatch.serving.stale = True
    assert answer_of(app, page | {"REQUEST_METHOD": "POST"})[2] == b"the table's sheet"
    dispatch.serving.stale = True
    assert answer_of(app, page | {"REQUEST_METHOD": "HEAD"})[:2][0].startswith("503")
    dispatch.serving.stale = False
    assert answer_of(app, page)[2] == b"the table's sheet"


def test_a_page_told_busy_without_django_is_in_the_access_log_with_its_token_hidden(caplog):
    """The answer below Django never passed the access log's middleware: ShedStale writes
    its line itself (config.access.answered_here), the table link's token as its fingerprint."""
    import logging

    from config.access import token_fingerprint

    app = dispatch.ShedStale(django_page)
    page = {"REQUEST_METHOD": "GET", "PATH_INFO": "/s/token-1/", "REMOTE_ADDR": "10.0.0.5"}
    access = logging.getLogger("office.access")
    level = access.level
    access.setLevel(logging.INFO)
    try:
        with caplog.at_level(logging.INFO, logger="office.access"):
            dispatch.serving.stale = True
            assert answer_of(app, page)[0].startswith("503")
    finally:
        access.setLevel(level)
        dispatch.serving.stale = False
    (line,) = [r.getMessage() for r in caplog.records if r.name == "office.access"]
    assert line.startswith(f"10.0.0.5 GET /s/{token_fingerprint('token-1')}/ 503 ") and "token-1" not in line


class Judged:
    """A queued request that notes whether its thread judged it stale."""

    def __init__(self, command: str, path: str) -> None:
        self.request = SimpleNamespace(command=command, path=path)
        self.stale, self.done = None, threading.Event()

    def service(self) -> None:
        from office import dispatch

        self.stale = dispatch.serving.stale
        self.done.set()


def test_only_another_request_that_waited_shed_seconds_is_stale(monkeypatch):
    from office import dispatch

    now = [100.0]
    monkeypatch.setattr(dispatch.time, "monotonic", lambda: now[0])
    dispatcher = EntriesFirst(others=4)
    old_page, old_entry, old_spectator = Judged("GET", "/s/a/"), Judged("POST", "/s/b/"), Judged("GET", "/p/1/")
    for queued in (old_page, old_entry, old_spectator):
        dispatcher.add_task(queued)
    now[0] += dispatch.SHED_SECONDS
    fresh = Judged("GET", "/s/c/")
    dispatcher.add_task(fresh)
    dispatcher.set_thread_count(1)
    try:
        for queued in (old_page, old_entry, old_spectator, fresh):
            assert queued.done.wait(5)
    finally:
        dispatcher.shutdown(cancel_pending=True, timeout=5)
    assert [old_page.stale, old_entry.stale, old_spectator.stale, fresh.stale] == [True, False, False, False]


def test_a_hall_check_round_trip_passes_the_waiting_pages():
    """The hall check measures the hall's Wi-Fi by its round trips before play, just when
    the phones open their links: a ping (one small query) waiting behind their sheets for
    one of ``others`` places would count the queue as the Wi-Fi's (lost after 3 s)."""
    dispatcher = EntriesFirst(others=1)
    for waiting in (task("GET", "/s/token-1/"), task("GET", "/t/1/"), task("GET", "/s/token-2/ping/")):
        dispatcher.add_task(waiting)
    assert dispatcher.queue[0].name == "GET /s/token-2/ping/"
    assert goes_first(task("HEAD", "/s/token-2/ping/")) and not goes_first(task("GET", "/s/ping/x/"))


def test_the_health_check_goes_first_so_a_flood_never_makes_a_monitor_restart_the_office():
    assert goes_first(task("GET", "/healthz")) and goes_first(task("HEAD", "/healthz"))
    assert not goes_first(task("GET", "/healthz-and-more")) and not goes_first(task("GET", "/t/healthz"))


def test_the_queue_depth_is_logged_once_per_ten_seconds_with_the_deepest_seen(monkeypatch, caplog):
    """waitress logged a line for every request queued: under a flood, a tenth of the serving
    thread's work. Now one line per DEPTH_LOG_SECONDS, naming the most requests seen waiting."""
    clock = [100.0]
    monkeypatch.setattr(dispatch.time, "monotonic", lambda: clock[0])
    dispatcher = EntriesFirst()  # no threads: every task waits
    with caplog.at_level("WARNING", logger="waitress.queue"):
        for number in range(50):
            dispatcher.add_task(task("POST" if number % 2 else "GET", f"/s/token-{number}/"))
        assert [record.getMessage() for record in caplog.records] == ["Task queue depth is 1"]
        clock[0] += dispatch.DEPTH_LOG_SECONDS
        dispatcher.add_task(task("GET", "/t/1/"))
    assert caplog.records[-1].getMessage() == "Task queue depth is 51 (the most since the line before, 10 s ago: 51)"
    assert len(caplog.records) == 2


def test_a_burst_told_late_is_not_told_as_the_last_ten_seconds(monkeypatch, caplog):
    """A burst within ten seconds of a line, gone by their end, is told with the next line,
    an hour later say: that line tells the depth then and the burst as "since the line
    before", not "the most in the last 10 s" (an hour's peak that seemed to be now)."""
    clock = [100.0]
    monkeypatch.setattr(dispatch.time, "monotonic", lambda: clock[0])
    dispatcher = EntriesFirst()
    with caplog.at_level("WARNING", logger="waitress.queue"):
        dispatcher._tell_depth(1)
        clock[0] += 3
        dispatcher._tell_depth(300)  # the burst, then the queue drains
        clock[0] += 3600
        dispatcher._tell_depth(2)
    assert [record.getMessage() for record in caplog.records] == [
        "Task queue depth is 1",
        "Task queue depth is 2 (the most since the line before, 3603 s ago: 300)",
    ]
