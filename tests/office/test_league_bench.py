"""The national league profile: ``bench --league-teams`` and ``loadtest --profile publish``
work end to end at a tiny size (speed is their output, never asserted here), and the schedule
is the federation's: in a group of 16 every team meets every other exactly once in five days."""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from itertools import combinations

import pytest
from django.core.management import CommandError, call_command

from leagues.models import League
from perf import national, national_pages

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scratch_template")]


def run(command: str, *args: str) -> tuple[str, CommandError | None]:
    out = io.StringIO()
    try:
        call_command(command, *args, stdout=out)
    except CommandError as error:  # a busy test machine may miss a time target: the report is still printed
        return out.getvalue(), error
    return out.getvalue(), None


def test_a_group_of_16_meets_every_other_team_once_in_five_league_days():
    met = Counter()
    for day in range(1, 6):
        fours = national.quartets(16, day, None)
        assert sorted(team for four in fours for team in four) == list(range(16))
        met.update(frozenset(pair) for four in fours for pair in combinations(four, 2))
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}
    assert national.group_sizes(1000) == [16] * 62 + [8]
    assert sorted(team for four in national.quartets(8, 1, random.Random(1)) for team in four) == list(range(8))


def test_the_league_profile_times_its_pages_and_leaves_the_database_alone():
    out, error = run("bench", "--league-teams", "8", "--league-days", "1", "--repeat", "1")
    if error is not None:
        assert "target(s) missed" in str(error) and "FAIL" in out
    assert "national league: 8 teams in 1 groups, 1 league days, 2 match days, 1152 deals" in out
    assert re.search(r"built in \d+ s, database [\d.]+ (KiB|MB)", out)
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("page "))
    rows = [line for line in lines[header + 2 :] if line.strip() and not line.startswith("CommandError")]
    assert [row.split("  ")[0] for row in rows] == [page.name for page in national_pages.PAGES]
    for row in rows:
        assert re.search(r"  \d+\.\d+ m?s  +\d+\.\d KiB  +\d+  +<= 100 ms, <= 250 KiB  +(pass|FAIL)", row), row
    assert "figure " not in out  # the tournament's figures are not run
    assert League.objects.count() == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--league-teams", "6"), "--league-teams must be a multiple of 4"),
        (("--league-teams", "0"), "--league-teams must be a multiple of 4"),
        (("--league-teams", "8", "--league-days", "0"), "--league-days must be at least 1"),
    ],
)
def test_bad_league_arguments_are_refused(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("bench", *args, stdout=io.StringIO())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--league-teams", "10"), "--league-teams must be a multiple of 4"),
        (("--league-teams", "8", "--halls", "3"), "--halls must be 1 to 2"),
        (("--league-teams", "8", "--halls", "1", "--every", "-1"), "--every at least 0"),
    ],
)
def test_bad_publish_arguments_are_refused(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("loadtest", "--profile", "publish", *args, stdout=io.StringIO())


@pytest.mark.slow  # a server process and two match days played: about 15 s
def test_halls_publish_their_match_days_through_the_api_and_nothing_is_lost():
    out, error = run(
        "loadtest", "--profile", "publish", "--league-teams", "8", "--league-days", "1", "--halls", "2", "--every", "0"
    )
    if error is not None:  # only the latency target may miss on a busy test machine
        assert re.fullmatch(r"load test failed: publication p99 .*", str(error)), str(error)
    assert "publications  2 halls, one every 0 s, 1152 deals (576 a file)" in out
    assert "statuses      201: 2" in out
    assert (
        "stored        2 match days: lost 0, stored twice 0, by another host 0, deals differing from the file 0" in out
    )
    assert re.search(r"latency       p50 [\d.]+ s, p95 [\d.]+ s, p99 [\d.]+ s", out)
    assert "errors        0; 5xx: 0" in out
    assert League.objects.count() == 0
