"""The login throttle's counted attempts (accounts/throttle.py)."""

from __future__ import annotations

from django.db import models


class LoginAttempt(models.Model):
    """One login attempt counted against a key: ``user:`` or ``ip:`` and the sha256 of the
    case-folded username or of the client address (accounts/throttle.py).

    A row is written *before* the password is checked, so parallel guesses count each
    other; it stays as a failure unless the login succeeds. Rows older than the window
    are pruned as new attempts arrive. No verbose names or admin: the digests mean
    nothing to a reader, and ``manage.py unlocklogin`` is the office's tool.
    """

    key = models.CharField(max_length=72)
    created = models.DateTimeField(db_index=True)
    #: Its password is still being checked: not a failure (yet), but it holds a place of
    #: the limit, so a parallel attempt waits for it (accounts.throttle.begin_attempt).
    pending = models.BooleanField(default=False)

    class Meta:
        # The table kept its name when the model moved here from tournaments (accounts/0001).
        db_table = "tournaments_loginattempt"
        indexes = [models.Index(fields=["key", "created"], name="login_attempt_key_created")]

    def __str__(self) -> str:
        return f"{self.key[:13]} {self.created:%Y-%m-%d %H:%M:%S}"


class GuessFailure(models.Model):
    """One failed guess of a client at a secret it sends with a request (accounts/guesses.py):
    a host token of a league server, say.

    ``purpose`` names the guess limit (``host-token``); ``client`` is the SHA-256 of the
    client (its address, an IPv6 one by its /64: an address is personal data, and the
    count needs only to tell clients apart). One row per failure, inserted: parallel
    failures of several server processes are all counted. Rows older than the limit's
    window are pruned as new ones arrive.
    """

    purpose = models.CharField(max_length=40)
    client = models.CharField(max_length=64)
    created = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["purpose", "client", "created"], name="guess_failure_client_created")]

    def __str__(self) -> str:
        return f"{self.purpose} {self.client[:8]} {self.created:%Y-%m-%d %H:%M:%S}"
