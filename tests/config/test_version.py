"""The office says which version it is: in every page's footer and on the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from skat import __version__

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_every_page_shows_the_version_and_the_licence_in_its_footer():
    page = Client().get(reverse("login")).content.decode()
    assert f"Skat tournament office {__version__} · free software under the GNU AGPL" in page


def test_manage_py_version_names_the_office_and_django():
    done = subprocess.run([sys.executable, "manage.py", "--version"], capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0
    assert done.stdout.decode().startswith(f"skat-office {__version__} (Django 5.")


def test_the_distribution_takes_its_version_from_git_through_the_build():
    """setup.py numbers the commits (tests/test_setup.py) and writes skat/_version.py, which git ignores."""
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    assert "setup(version=version()," in (ROOT / "setup.py").read_text()
    assert "skat/_version.py" in (ROOT / ".gitignore").read_text().splitlines()
    assert (ROOT / "LICENSE").read_text().startswith("GNU AFFERO GENERAL PUBLIC LICENSE")
    assert (
        f"## [{__version__}]" in (ROOT / "CHANGELOG.md").read_text()
        or "## [Unreleased]" in (ROOT / "CHANGELOG.md").read_text()
    )
