"""The hall's phones read the next form's fields from the last answer (perf.hall_clients)."""

from __future__ import annotations

import uuid

from perf import hall_clients

FILLER = b"<div class='row'><span>Spieler</span><span>123</span></div>\n" * 400  # an entry answer's 24 KB
CLIENT_ID = "0f1e2d3c-4b5a-4978-8a9b-0c1d2e3f4a5b"


def test_a_phone_takes_the_forms_client_id_and_csrf_token_from_a_long_answer():
    body = (
        FILLER + b'<input name="client_id" value="not-an-id">'  # the pattern's beginning, not its match
        b'<input name="client_id" value="' + CLIENT_ID.encode() + b'">'
        b'<input name="csrfmiddlewaretoken" value="form-token">' + FILLER
    )
    assert hall_clients._form_fields(body, "cookie-token") == (CLIENT_ID, "form-token")


def test_a_phone_without_a_form_makes_its_own_client_id_and_uses_the_cookie():
    client_id, csrf = hall_clients._form_fields(FILLER + b'name="csrfmiddlewaretoken" value="', "cookie-token")
    assert uuid.UUID(client_id).version == 4 and csrf == "cookie-token"
