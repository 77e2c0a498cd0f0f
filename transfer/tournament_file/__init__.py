"""Rebuilding a tournament from its league workbook (``manage.py import_tournament``).

The workbook written by :func:`transfer.exports.league_xlsx` carries the settings
(sheet Tournament), the registrations (Players), the series with every seat (Tables)
and every deal as entered (Games). The import creates a new tournament from them in
one transaction. Every game is valued again by the engine (:func:`scoring.services.value`,
and as it is stored: :func:`scoring.services.create_deals`); the file's game values are
never trusted, only compared: differences are reported, the engine's values are stored.
A game the engine refuses stops the import and nothing is written.
"""

from .cells import TransferError
from .importer import TournamentImport, import_tournament

__all__ = ["TournamentImport", "TransferError", "import_tournament"]
