"""The log: one line per record, no secret in it, nothing in it that forges another line.

A refusal is one line, a server error keeps its traceback. Django logs every answer of
400 and up on ``django.request``, a 403 from PermissionDenied (a director opening another's
tournament) with the exception's whole traceback: 3.8 MB for 3,196 refusals in the hostile
review. A refusal is the office working as meant, so its record keeps its one line (status,
path) and loses the traceback; a 500 keeps it, for whoever mends the bug.

Django logs its refusals on more than one logger: ``django.request`` (403, 404, 405),
``django.security.csrf`` and ``django.security.<the exception's class>`` for a
suspicious request (a foreign Host header, too large a body, too many fields: 400).
A logger's filter sees only what is logged on that logger itself, not on its children,
so the filter sits on each of them (:func:`refusal_loggers`).

Every handler (:func:`logging_settings`) carries :class:`SafeRecords`, whoever logged the
record (Django, waitress, the access log, the office itself):

- a capability in a path is replaced by a fingerprint (``#`` and the first 8 hex digits
  of its SHA-256: it still tells one table's requests from another's but opens nothing):
  a table link and everything under it (``/s/<token>/``: the sheet, the entry, the
  players' sign-off, a dispute), a player's own page (``/me/<token>/``), and the value of a
  secret-looking query parameter (``token=``, ``key=``, ``secret=``, ``password=``,
  ``signature=``). Logs are copied, mailed and pasted into bug reports; a token in one
  would open a table or a player's page to whoever reads it.
- every control character is escaped (``\\n``, ``\\r``, ``\\t``, ``\\x00`` ... ``\\x1f``,
  ``\\x7f`` ... ``\\x9f``, ESC as ``\\x1b``, and the Unicode line and paragraph separators
  and direction overrides as ``\\u2028`` ...): a path a client chose (``/x%0a2026-12-02
  00:00:00 127.0.0.9 POST /t/2/delete/ 302 1ms``) stays on its own line and cannot paint
  the terminal. A traceback keeps its line breaks (it is ours, not the client's), with every
  other control character escaped.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import traceback
import weakref

from django.core.exceptions import SuspiciousOperation

#: A table link and all under it, a player's own page (not the lookup /me/find/): the
#: segment after the prefix is the capability. A fingerprint (``#...``) is left as it is.
TOKEN_PATHS = re.compile(r"(/s/|/me/(?!find/))(?!#)([^/?#\s]+)")
#: A query parameter that names a secret: its value is replaced by its fingerprint.
SECRET_PARAMETERS = re.compile(r"([?&;](?:token|key|secret|password|signature|sig)=)(?!#)([^&;#\s]+)", re.IGNORECASE)
#: C0 and C1 controls, DEL, and the Unicode characters that break or reorder a line.
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def token_fingerprint(token: str) -> str:
    """``#`` and the first 8 hex digits of the token's SHA-256: tells tokens apart, opens nothing."""
    return "#" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def without_tokens(text: str) -> str:
    """``text`` with every capability in a path or query replaced by its fingerprint."""
    text = TOKEN_PATHS.sub(lambda m: m.group(1) + token_fingerprint(m.group(2)), text)
    return SECRET_PARAMETERS.sub(lambda m: m.group(1) + token_fingerprint(m.group(2)), text)


