"""Real threads for the concurrency tests: each with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def in_parallel(function: Callable[[int], object], count: int) -> list:
    """Call ``function(i)`` for i < count, each in its own thread, released together.

    The results in order. A thread's exception fails the caller's test (an expected
    refusal is for ``function`` to catch and return). Each thread closes its own
    database connection, so the test database can be dropped afterwards.
    """
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = function(index)
        except Exception as error:  # surfaced below
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    for result in results:
        assert not isinstance(result, BaseException), repr(result)
    return results
