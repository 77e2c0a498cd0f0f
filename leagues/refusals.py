"""The refusal of a host's publication: an HTTP status and a message naming the field."""

from __future__ import annotations


class PublicationRefused(Exception):
    """A publication the server does not store: the HTTP status and a message naming the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
