"""The Skat rules engine: the Skatordnung's values, the scoresheet, the rating, the
settlement, fees, league points and the draw, in pure Python (the standard library only).

The office's Django apps build on it; another Python program may use it alone
(``skat/README.md``), and ``python -m skat`` values games, sheets and match days on the
command line. Its modules import only each other and the standard library.
"""

#: The office's version (pyproject reads it from here; the footer and --version show it).
__version__ = "0.2.0"
