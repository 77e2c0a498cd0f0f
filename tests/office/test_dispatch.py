"""Entries first inside each serving process (office.dispatch): the order waitress's threads take requests in."""

from __future__ import annotations

from types import SimpleNamespace

from office.dispatch import EntriesFirst, goes_first


def task(command: str, path: str) -> SimpleNamespace:
    return SimpleNamespace(request=SimpleNamespace(command=command, path=path), name=f"{command} {path}")


def test_entries_and_spectators_pass_the_waiting_pages_and_keep_their_own_order():
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
        "GET /p/1/standings/",
        "POST /s/token-4/",
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
        "GET /p/1/projector/",
        "POST /s/token-2/",
        "POST /s/token-3/",
        "GET /t/2/",
    ]
