"""`manage.py loadtest --profile seats`, without starting a server: the hall it builds (series 2
drawn, published, start numbers), the players' links made with the server's key, the
lookup's surname, the report's targets, and the options refused. The whole run is
`manage.py loadtest --profile seats --players 40 --rate 10 --burst 5` (the docs, "Benchmarks")."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from perf import seats
from perf.scratch import Scratch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scratch_template")]


def test_the_hall_is_drawn_and_each_seeker_finds_his_page_by_link_and_by_lookup(client):
    key = "seats-test-" + "k" * 50
    tournament, seekers = seats.setup(12, 1, lambda *a: None, key)
    assert tournament.standings_public and tournament.series.get(number=2).status == "drawn"
    assert [s.start_number for s in seekers] == list(range(1, 12))  # one withdrew after series 1
    with override_settings(SECRET_KEY=key):
        page = client.get(seekers[0].path)
        assert page.status_code == 200 and b"Table " in page.content
        lookup = client.post(
            f"/me/find/{tournament.pk}/", {"start_number": seekers[3].start_number, "surname": seekers[3].surname}
        )
        # His seat, not his own page: start number and surname are public.
        assert lookup.status_code == 200 and b"Table " in lookup.content
        assert seekers[3].path.encode() not in lookup.content


def test_the_report_fails_on_the_target_and_on_any_error():
    scratch = Scratch(description="SQLite x", url="sqlite://", vendor="sqlite", cache_dir="/tmp")
    stats = seats.SeatStats()
    stats.latencies["own page"] = [0.05] * 199 + [0.3]
    stats.latencies["lookup"] = [0.02]
    stats.statuses[200] = 100
    passing = seats.report(scratch, "waitress", 40, stats, 1.0, 0.1, "", rate=50)
    assert passing.failed == [] and passing.lines[-1].endswith("pass")
    stats.latencies["own page"] += [0.3, 0.3]
    stats.errors.append("lookup answered 404 without his seat")
    failing = seats.report(scratch, "waitress", 40, stats, 1.0, 0.1, "", rate=50)
    assert failing.failed == ["refused or failed requests", "own page p99 300 ms >= 200 ms"]


@pytest.mark.parametrize("options", [("--players", "3"), ("--rate", "0"), ("--lookup-share", "2")])
def test_impossible_options_are_refused(options):
    with pytest.raises(CommandError):
        call_command("loadtest", "--profile", "seats", *options)
