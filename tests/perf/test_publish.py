"""The load test's publishing halls: an answer counts as stored only when it says so in JSON's own true."""

from __future__ import annotations

import pytest

from perf.publish import _says_stored


@pytest.mark.parametrize(
    ("body", "stored"),
    [
        (b'{"stored": true, "message": "stored"}', True),
        (b'{"stored": false}', False),
        (b'{"stored": 1}', False),
        (b'{"stored": "yes"}', False),
        (b'[{"stored": true}]', False),
        (b"<html>502</html>", False),
    ],
)
def test_stored_is_true_itself(body, stored):
    assert _says_stored(body) is stored
