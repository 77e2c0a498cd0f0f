"""Numbers from the environment: the default when empty, one line naming the variable when none."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config import environment


def test_a_whole_number_or_the_default():
    assert environment.whole({}, "SPECTATOR_SLOTS", 2) == 2
    assert environment.whole({"SPECTATOR_SLOTS": " "}, "SPECTATOR_SLOTS", 2) == 2
    assert environment.whole({"SPECTATOR_SLOTS": "0"}, "SPECTATOR_SLOTS", 2) == 0
    assert environment.whole({"SPECTATOR_SLOTS": " 7 "}, "SPECTATOR_SLOTS", 2) == 7


@pytest.mark.parametrize("value", ["abc", "²", "1.5", "-1", "+3", "9" * 5000])
def test_a_whole_number_that_is_none_is_named(value):
    with pytest.raises(ImproperlyConfigured, match=r"^LOGIN_FAILURE_LIMIT must be a whole number of 0 or more, not '"):
        environment.whole({"LOGIN_FAILURE_LIMIT": value}, "LOGIN_FAILURE_LIMIT", 5)


def test_an_amount_or_the_default():
    assert environment.amount({}, "BUSY_COPY_SECONDS", 30) == 30
    assert environment.amount({"BUSY_COPY_SECONDS": "1.5"}, "BUSY_COPY_SECONDS", 30) == 1.5
    assert environment.amount({"BUSY_COPY_SECONDS": "0"}, "BUSY_COPY_SECONDS", 30) == 0


@pytest.mark.parametrize("value", ["abc", "²", "-1", "nan", "inf", "1e999", "9" * 5000])
def test_an_amount_that_is_none_is_named(value):
    with pytest.raises(ImproperlyConfigured, match=r"^BUSY_COPY_SECONDS must be a number of 0 or more, such as 5"):
        environment.amount({"BUSY_COPY_SECONDS": value}, "BUSY_COPY_SECONDS", 30)


def test_a_start_with_a_number_that_is_none_says_so_in_one_line(tmp_path):
    """The settings read them before any command: manage.py prints the one line, no traceback."""
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=settings.BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "SKAT_OFFICE_DATA": str(tmp_path), "LOGIN_FAILURE_LIMIT": "five"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "LOGIN_FAILURE_LIMIT must be a whole number of 0 or more, not 'five'." in done.stderr
