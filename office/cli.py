"""``skat-office``: the installed office's one command (the console script).

``skat-office`` alone serves the hall (``serve``); ``skat-office serve --bind HOST --port
PORT --data-dir DIR [--no-input] [--no-demo]`` says where. Any other word is one of the
office's management commands (``skat-office migrate``, ``skat-office createsuperuser``,
``skat-office help``), run with the same data directory. ``--data-dir`` may stand
anywhere; it is read before Django starts (config.datadir).
"""

from __future__ import annotations

import sys

USAGE = """usage: skat-office [serve] [--bind HOST] [--port PORT] [--data-dir DIR] [--no-input] [--no-demo]
       skat-office COMMAND [options] [--data-dir DIR]   (skat-office help: the commands)
       skat-office --version"""


def command_line(args: list[str]) -> list[str]:
    """The management command line for ``skat-office ARGS``: ``serve`` when no command is named.

    ``--data-dir DIR`` before the command (``skat-office --data-dir D migrate``) names no
    command: it goes after it, where config.datadir takes it out anyway.
    """
    lead: list[str] = []
    while args and (args[0] == "--data-dir" or args[0].startswith("--data-dir=")):
        width = 2 if args[0] == "--data-dir" else 1
        lead, args = lead + args[:width], args[width:]
    args = args + lead
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "--version")):
        return ["skat-office", "serve", *args]
    if args[0] in ("-h", "--help"):
        return ["skat-office", "--help"]
    return ["skat-office", *args]


def main(args: list[str] | None = None) -> None:
    from config import datadir

    argv = command_line(list(sys.argv[1:] if args is None else args))
    if argv[1] == "--help":
        print(USAGE)
        return
    argv = datadir.prepare(argv)
    if argv[1] == "--version":
        import django

        from skat import __version__

        print(f"skat-office {__version__} (Django {django.get_version()})")
        return
    execute(argv)


def execute(argv: list[str]) -> None:
    """Run the management command ``argv``; settings the office cannot start with (a
    database address that cannot be read, a refused secret key) end it with their message
    alone: they name the variable and the rule, and a traceback would only hide that."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(argv)
    except ImproperlyConfigured as error:
        if settings.configured:  # loaded fine: a fault of the code, shown with its traceback
            raise
        sys.exit(f"ImproperlyConfigured: {error}")


if __name__ == "__main__":  # pragma: no cover - python -m office.cli
    main()
