#!/usr/bin/env python
"""Django's command-line utility for the Skat tournament office."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:] == ["--version"]:
        import django

        from skat import __version__

        print(f"skat-office {__version__} (Django {django.get_version()})")
        return
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
