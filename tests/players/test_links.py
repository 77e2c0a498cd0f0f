"""A registration's private link: derived, unguessable, its own registration's only."""

from __future__ import annotations

import pytest

from players.services import registration_for
from tests import factories
from tournaments.player_links import player_path, player_token, registration_id, token_matches

pytestmark = pytest.mark.django_db


def test_a_link_opens_its_own_registration_and_no_other():
    t = factories.tournament()
    mine, other = factories.registered(t, 2)
    token = player_token(mine)
    assert registration_id(token) == mine.pk
    assert registration_for(token) == mine
    assert token_matches(mine, token) and not token_matches(other, token)
    # The other's id with my letters, my id with changed letters: nothing.
    assert registration_for(f"{other.pk}-{token.partition('-')[2]}") is None
    assert registration_for(token[:-1] + ("a" if token[-1] != "a" else "b")) is None
    assert player_path(mine) == f"/me/{token}/"


def test_the_secret_is_120_bits_and_depends_on_the_secret_key(settings):
    t = factories.tournament()
    (reg,) = factories.registered(t, 1)
    token = player_token(reg)
    assert len(token.partition("-")[2]) == 24
    settings.SECRET_KEY = "another key " * 5
    assert player_token(reg) != token


@pytest.mark.parametrize("text", ["", "12", "x-abc", "12-short", "١٢-" + "a" * 24, "1" * 13 + "-" + "a" * 24])
def test_text_of_another_shape_names_no_registration(text):
    assert registration_id(text) is None
