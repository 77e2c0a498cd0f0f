"""Numbers the settings read from the environment, refused in one line naming the variable.

``int(os.environ.get(...))`` stopped every command with a traceback for a value such as
``abc``, ``²`` or ``1.5``; :class:`~django.core.exceptions.ImproperlyConfigured` is
printed as one line by ``manage.py`` and ``skat-office`` alike. Empty or unset: the default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured


def whole(environ: Mapping[str, str], name: str, default: int) -> int:
    """``name`` as a whole number of 0 or more (ASCII digits), ``default`` when empty or unset."""
    value = (environ.get(name) or "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit() and len(value) <= 12):
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {value[:20]!r}.")
    return int(value)


def amount(environ: Mapping[str, str], name: str, default: float) -> float:
    """``name`` as a number of 0 or more (``1.5`` too), ``default`` when empty or unset."""
    value = (environ.get(name) or "").strip()
    if not value:
        return default
    try:
        number = float(value) if value.isascii() and len(value) <= 20 else -1.0
    except ValueError:
        number = -1.0
    if not math.isfinite(number) or number < 0:
        raise ImproperlyConfigured(f"{name} must be a number of 0 or more, such as 5 or 1.5, not {value[:20]!r}.")
    return number
