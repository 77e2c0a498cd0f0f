"""A terminal's Ctrl-C reaches every process of the office, the children still starting
too (office.workers.interrupts_held): a child takes it only once it stops quietly."""

from __future__ import annotations

import multiprocessing
import signal
import threading

import pytest

from office import workers

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="Windows has no signal masks")


def report_mask(queue) -> None:
    """In the spawned child: whether SIGINT is blocked as it starts."""
    queue.put(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set()))


def spawned_with_sigint_blocked(held: bool) -> bool:
    context = multiprocessing.get_context("spawn")
    queue = context.SimpleQueue()
    process = context.Process(target=report_mask, args=(queue,))
    if held:
        with workers.interrupts_held():
            process.start()
    else:
        process.start()
    process.join(60)
    return queue.get()


def test_a_child_starts_with_ctrl_c_held_back_and_the_first_process_gets_it_again():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    assert spawned_with_sigint_blocked(held=True)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before  # this process takes Ctrl-C again
    assert not spawned_with_sigint_blocked(held=False)  # the block is what the child inherits


def test_a_ctrl_c_while_held_is_taken_when_the_hold_ends():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python raises KeyboardInterrupt in the main thread only")
    with pytest.raises(KeyboardInterrupt), workers.interrupts_held():
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # to this thread, which holds it back
        pending = signal.SIGINT in signal.sigpending()
    assert pending
