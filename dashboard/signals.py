"""What the dashboard tells the layers above it, without importing them.

``series_finished`` is sent once a series was finished and committed
(``dashboard.progress.finish_series``; arguments ``series``). The office's backups
(``core.backups.after_series``, connected in ``office.apps``) listen: a backup after every series.
"""

from __future__ import annotations

from django.dispatch import Signal

series_finished = Signal()
