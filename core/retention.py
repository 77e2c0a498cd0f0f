"""Which backups a folder keeps: the whole evening, not only its last two hours.

A backup every five minutes and "the newest 24" kept only the last two hours: a mistake
noticed at 23:00 in the first series could no longer be looked up. Kept now, by time:

- every backup of the last hour (``KEEP_ALL_MINUTES``);
- the backup after each finished series (reason ``series``) of the last ``SERIES_HOURS``;
- of the last ``HOURLY_HOURS``, the newest of each hour;
- before that, the newest of each day (an earlier evening's last state);
- at most ``cap`` of them (``BACKUP_KEEP``): the oldest go first, the newest always stays.

The safety copies ``restore`` makes before it replaces a database are kept apart: the
newest ``SAFETY_KEEP`` stay, whatever their age. Pure: names and a time in, names out.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

KEEP_ALL_MINUTES = 60
HOURLY_HOURS = 24
SERIES_HOURS = 24
SAFETY_KEEP = 5
STAMP = "%Y-%m-%d_%H-%M-%S-%f"
STAMP_LENGTH = len("2026-11-26_21-55-00-000")


def made_at(path: Path, prefix: str) -> datetime | None:
    """The local time in a backup's name (``skat-office-2026-11-26_21-55-00-000...``)."""
    stamp = path.name[len(prefix) : len(prefix) + STAMP_LENGTH]
    try:
        return datetime.strptime(stamp, STAMP)
    except ValueError:
        return None


def _bucket(moment: datetime, now: datetime) -> tuple:
    if now - moment <= timedelta(hours=HOURLY_HOURS):
        return ("hour", moment.replace(minute=0, second=0, microsecond=0))
    return ("day", moment.date())


def to_delete(paths: list[Path], now: datetime, cap: int, prefix: str, safety_mark: str) -> list[Path]:
    """The backups among ``paths`` to delete at local time ``now`` (naive), oldest first."""
    safety = sorted((p for p in paths if safety_mark in p.name), key=lambda p: p.name)
    rotating = sorted((p for p in paths if safety_mark not in p.name), key=lambda p: p.name)
    gone = safety[: max(0, len(safety) - SAFETY_KEEP)]
    kept: list[Path] = []
    newest_of: set[tuple] = set()
    for path in reversed(rotating):  # newest first: the first of each hour or day is its newest
        moment = made_at(path, prefix)
        if moment is None:
            kept.append(path)  # not named by the office: left alone
            continue
        age = now - moment
        bucket = _bucket(moment, now)
        recent = age <= timedelta(minutes=KEEP_ALL_MINUTES)
        series_end = path.stem.endswith("-series") and age <= timedelta(hours=SERIES_HOURS)
        if recent or series_end or bucket not in newest_of:
            kept.append(path)
        else:
            gone.append(path)
        newest_of.add(bucket)
    gone.extend(kept[max(1, cap) :])  # over the cap: the oldest of those kept
    return sorted(gone, key=lambda p: p.name)
