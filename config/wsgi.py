"""WSGI entry point: the office behind its spectator admission (config.admission).

``skat-office serve`` / ``manage.py serve`` serve it in-process (office.serve); any WSGI
server can too (``gunicorn config.wsgi``).
"""

import os

from django.core.wsgi import get_wsgi_application

from config.heap import freeze_startup_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from config.admission import SpectatorAdmission  # noqa: E402 - after Django is set up

application = SpectatorAdmission(django_application)
freeze_startup_heap()