def _escape(char: str) -> str:
    code = ord(char)
    return NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escape_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` on one line: every control character written as its escape (``\\n``, ``\\x1b``)."""
    if keep_newlines:
        return "\n".join(escape_controls(line) for line in text.split("\n"))
    return CONTROLS.sub(lambda m: _escape(m.group()), text)


def scrub(text: str) -> str:
    """A logged value as it may be written: no token, one line."""
    return escape_controls(without_tokens(text))


class SafeRecords(logging.Filter):
    """On every handler: the record's message without tokens and control characters, its
    traceback without tokens and with its own line breaks only. Idempotent: a record that
    passes several handlers is cleaned once in effect."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format: the handler reports it as ever
            return True
        record.msg = scrub(message)
        record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = escape_controls(without_tokens(record.exc_text), keep_newlines=True)
        if record.stack_info:
            record.stack_info = escape_controls(without_tokens(record.stack_info), keep_newlines=True)
        return True


class OneLineRefusals(logging.Filter):
    """On Django's refusal loggers: drop the traceback of any record of an answer below 500,
    and the tokens in the path it names (also for a handler added without SafeRecords)."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        if isinstance(record.args, tuple):
            record.args = tuple(scrub(a) if isinstance(a, str) else a for a in record.args)
        return True


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def refusal_loggers() -> list[str]:
    """Every logger Django writes a refusal (a 4xx) on, for the settings' LOGGING."""
    import django.contrib.sessions.exceptions  # noqa: F401 - its SuspiciousSession counts too

    names = {f"django.security.{cls.__name__}" for cls in {SuspiciousOperation, *_subclasses(SuspiciousOperation)}}
    # The admin's own (django.contrib.admin.exceptions, not importable before the apps are).
    names |= {"django.security.DisallowedModelAdminLookup", "django.security.DisallowedModelAdminToField"}
    return ["django.request", "django.security.csrf", *sorted(names)]


def logging_settings(*, access_log: bool, level: str) -> dict:
    """The settings' LOGGING: every handler cleans its records (:class:`SafeRecords`).

    A refusal (400, 403, 404, 429) is one line in the log; a 500 keeps its traceback.
    "django" loses the console handler Django gives it with DEBUG on: its records reach the
    root's console once, not twice ("Forbidden (Permission denied): /t/1/" printed two times
    in the terminal of ``manage.py runserver``); runserver's own request lines
    (``django.server``) go to the same cleaned console.
    """
    safe = ["safe_records"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "one_line_refusals": {"()": "config.logs.OneLineRefusals"},
            "safe_records": {"()": "config.logs.SafeRecords"},
        },
        "formatters": {"access": {"format": "%(asctime)s %(message)s", "datefmt": "%Y-%m-%d %H:%M:%S"}},
        "handlers": {
            "console": {"class": "logging.StreamHandler", "filters": safe},
            "access": {"class": "config.logs.BatchedStreamHandler", "formatter": "access", "filters": safe},
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django": {"handlers": [], "propagate": True},
            "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
            **{name: {"filters": ["one_line_refusals"]} for name in refusal_loggers()},
            "office.access": {
                "handlers": ["access"],
                "level": "INFO" if access_log else "WARNING",
                "propagate": False,
            },
            # A backup's problem (a pulled USB stick) is a warning: shown with the default level.
            "core.backups": {"level": "INFO"},
        },
    }


class BatchedStreamHandler(logging.StreamHandler):
    """The access log's handler: its lines written together, at most :attr:`SECONDS` late.

    A StreamHandler writes and flushes each line at once: one write to the log a request,
    400 a second in a big hall, each under the handler's lock. Where the log is a file on
    the disk the database syncs every deal to, such a write can wait for that sync, and
    every thread with a line to write waits behind it: a tenth of the served office's time
    in a profile of three times the hall on a slower laptop (benchmarks page). Here the
    lines wait in memory and are written in one go, by the thread that fills a batch or,
    for a quiet office, by a flusher thread every :attr:`SECONDS`. Logging's own exit
    (``logging.shutdown``, also after Ctrl-C) writes what waits, and so does a serving
    helper as it stops (office.workers); a killed process loses at most that last
    fraction of a second of access lines, never anything else. A forked child starts with
    none of its parent's lines.
    """

    #: At most this long between a request and its line in the log.
    SECONDS = 0.5
    #: A batch this long is written at once.
    LINES = 256

    def __init__(self, stream=None) -> None:
        super().__init__(stream)
        self.pending: list[str] = []
        self.flusher_pid: int | None = None  # a process of its own (fork) needs its own flusher
        self.flusher: threading.Thread | None = None
        self.stopped = threading.Event()
        _BATCHED.add(self)

    def emit(self, record: logging.LogRecord) -> None:
        # Called under self.lock (Handler.handle).
        try:
            self.pending.append(self.format(record))
        except Exception:
            self.handleError(record)
            return
        if len(self.pending) >= self.LINES:
            self._write()
        elif self.flusher_pid != os.getpid() and not self.stopped.is_set():
            flusher = threading.Thread(target=self._flush_every, name="access-log", daemon=True)
            try:
                flusher.start()
            except Exception:  # no thread to be had (a limit, the interpreter's exit): written at the exit
                self.handleError(record)
                return
            self.flusher, self.flusher_pid = flusher, os.getpid()

    def _write(self) -> None:
        text, self.pending = "\n".join(self.pending) + self.terminator, []
        try:
            self.stream.write(text)
            super().flush()
        except Exception:  # a closed or full stream: as a StreamHandler's line would
            self.handleError(logging.makeLogRecord({"msg": text}))

    def flush(self) -> None:
        """What waits, written now, and the stream flushed (setStream, logging's exit)."""
        with self.lock:
            if self.pending:
                self._write()
            else:
                super().flush()

    def close(self) -> None:
        """What waits, written; the flusher thread stopped."""
        self.stopped.set()
        with self.lock:
            if self.pending:
                self._write()
        super().close()

    def _flush_every(self) -> None:
        """The flusher thread: writes what waits, and only then touches the stream (a stream
        closed under a quiet handler, as a test's captured output, is no error); whatever a
        write raises was reported by :meth:`_write`, and the thread goes on until the
        handler is closed."""
        pid = os.getpid()
        while self.flusher_pid in (pid, None) and not self.stopped.wait(self.SECONDS):
            with self.lock:
                if self.pending:
                    self._write()

    def _forked(self) -> None:
        """In a forked child: the parent's waiting lines are the parent's to write."""
        self.pending = []
        self.flusher_pid = None


#: Every batched handler of this process, for :func:`os.register_at_fork`.
_BATCHED: weakref.WeakSet[BatchedStreamHandler] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for handler in list(_BATCHED):
        handler._forked()


if hasattr(os, "register_at_fork"):  # not on Windows, which spawns
    os.register_at_fork(after_in_child=_after_fork_in_child)


def flush_access_log() -> None:
    """Write what the access log holds back now (a process about to be stopped from outside)."""
    for handler in logging.getLogger("office.access").handlers:
        handler.flush()
