"""Rule messages in the reader's language.

The engine raises :class:`RuleError` with an English template and parameters; here
the template and its word parameters (contract names, "grand", "null ouvert") are
translated, and the paragraph goes first so a referee sees it at once: "5.4.1: ...".
"""

from __future__ import annotations

from django.utils.translation import gettext

from skat.rules import RuleError


def rule_message(error: RuleError) -> str:
    params = {key: gettext(value) if isinstance(value, str) else value for key, value in error.params.items()}
    try:
        text = gettext(error.template).format(**params) if params else gettext(error.template)
    except (KeyError, IndexError, ValueError):
        # A translation whose placeholders do not fit must never cost the user the message.
        text = error.message
    return f"{error.paragraph}: {text}"
