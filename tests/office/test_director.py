"""office.director: the first start creates the director's login, never with a fixed password."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from office.director import FORMER_PASSWORD, ensure_director, generated_password, password_message
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """The messages in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


def test_the_first_start_creates_the_director_with_a_generated_password_said_once():
    login = ensure_director()
    assert (login.state, login.user.username) == ("created", "director")
    assert login.user.is_superuser and login.user.is_staff
    assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", login.password)
    assert login.password != FORMER_PASSWORD and login.user.check_password(login.password)
    assert "director / " + login.password in password_message(login)
    again = ensure_director()
    assert (again.state, again.password, again.user) == ("kept", "", login.user)
    assert "password unchanged" in password_message(again)
    assert "Forgotten? skat-office changepassword director sets a new one" in password_message(again)


def test_generated_passwords_differ():
    assert len({generated_password() for _ in range(20)}) == 20


def test_the_director_may_choose_the_password_and_it_is_never_printed():
    asked = []
    login = ensure_director(ask=lambda user: asked.append(user.username) or "Kreuz-Bube-1997")
    assert asked == ["director"] and login.password == ""
    assert login.user.check_password("Kreuz-Bube-1997")
    assert "Kreuz-Bube-1997" not in password_message(login)
    assert ensure_director(ask=lambda user: pytest.fail("asked again")).state == "kept"


def test_an_empty_answer_means_a_generated_password():
    login = ensure_director(ask=lambda user: "")
    assert login.password and login.user.check_password(login.password)


def test_a_given_password_is_used_and_not_printed():
    login = ensure_director(password="Grand-Ouvert-120")
    assert login.user.check_password("Grand-Ouvert-120") and login.password == ""


def test_the_former_fixed_password_is_replaced_at_the_next_start():
    get_user_model().objects.create_superuser("director", password=FORMER_PASSWORD)
    login = ensure_director()
    assert login.state == "replaced" and not login.user.check_password(FORMER_PASSWORD)
    assert login.user.check_password(login.password)
    assert "former fixed password" in password_message(login)


def test_an_office_with_its_own_superuser_creates_nobody():
    admin = factories.user("admin", superuser=True)
    login = ensure_director()
    assert (login.user, login.state, login.password) == (admin, "kept", "")
    assert not get_user_model().objects.filter(username="director").exists()
