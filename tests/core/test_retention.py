"""core.retention: a folder keeps the whole evening, by time, under a cap."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from core.retention import SAFETY_KEEP, made_at, to_delete

PREFIX = "skat-office-"
NOW = datetime(2026, 11, 26, 23, 30)


def named(moment: datetime, reason: str = "") -> Path:
    stamp = moment.strftime("%Y-%m-%d_%H-%M-%S-%f")[:-3]
    return Path(f"/b/{PREFIX}{stamp}{'-' + reason if reason else ''}.sqlite3")


def every_five_minutes(hours: float) -> list[Path]:
    return [named(NOW - timedelta(minutes=5 * i)) for i in range(int(hours * 12))]


def kept(paths: list[Path], cap: int = 1000, now: datetime = NOW) -> list[Path]:
    gone = set(to_delete(paths, now, cap, PREFIX, "before-restore"))
    return [p for p in paths if p not in gone]


def test_the_time_is_read_from_the_name():
    assert made_at(named(NOW, "series"), PREFIX) == NOW
    assert made_at(Path("/b/skat-office-garbage.sqlite3"), PREFIX) is None


def test_every_backup_of_the_last_hour_then_one_per_hour_of_the_evening():
    paths = every_five_minutes(6)
    stays = kept(paths)
    recent = [p for p in paths if NOW - made_at(p, PREFIX) <= timedelta(hours=1)]
    assert set(recent) <= set(stays) and len(recent) == 13  # 23:30 back to 22:30
    older = [made_at(p, PREFIX) for p in stays if p not in recent]
    # Before that one per clock hour, the newest of each (the 22 o'clock hour has 22:30).
    assert sorted(older) == [datetime(2026, 11, 26, h, 55) for h in (17, 18, 19, 20, 21)]
    assert len(paths) == 72 and len(stays) == 18


def test_each_series_end_of_the_evening_stays_and_a_day_old_evening_keeps_its_last():
    series = [named(NOW - timedelta(hours=h, minutes=7), "series") for h in (2, 3, 4)]
    yesterday = [named(NOW - timedelta(days=1, hours=2, minutes=m)) for m in (0, 5, 10)]
    stays = kept(every_five_minutes(5) + series + yesterday)
    assert set(series) <= set(stays)
    assert [p for p in yesterday if p in stays] == [yesterday[0]]  # the newest of that day


def test_the_cap_drops_the_oldest_and_keeps_the_newest():
    paths = every_five_minutes(3)
    assert kept(paths, cap=4) == paths[:4]
    assert kept(paths, cap=0) == paths[:1]


def test_safety_copies_are_kept_apart_the_newest_few():
    safety = [named(NOW - timedelta(days=d), "before-restore") for d in range(SAFETY_KEEP + 2)]
    stays = kept(safety + every_five_minutes(1), cap=1)
    assert [p for p in stays if "before-restore" in p.name] == safety[:SAFETY_KEEP]


def test_files_not_named_by_the_office_are_left_alone():
    odd = Path(f"/b/{PREFIX}copied-by-hand.sqlite3")
    assert odd in kept([odd, *every_five_minutes(2)])
