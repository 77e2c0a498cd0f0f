"""The wheel's build step: the project's own files into ``config/resources``.

The apps' modules and their package data are setuptools' (pyproject.toml). The files the
settings find beside the code in a checkout (config.datadir.resource_dir) are copied into
the wheel's ``config/resources``: templates/, static/, fixtures/ (the demo's players),
locale/ with each catalogue compiled to .mo here (polib: no GNU gettext at install), and
the built help (docs/site) when ``make docs`` has built it. An editable install
(``make install``) reads them in place instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: Copied as they are (a checkout's folder -> the wheel's config/resources/...).
RESOURCES = ("templates", "static", "fixtures", "docs/site")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", ".DS_Store")


class BuildWithResources(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "config" / "resources"
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for name in RESOURCES:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=SKIPPED)
        compile_translations(ROOT / "locale", target / "locale")


def compile_translations(source: Path, target: Path) -> None:
    """Every locale/<lang>/LC_MESSAGES/*.po as the .mo Django reads."""
    import polib

    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        polib.pofile(str(po)).save_as_mofile(str(mo))


setup(cmdclass={"build_py": BuildWithResources})
