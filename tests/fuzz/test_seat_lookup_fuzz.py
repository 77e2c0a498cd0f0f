"""Random and malformed lookups by start number and surname: never a 500, a match only
for the right pair, every error on the page naming its field, nothing written but a miss."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from players.models import LookupFailure
from tests import factories
from tournaments.models import Registration
from tournaments.player_links import player_path

from .strategies import FUZZ, assert_errors_name_their_field, form_data, junk

pytestmark = pytest.mark.django_db

lookups = form_data(
    {
        "start_number": st.one_of(st.sampled_from(["7", "07", " 7 ", "7.0", "-7", "99999999999"]), junk),
        "surname": st.one_of(
            st.sampled_from(["Müller", "MUELLER", "Anna", "anna müller"]), st.text(max_size=90), junk
        ),
    }
)


@pytest.fixture
def anna():
    t = factories.tournament()
    return Registration.objects.create(tournament=t, player=factories.player("Anna Müller"), start_number=7)


@override_settings(PLAYER_LOOKUP_FAILURE_LIMIT=10**6)
@settings(FUZZ, max_examples=25)  # a small form: CI's time goes to the bigger ones
@given(data=lookups)
def test_looking_up(anna, data):
    misses = LookupFailure.objects.count()
    response = Client().post(f"/me/find/{anna.tournament_id}/", data)
    assert response.status_code == 200
    if "registration" in response.context:  # found: his seat, never his private link
        assert response.context["registration"].pk == anna.pk
        assert player_path(anna) not in response.content.decode()
        assert LookupFailure.objects.count() == misses
        return
    form = response.context["form"]
    assert_errors_name_their_field(form, response.content.decode())
    assert LookupFailure.objects.count() == misses + (1 if form.non_field_errors() else 0)
