"""The Skat rules engine: the Skatordnung's values, the scoresheet, the rating, the
settlement, fees, league points and the draw, in pure Python (the standard library only).

The office's Django apps build on it; another Python program may use it alone
(``skat/README.md``), and ``python -m skat`` values games, sheets and match days on the
command line. Its modules import only each other and the standard library.
"""

try:
    #: The office's version (the footer and --version show it), written by every build
    #: from git (setup.py: 0.3.devN+gHASH, N its commits), make install's too.
    from skat._version import __version__
except ImportError:  # pragma: no cover - a copy of the source neither built nor installed
    __version__ = "0.3.dev0+unknown"
