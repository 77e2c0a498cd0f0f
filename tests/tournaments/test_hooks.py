"""tournaments.hooks: how a lower app asks a higher one without importing it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from scoring import hooks as scoring_hooks
from tournaments import hooks
from tournaments.hooks import Hook, unfilled


def _hooks():
    for module in (hooks, scoring_hooks):
        yield from (value for value in vars(module).values() if isinstance(value, Hook))


def test_the_installed_apps_fill_every_hook():
    """The office as installed answers every hook with its real answer, never a default."""
    found = list(_hooks())
    assert {h.name for h in found} >= {
        "tournaments.deals_entered",
        "tournaments.play_started",
        "tournaments.front_page_panels",
        "scoring.correction_reason",
        "scoring.corrected",
    }
    assert [h.name for h in found if not h.filled] == []


def test_an_unfilled_hook_answers_with_its_default():
    hook = Hook("test.answer", lambda x: x + 1)
    assert not hook.filled and hook(1) == 2
    hook.fill(lambda x: x * 10)
    assert hook.filled and hook(2) == 20


def test_a_hook_without_a_safe_default_refuses_until_filled():
    hook = Hook("test.ranking", unfilled)
    with pytest.raises(ImproperlyConfigured, match=r"test\.ranking is not filled"):
        hook("tournament")


def test_filling_again_with_the_same_function_is_harmless_another_is_refused():
    hook = Hook("test.once", lambda: 0)

    def first():
        return 1

    hook.fill(first)
    hook.fill(first)  # AppConfig.ready may run twice (tests, autoreload)
    with pytest.raises(RuntimeError, match="filled already"):
        hook.fill(lambda: 2)
    assert hook() == 1
