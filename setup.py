"""The wheel's build step: the version from git, the built help, and the project's own files into ``config/resources``.

The version (docs: Versions): ``RELEASE.devN+gHASH`` for a commit that is no release,
N the number of commits in its history, so every later commit of main is a higher
version and ``pip install`` of a newer file upgrades; a commit tagged ``vX.Y.Z`` is
``X.Y.Z``. An sdist carries its version in PKG-INFO; a copy without git metadata nor
PKG-INFO is ``RELEASE.dev0+unknown``, lower than any build from git. The build writes it
into ``skat/_version.py`` (the footer, ``skat-office --version``).

The apps' modules and their package data are setuptools' (pyproject.toml). The files the
settings find beside the code in a checkout (config.datadir.resource_dir) are copied into
the wheel's ``config/resources``: templates/, static/, fixtures/ (the demo's players),
locale/ with each catalogue compiled to .mo here (polib: no GNU gettext at install), and
the built help (docs/site) when ``make docs`` has built it. An editable install
(``make install``) reads them in place instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: Copied as they are (a checkout's folder -> the wheel's config/resources/...).
RESOURCES = ("templates", "static", "fixtures", "docs/site")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", ".DS_Store")
#: The next release: raise it in the commit after tagging ``vX.Y.Z`` (docs: Versions).
RELEASE = "0.3"
#: The file every build writes the version into (ignored by git).
VERSION_FILE = Path("skat") / "_version.py"


def git(root: Path, *args: str) -> str | None:
    """``git args`` in ``root``: its output, or None without git or outside a repository."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def version_from_git(root: Path, release: str = RELEASE) -> str | None:
    """The checkout's version: the release its commit is tagged with, else ``release.devN+gHASH``."""
    if git(root, "rev-parse", "--show-toplevel") is None:
        return None
    tag = git(root, "describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD")
    if tag and re.fullmatch(r"v\d+(\.\d+)*", tag):
        return tag[1:]
    count, commit = git(root, "rev-list", "--count", "HEAD"), git(root, "rev-parse", "--short=9", "HEAD")
    if not count or not commit:
        return None
    if git(root, "rev-parse", "--is-shallow-repository") == "true":
        print(
            f"warning: a shallow clone counts {count} commits only: its version is lower than it should be",
            file=sys.stderr,
        )
    return f"{release}.dev{count}+g{commit}"


def version_from_pkg_info(root: Path) -> str | None:
    """An sdist's version, as the build that made it wrote it into PKG-INFO."""
    try:
        text = (root / "PKG-INFO").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r"^Version: *(\S+)", text, re.M)
    return found.group(1) if found else None


def version(root: Path = ROOT, environ: dict[str, str] | None = None) -> str:
    """This build's version: ``SKAT_OFFICE_VERSION`` when set (a build without git metadata,
    e.g. the Dockerfile's), else from git, else from the sdist's PKG-INFO, else ``RELEASE.dev0+unknown``."""
    named = (os.environ if environ is None else environ).get("SKAT_OFFICE_VERSION", "").strip()
    return named or version_from_git(root) or version_from_pkg_info(root) or f"{RELEASE}.dev0+unknown"


def write_version(path: Path, value: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'"""Written by the build (setup.py): the version of this copy of the office."""\n\n__version__ = "{value}"\n',
        encoding="utf-8",
    )


class BuildWithResources(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            # make install: the checkout's version as of now, in place (ignored by git).
            write_version(ROOT / VERSION_FILE, self.distribution.get_version())
            return
        write_version(Path(self.build_lib) / VERSION_FILE, self.distribution.get_version())
        target = Path(self.build_lib) / "config" / "resources"
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for name in RESOURCES:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=SKIPPED)
        if not (target / "docs" / "site" / "index.html").is_file():
            build_help(ROOT, target / "docs" / "site")
        compile_translations(ROOT / "locale", target / "locale")


class HelpNotBuilt(RuntimeError):
    """The wheel would have no help: the reason and what to do, for the build's last line."""


def build_help(root: Path, site: Path) -> None:
    """The help pages (mkdocs.yml: docs/pages) built into ``site``, as ``make docs`` builds
    them but without the screenshots, which need Chromium (make docs takes them). A wheel
    without its help would answer /help/ with "run make docs", which an installed office
    cannot: the build fails instead, saying why."""
    if not (root / "mkdocs.yml").is_file():
        raise HelpNotBuilt(f"{root / 'mkdocs.yml'} is missing: build the wheel from a checkout or its sdist")
    try:
        import material  # noqa: F401 - the theme mkdocs.yml names
        import mkdocs  # noqa: F401
        import mkdocs_static_i18n  # noqa: F401 - the German pages
    except ImportError as error:
        raise HelpNotBuilt(
            f"the help pages need {error.name} to build: pip install -e '.[docs]' (or make docs first, "
            "which builds docs/site)"
        ) from None
    environ = {**os.environ, "DOCS_ROOT": str(site.resolve()), "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--config-file", str(root / "mkdocs.yml")]
    done = subprocess.run(command, cwd=root, env=environ, capture_output=True, text=True)
    if done.returncode != 0 or not (site / "index.html").is_file():
        raise HelpNotBuilt(f"mkdocs build failed for the help pages:\n{done.stderr.strip()[-2000:]}")


def compile_translations(source: Path, target: Path) -> None:
    """Every locale/<lang>/LC_MESSAGES/*.po as the .mo Django reads."""
    import polib

    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        polib.pofile(str(po)).save_as_mofile(str(mo))


if __name__ == "__main__":  # as setuptools runs it; tests import the functions above
    setup(version=version(), cmdclass={"build_py": BuildWithResources})
