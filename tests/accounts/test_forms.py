"""accounts.forms.AccountForm — a person let in by user name on the referees',
directors' and league managers' pages: the name as the account stores it, never a
second account told apart from an existing one only by case."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.forms import AccountForm
from tests import factories

pytestmark = pytest.mark.django_db

STRONG = "Herz-Dame-1970"


def form(**data) -> AccountForm:
    bound = AccountForm(data)
    bound.is_valid()
    return bound


def test_a_name_is_looked_up_as_it_is_stored():
    """A full-width spelling of an existing name is that account (Django stores user names
    in NFKC), not "no user yet" nor a second account."""
    root = factories.user("root")
    named = form(username="\uff52\uff4f\uff4f\uff54")  # "root" in full-width letters
    assert named.is_valid() and named.user == root and named.cleaned_data["username"] == "root"


def test_a_name_too_long_as_stored_is_refused_by_its_stored_length():
    """100 ligatures are 200 letters stored: refused naming the limit, not a 500 from the
    database's 150 characters (PostgreSQL) nor a name past it (SQLite)."""
    refused = form(username="ﬁ" * 100, password=STRONG)
    assert "at most 150 characters" in str(refused.errors["username"]) and "has 200" in str(refused.errors["username"])
    assert not get_user_model().objects.exists()


def test_a_new_account_differing_only_by_case_is_refused_naming_the_existing_one():
    factories.user("Chef")
    for name in ("chef", "CHEF"):
        refused = form(username=name, password=STRONG)
        assert "There is an account Chef already" in str(refused.errors["username"])
        assert "password" not in refused.errors
    assert get_user_model().objects.count() == 1


def test_a_password_refused_for_its_characters_is_not_also_missing():
    refused = form(username="dora", password="Herz\x00Dame-1970")
    assert len(refused.errors["password"]) == 1 and "give a password" not in str(refused.errors)
