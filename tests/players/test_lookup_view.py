"""The lookup by start number and surname (/me/find/<tournament>/), read as a spec.

- The right start number and surname (any case, umlauts spelled either way, with or
  without the first name) lead to the player's own page.
- "No such start number" and "wrong surname" get the very same answer, and each counts as
  a miss of the client's address (an IPv6 address by its /64); a form with a field missing or not a number names the
  field and counts nothing.
- After PLAYER_LOOKUP_FAILURE_LIMIT misses within the window the address is refused (429),
  the right answer too; a refusal counts nothing; other addresses go on.
- The form tells nobody which tournaments exist: an unknown one answers like any other
  (every lookup a miss), and the tournament is named (a practice one marked) only once its
  standings are published, or to its director.
"""

from __future__ import annotations

import pytest

from players.lookup import surname_matches
from players.models import LookupFailure
from tests import factories
from tournaments.models import Registration
from tournaments.player_links import player_path

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    t = factories.tournament()
    reg = Registration.objects.create(tournament=t, player=factories.player("Anna Müller"), start_number=17)
    Registration.objects.create(tournament=t, player=factories.player("Bernd Schulz"), start_number=18)
    return reg


def _url(reg) -> str:
    return f"/me/find/{reg.tournament_id}/"


def test_the_form_is_open_to_everybody(client, anna):
    page = client.get(_url(anna)).content.decode()
    assert "Start number" in page and "Surname" in page


@pytest.mark.parametrize("typed", ["Müller", "mueller", "MULLER", "Anna Müller"])
def test_the_right_start_number_and_surname_lead_to_his_page(client, anna, typed):
    response = client.post(_url(anna), {"start_number": "17", "surname": typed})
    assert response.status_code == 302 and response["Location"] == player_path(anna)


def test_a_wrong_surname_and_an_unknown_number_read_the_same_and_both_count(client, anna):
    wrong_name = client.post(_url(anna), {"start_number": "17", "surname": "Schulz"})
    no_number = client.post(_url(anna), {"start_number": "99", "surname": "Müller"})
    assert wrong_name.status_code == no_number.status_code == 200
    assert wrong_name.context["form"].errors == no_number.context["form"].errors
    assert "No player of this tournament has this start number and this surname" in wrong_name.content.decode()
    assert LookupFailure.objects.count() == 2


def test_a_field_missing_or_not_a_number_is_named_and_counts_nothing(client, anna):
    page = client.post(_url(anna), {"start_number": "x", "surname": ""}).content.decode()
    assert "Start number: enter digits only." in page and "Surname: enter your surname" in page
    assert LookupFailure.objects.count() == 0


def test_too_many_misses_lock_the_address_but_not_another(client, anna, settings):
    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 3
    for number in (1, 2, 3):
        client.post(_url(anna), {"start_number": str(number), "surname": "Müller"})
    refused = client.post(_url(anna), {"start_number": "17", "surname": "Müller"})
    assert refused.status_code == 429 and "Too many lookups" in refused.content.decode()
    assert LookupFailure.objects.count() == 3  # the refusal counted nothing
    elsewhere = client.post(_url(anna), {"start_number": "17", "surname": "Müller"}, REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 302


def test_misses_older_than_the_window_no_longer_count(client, anna, settings):
    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 1
    settings.PLAYER_LOOKUP_WINDOW = 0
    client.post(_url(anna), {"start_number": "1", "surname": "Müller"})
    assert client.post(_url(anna), {"start_number": "17", "surname": "Müller"}).status_code == 302


def test_the_form_does_not_tell_which_tournaments_exist(client, anna):
    unknown = client.post("/me/find/999999/", {"start_number": "17", "surname": "Müller"})
    assert unknown.status_code == 200 and "No player of this tournament" in unknown.content.decode()
    assert client.get("/me/find/999999/").status_code == 200
    assert anna.tournament.name not in client.get(_url(anna)).content.decode()
    type(anna.tournament).objects.filter(pk=anna.tournament_id).update(standings_public=True)
    assert anna.tournament.name in client.get(_url(anna)).content.decode()


def test_surnames_of_every_form():
    assert surname_matches("Müller, Anna", "mueller")
    assert surname_matches("Hans von Bülow", "von Bülow") and surname_matches("Hans von Bülow", "Bulow")
    assert not surname_matches("Anna Müller", "Anna")
    assert not surname_matches("Anna Müller", "  ")


def test_an_ipv6_client_is_counted_by_its_64_not_by_each_address(client, anna, settings):
    """One phone may pick a new address of its /64 for every request: all of them are one
    client. Another /64 goes on; IPv4 stays counted per address (the hall's router)."""
    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 3
    for rotated in ("2001:db8:7:1::a", "2001:db8:7:1::b", "2001:db8:7:1:ffff:ffff:ffff:ffff"):
        client.post(_url(anna), {"start_number": "1", "surname": "Müller"}, REMOTE_ADDR=rotated)
    right = {"start_number": "17", "surname": "Müller"}
    assert client.post(_url(anna), right, REMOTE_ADDR="2001:db8:7:1:1234::99").status_code == 429
    assert client.post(_url(anna), right, REMOTE_ADDR="2001:db8:7:2::a").status_code == 302
    for _ in range(3):
        client.post(_url(anna), {"start_number": "1", "surname": "Müller"}, REMOTE_ADDR="127.0.0.5")
    assert client.post(_url(anna), right, REMOTE_ADDR="127.0.0.5").status_code == 429
    assert client.post(_url(anna), right, REMOTE_ADDR="127.0.0.6").status_code == 302
    assert client.post(_url(anna), right, REMOTE_ADDR="::ffff:127.0.0.6").status_code == 302


def test_an_unpublished_practice_tournament_looks_like_any_other_number(client, anna):
    """No practice banner before publication: it would tell that the number is a tournament,
    and a rehearsal. Published, or to its director, the lookup names it and says practice."""
    banner = "A rehearsal: nothing here is a real result"
    type(anna.tournament).objects.filter(pk=anna.tournament_id).update(practice=True)
    page = client.get(_url(anna)).content.decode()
    assert banner not in page and anna.tournament.name not in page
    director = factories.user("practice-director")
    anna.tournament.directors.add(director)
    client.force_login(director)
    assert banner in client.get(_url(anna)).content.decode()
    client.logout()
    type(anna.tournament).objects.filter(pk=anna.tournament_id).update(standings_public=True)
    page = client.get(_url(anna)).content.decode()
    assert banner in page and anna.tournament.name in page
