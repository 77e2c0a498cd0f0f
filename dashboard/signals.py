"""What the dashboard tells the layers above it, without importing them.

``series_finished`` is sent once a series was finished and committed
(``dashboard.progress.finish_series``; arguments ``series``). The office's backups
(``office.backups.start_background``) connect to it: a backup after every series.
"""

from __future__ import annotations

from django.dispatch import Signal

series_finished = Signal()
