"""Where the office keeps its data, apart from its code, and how its two entry points start.

The data directory holds what an evening writes: the SQLite database, the secret key
file, the standings cache, the collected static files and the backups. It is, first
found first:

1. ``--data-dir DIR`` on the command line (``skat-office`` or ``manage.py``), which sets
2. ``SKAT_OFFICE_DATA`` in the environment;
3. in a checkout (``manage.py`` beside the code: ``make run``), the project folder, where
   the database has always been;
4. an installed package's: the platform's user data folder (platformdirs), e.g.
   ``%LOCALAPPDATA%\\skat-office`` on Windows, ``~/Library/Application Support/skat-office``
   on macOS, ``~/.local/share/skat-office`` on Linux.

The code's own files (templates, static files, translations, the help) are found beside
the code: in a checkout the project folder, in a wheel ``config/resources`` (the build
copies them there, setup.py). Standard library only: this runs before Django's settings.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

#: The environment variable naming the data directory.
ENV = "SKAT_OFFICE_DATA"
#: Set by the entry points while ``serve`` starts: the settings are the server's (DEBUG
#: off) and a missing secret key file is generated instead of refused.
SERVING_ENV = "SKAT_OFFICE_SERVING"
APP_NAME = "skat-office"

CODE_DIR = Path(__file__).resolve().parent.parent


def is_checkout(code_dir: Path = CODE_DIR) -> bool:
    """A source checkout (``manage.py`` beside the apps), not an installed package."""
    return (code_dir / "manage.py").is_file() and not (code_dir / "config" / "resources").is_dir()


def resource_dir(code_dir: Path = CODE_DIR) -> Path:
    """Where the templates, static files, translations and the built help are."""
    packaged = code_dir / "config" / "resources"
    return packaged if packaged.is_dir() else code_dir


def user_data_dir() -> Path:
    """The platform's folder for an application's data (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=False))


def resolve(environ: Mapping[str, str] = os.environ, code_dir: Path = CODE_DIR) -> Path:
    """The data directory: ``SKAT_OFFICE_DATA``, else the checkout, else the user data folder."""
    named = environ.get(ENV, "").strip()
    if named:
        return Path(named).expanduser().resolve()
    if is_checkout(code_dir):
        return code_dir
    return user_data_dir()


def problem(directory: Path) -> str | None:
    """Why ``directory`` cannot hold the office's data (created if missing), or None."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"it cannot be created ({error.strerror or error})"
    if not directory.is_dir():
        return "it is not a folder"
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        return f"it cannot be written ({error.strerror or error})"
    return None


def refusal(directory: Path) -> str | None:
    """The one line that says what to do when ``directory`` cannot hold the data, or None."""
    why = problem(directory)
    if why is None:
        return None
    return (
        f"The data directory {directory} cannot be used: {why}. "
        f"Choose a folder you can write to with --data-dir DIR (or {ENV}=DIR)."
    )


def take_data_dir(argv: list[str]) -> list[str]:
    """``argv`` without ``--data-dir DIR`` / ``--data-dir=DIR``, which goes to ``SKAT_OFFICE_DATA``.

    Read before Django's settings, which take the database's place from it.
    """
    rest: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--data-dir" or arg.startswith("--data-dir="):
            value = next(args, "") if arg == "--data-dir" else arg.split("=", 1)[1]
            # Empty (--data-dir=) or the next option (--data-dir --port 8001): never a
            # silent fall back to another folder's database.
            if not value.strip() or value.startswith("--"):
                raise SystemExit("--data-dir needs a folder: --data-dir DIR")
            os.environ[ENV] = value
        else:
            rest.append(arg)
    return rest


def prepare(argv: list[str]) -> list[str]:
    """The environment a command runs in, set before Django's settings load; ``argv`` without ``--data-dir``.

    ``serve`` runs the production settings in this very process (no second process):
    DEBUG off, plain HTTP unless ``SECURE=1``, and the secret key generated into the data
    directory on the first start. A data directory that cannot be written stops here
    with one line.
    """
    argv = take_data_dir(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if len(argv) > 1 and argv[1] == "serve":
        os.environ["DEBUG"] = "0"
        os.environ.setdefault("SECURE", "0")
        os.environ[SERVING_ENV] = "1"
    if len(argv) > 1 and argv[1] not in ("help", "--help", "-h", "--version", "version"):
        message = refusal(resolve())
        if message:
            print(message, file=sys.stderr)
            raise SystemExit(2)
    return argv
