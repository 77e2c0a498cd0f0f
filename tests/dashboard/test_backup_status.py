"""The dashboard says when and where the last backup was made, and what went wrong with
the last attempt; it reads core.backup_status, which core.backups writes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from core import backup_status
from tests import factories
from tests.referees.helpers import director_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    tournament = factories.tournament()
    client.force_login(director_of(tournament))

    def get():
        response = client.get(reverse("director:detail", args=[tournament.pk]))
        assert response.status_code == 200
        return response.content.decode()

    return get


def test_before_any_backup_the_dashboard_says_so(page):
    assert "No backup made yet" in page()


def test_the_last_backup_its_time_and_places(page, tmp_path):
    made = datetime(2026, 11, 26, 20, 55, tzinfo=UTC)
    places = ["/data/backups/skat-office-1.sqlite3", "/media/usb/skat-office-1.sqlite3"]
    backup_status.write(tmp_path, backup_status.BackupStatus(made_at=made, places=places, attempted_at=made))
    html = page()
    assert "Last backup: 21:55 (11/26/2026), in /data/backups/skat-office-1.sqlite3, /media/usb/" in html
    assert "backup-problems" not in html


def test_a_failed_attempt_is_shown_as_a_problem_beside_the_last_good_backup(page, tmp_path):
    made = datetime(2026, 11, 26, 20, 55, tzinfo=UTC)
    later = datetime(2026, 11, 26, 21, 0, tzinfo=UTC)
    problem = "Backup folder /media/usb (SKAT_OFFICE_BACKUP_DIR) cannot be written: the folder is not there."
    status = backup_status.BackupStatus(
        made_at=made, places=["/data/b.sqlite3"], attempted_at=later, problems=[problem]
    )
    backup_status.write(tmp_path, status)
    html = page()
    assert "Last backup: 21:55" in html and f"Backup at 22:00: {problem}" in html


def test_an_unreadable_record_is_no_record(tmp_path):
    backup_status.path(tmp_path).write_text("{not json")
    assert backup_status.read(tmp_path) is None
    backup_status.path(tmp_path).write_text('{"made_at": "yesterday", "places": "x"}')
    assert backup_status.read(tmp_path) == backup_status.BackupStatus()
    # Strict kinds: a number is no place, a problem list holding an object is none.
    backup_status.path(tmp_path).write_text('{"made_at": 1, "places": [1, "/b"], "problems": [{"x": 1}]}')
    assert backup_status.read(tmp_path) == backup_status.BackupStatus()


def test_a_backup_the_full_disk_refused_says_so_beside_the_last_good_one(page, tmp_path, monkeypatch):
    """core.backups records the failure itself: the dashboard's tile names the full disk."""
    import errno

    from core import backups

    monkeypatch.delenv(backups.SECOND_DIR_ENV, raising=False)
    made = datetime(2026, 11, 26, 20, 55, tzinfo=UTC)
    backup_status.write(
        tmp_path, backup_status.BackupStatus(made_at=made, places=["/data/b.sqlite3"], attempted_at=made)
    )

    def no_room(target):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(backups, "_sqlite_copy", no_room)
    monkeypatch.setattr(backups, "_postgres_copy", no_room)
    backups.make_backup(now=datetime(2026, 11, 26, 21, 5, tzinfo=UTC))
    html = page()
    assert "Last backup: 21:55" in html
    assert f"Backup at 22:05: Backup not written to {tmp_path / 'backups'}: the disk is full." in html
