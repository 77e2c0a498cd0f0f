#!/usr/bin/env python
"""Django's command-line utility for the Skat tournament office (a checkout; installed: ``skat-office``)."""

import sys


def main() -> None:
    from config import datadir

    argv = datadir.prepare(sys.argv)
    if argv[1:] == ["--version"]:
        import django

        from skat import __version__

        print(f"skat-office {__version__} (Django {django.get_version()})")
        return
    from office.cli import execute

    execute(argv)


if __name__ == "__main__":
    main()
