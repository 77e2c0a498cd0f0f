"""The access log's lines are written in batches (config.logs.BatchedStreamHandler): one
write for many requests, none later than half a second, nothing held back at the exit."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings

from config.logs import BatchedStreamHandler


class CountingStream(io.StringIO):
    """A stream that counts the writes it is given."""

    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def line(number: int) -> logging.LogRecord:
    return logging.makeLogRecord({"name": "office.access", "levelno": logging.INFO, "msg": f"GET /{number}/ 200 1ms"})


def handler_on(stream: io.StringIO, *, seconds: float = 3600, lines: int = 256) -> BatchedStreamHandler:
    handler = BatchedStreamHandler(stream)
    handler.SECONDS, handler.LINES = seconds, lines
    return handler


def test_the_settings_access_log_is_batched_and_cleaned_and_the_console_is_not():
    handlers = settings.LOGGING["handlers"]
    assert handlers["access"]["class"] == "config.logs.BatchedStreamHandler"
    assert "safe_records" in handlers["access"]["filters"]
    assert handlers["console"]["class"] == "logging.StreamHandler"  # a warning is shown at once


def test_lines_wait_and_are_written_in_one_go_in_their_order():
    stream = CountingStream()
    handler = handler_on(stream)
    for number in range(3):
        handler.handle(line(number))
    assert stream.getvalue() == ""  # within the half second (here an hour)
    handler.flush()
    assert stream.getvalue() == "GET /0/ 200 1ms\nGET /1/ 200 1ms\nGET /2/ 200 1ms\n"
    assert stream.writes == 1
    handler.flush()  # nothing waits: nothing written again
    assert stream.writes == 1


def test_a_full_batch_is_written_by_the_request_that_fills_it():
    stream = CountingStream()
    handler = handler_on(stream, lines=3)
    for number in range(7):
        handler.handle(line(number))
    assert stream.getvalue().splitlines() == [f"GET /{n}/ 200 1ms" for n in range(6)]
    assert stream.writes == 2


def test_a_quiet_office_writes_its_last_lines_by_itself():
    stream = io.StringIO()
    handler = handler_on(stream, seconds=0.05)
    handler.handle(line(1))
    for _ in range(200):  # the flusher's turn comes within 0.05 s; a busy machine may delay it
        if stream.getvalue():
            break
        time.sleep(0.05)
    assert stream.getvalue() == "GET /1/ 200 1ms\n"


def test_setting_another_stream_writes_what_waits_to_the_old_one():
    old, new = io.StringIO(), io.StringIO()
    handler = handler_on(old)
    handler.handle(line(1))
    handler.setStream(new)
    handler.handle(line(2))
    handler.flush()
    assert (old.getvalue(), new.getvalue()) == ("GET /1/ 200 1ms\n", "GET /2/ 200 1ms\n")


def test_a_stream_that_fails_loses_its_batch_and_says_so_once(capsys):
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise ValueError("I/O operation on closed file")

    handler = handler_on(Closed())
    handler.handle(line(1))
    handler.handle(line(2))
    handler.flush()  # as a StreamHandler's failed line: reported on stderr, the request goes on
    handler.flush()
    assert capsys.readouterr().err.count("--- Logging error ---") == 1
    assert handler.pending == []


def test_a_process_that_exits_writes_what_waits():
    """logging.shutdown at the exit (also after Ctrl-C's KeyboardInterrupt) flushes every handler."""
    script = (
        "import logging, sys\n"
        "from config.logs import BatchedStreamHandler\n"
        "h = BatchedStreamHandler(sys.stdout); h.SECONDS = 3600\n"
        "log = logging.getLogger('office.access'); log.addHandler(h); log.setLevel(logging.INFO)\n"
        "for n in range(3): log.info('GET /%d/ 200 1ms', n)\n"
        "raise KeyboardInterrupt\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == [f"GET /{n}/ 200 1ms" for n in range(3)], done.stderr


def wait_for(condition) -> bool:
    """True once ``condition()`` holds; the flusher's turns come every 0.05 s, a busy machine may delay them."""
    for _ in range(200):
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_the_flusher_outlives_a_closed_stream_and_writes_to_the_next(tmp_path, capsys):
    """A quiet handler whose stream was closed (a test's captured output, a terminal gone)
    is no error; a batch that cannot be written is reported once, and the thread goes on."""
    first = open(tmp_path / "first.log", "w")  # noqa: SIM115 - closed below, as a terminal goes
    second = io.StringIO()
    handler = handler_on(first, seconds=0.05)
    handler.handle(line(1))
    assert wait_for(lambda: (tmp_path / "first.log").read_text() == "GET /1/ 200 1ms\n")
    first.close()  # its flush() raises now
    time.sleep(0.2)  # turns with nothing waiting: the closed stream is left alone
    assert capsys.readouterr().err == ""
    handler.handle(line(2))
    assert wait_for(lambda: "--- Logging error ---" in capsys.readouterr().err)
    handler.stream = second
    handler.handle(line(3))
    assert wait_for(lambda: second.getvalue() == "GET /3/ 200 1ms\n")


def test_closing_writes_what_waits_and_stops_the_flusher():
    stream = io.StringIO()
    handler = handler_on(stream, seconds=0.05)
    handler.handle(line(1))
    flusher = handler.flusher
    assert flusher is not None and flusher.is_alive()
    handler.handle(line(2))
    handler.close()
    assert stream.getvalue() == "GET /1/ 200 1ms\nGET /2/ 200 1ms\n"
    flusher.join(timeout=30)  # bounds a hang only
    assert not flusher.is_alive()


def test_a_thread_that_cannot_start_is_a_logging_error_not_a_failed_request(monkeypatch, capsys):
    def no_thread(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_thread)
    stream = io.StringIO()
    handler = handler_on(stream)
    handler.handle(line(1))  # does not raise
    assert "--- Logging error ---" in capsys.readouterr().err
    monkeypatch.undo()
    handler.flush()
    assert stream.getvalue() == "GET /1/ 200 1ms\n"  # the line itself waits, written at the exit


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork: POSIX only")
def test_a_forked_child_does_not_write_its_parents_lines_again():
    read, write = os.pipe()
    handler = handler_on(io.StringIO())
    handler.handle(line(1))
    pid = os.fork()
    if pid == 0:  # the child: report what it would write, then leave at once
        os.write(write, str(len(handler.pending)).encode())
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 16) == b"0"
    os.close(read)
    os.close(write)
    assert handler.pending == ["GET /1/ 200 1ms"]
