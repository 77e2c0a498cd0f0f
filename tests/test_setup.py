"""The build (setup.py): a version from git that grows with every commit, and the help in every wheel."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def load_setup():
    """setup.py's functions, without running setup() (it runs only as __main__, as setuptools runs it)."""
    spec = importlib.util.spec_from_file_location("skat_office_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = load_setup()


def git(repo: Path, *args: str) -> str:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@127.0.0.1", "-c", "commit.gpgsign=false"]
    done = subprocess.run(["git", "-C", str(repo), *identity, *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit(repo: Path, text: str) -> None:
    (repo / "file.txt").write_text(text)
    git(repo, "add", "file.txt")
    git(repo, "commit", "-q", "-m", text)


@pytest.fixture
def repo(tmp_path) -> Path:
    git(tmp_path, "init", "-q")
    commit(tmp_path, "first")
    return tmp_path


def test_every_commit_is_a_higher_version_than_the_one_before(repo):
    first = build.version_from_git(repo, "0.3")
    commit(repo, "second")
    second = build.version_from_git(repo, "0.3")
    assert first == f"0.3.dev1+g{git(repo, 'rev-parse', '--short=9', 'HEAD~1')}"
    assert Version(build.version_from_git(repo, "0.3")) == Version(second)
    assert Version("0.2.0") < Version(first) < Version(second) < Version("0.3.0")


def test_a_tagged_commit_is_its_release_and_the_next_release_numbers_the_commits_after(repo):
    git(repo, "tag", "v0.3.0")
    assert build.version_from_git(repo, "0.3") == "0.3.0"
    commit(repo, "after the release")
    after = build.version_from_git(repo, "0.4")  # RELEASE raised in the commit after tagging
    assert Version(after) > Version("0.3.0")
    git(repo, "tag", "not-a-release")  # only vX.Y.Z tags are releases
    assert build.version_from_git(repo, "0.4") == after


def test_without_git_the_named_version_else_the_sdists_else_one_below_every_build(tmp_path):
    assert build.version_from_git(tmp_path) is None
    assert build.version(tmp_path, {}) == f"{build.RELEASE}.dev0+unknown"
    assert Version(build.version(tmp_path, {})) < Version(f"{build.RELEASE}.dev1")
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.4\nName: skat-office\nVersion: 0.3.dev812+gabc\n")
    assert build.version(tmp_path, {}) == "0.3.dev812+gabc"
    assert build.version(tmp_path, {"SKAT_OFFICE_VERSION": " 0.3.dev900+gdef "}) == "0.3.dev900+gdef"
    assert build.version(tmp_path, {"SKAT_OFFICE_VERSION": ""}) == "0.3.dev812+gabc"


def test_the_next_release_is_above_every_release_tagged_and_the_last_fixed_version():
    """The tag policy (docs: Versions): RELEASE is raised in the commit after tagging vRELEASE.0."""
    tags = git(ROOT, "tag", "--list", "v[0-9]*").split()
    for tag in [*tags, "v0.2.0"]:
        assert Version(tag[1:]) < Version(f"{build.RELEASE}.dev1"), f"raise RELEASE in setup.py above {tag}"


def test_the_office_knows_its_version():
    from skat import __version__

    assert Version(__version__) > Version("0.2.0")


def test_without_mkdocs_yml_the_help_is_not_built_and_the_build_says_why(tmp_path):
    expected = r"mkdocs.yml is missing: build the wheel from a checkout or its sdist"
    with pytest.raises(build.HelpNotBuilt, match=expected):
        build.build_help(tmp_path, tmp_path / "site")


def wheel_from(clone: Path, out: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(clone)],
        capture_output=True,
        check=True,
    )
    (wheel,) = out.glob("*.whl")
    return wheel


def test_a_wheel_of_a_later_commit_upgrades_the_installed_office_and_carries_the_help(tmp_path):
    """Slow: two wheels from two commits of a clone (no docs/site there: the build makes the help),
    installed one over the other as a director does with the newer file."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-local", str(ROOT), str(clone)], check=True, capture_output=True)
    older = wheel_from(clone, tmp_path / "older")
    git(clone, "commit", "-q", "--allow-empty", "-m", "a later commit")
    newer = wheel_from(clone, tmp_path / "newer")
    with zipfile.ZipFile(newer) as wheel:
        names = set(wheel.namelist())
        assert {"config/resources/docs/site/index.html", "config/resources/docs/site/de/index.html"} <= names
        version_file = wheel.read("skat/_version.py").decode()
    older_version, newer_version = (name.name.split("-")[1] for name in (older, newer))
    assert Version(older_version) < Version(newer_version) and f'"{newer_version}"' in version_file
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index"]
    subprocess.run([*pip, str(older)], check=True, capture_output=True)
    upgrade = subprocess.run([*pip, str(newer)], check=True, capture_output=True, text=True)
    installed = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('skat-office'))"],
        cwd=tmp_path,  # not the checkout, whose egg-info names the checkout's version
        capture_output=True,
        text=True,
        check=True,
    )
    assert installed.stdout.strip() == newer_version, upgrade.stdout + upgrade.stderr
