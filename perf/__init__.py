"""Tools that time the whole office: ``manage.py bench`` and ``manage.py loadtest``."""
