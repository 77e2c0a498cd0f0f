"""One office per data folder: the lock, who holds it, and that it ends with its process."""

import subprocess
import sys
import textwrap

import pytest

from core import datalock


def test_a_free_folder_has_no_holder(tmp_path):
    assert datalock.holder(tmp_path) is None


def test_a_second_lock_on_the_same_folder_is_refused_with_the_holder(tmp_path):
    with datalock.DataLock(tmp_path, purpose="serve"):
        holder = datalock.holder(tmp_path)
        assert holder is not None and holder.startswith("serve pid ")
        with pytest.raises(datalock.Busy) as refused:
            datalock.DataLock(tmp_path, purpose="restore").acquire()
        assert "serve pid" in refused.value.holder
    assert datalock.holder(tmp_path) is None
    with datalock.DataLock(tmp_path, purpose="restore") as lock:
        assert lock.held


def test_the_lock_ends_with_a_killed_process(tmp_path):
    script = textwrap.dedent(
        f"""
        import sys, time
        from core import datalock
        datalock.DataLock({str(tmp_path)!r}).acquire()
        print("held", flush=True)
        time.sleep(60)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "held"
        assert datalock.holder(tmp_path) is not None
    finally:
        child.kill()
        child.wait()
    assert datalock.holder(tmp_path) is None
