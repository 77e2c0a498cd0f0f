"""Random query strings for the printed documents and exports, the director's link
reissue, and the money tables of the "Rules and fees" page (passed-out fees, table money).

Never a 500: a bad parameter is a 400 page that names it (form:, series:, appendix:), an
unknown export sheet a 404; a refused post changes nothing and shows every error.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import event, example, given
from hypothesis import strategies as st

from scoring.exports import SHEETS
from tests import factories
from tournaments.models import Table

from .strategies import FUZZ, NASTY, junk, small_int, value
from .test_director_forms_fuzz import VALID_TOURNAMENT, assert_shown, snapshot

pytestmark = pytest.mark.django_db

#: A PDF is a few hundred milliseconds on a loaded machine: fewer examples here.
FEW = FUZZ.__class__(FUZZ, max_examples=15)


@pytest.fixture
def drawn():
    director = factories.user("director")
    t, series = factories.drawn(8, directors=[director], rounds_per_series=1)
    # Two players form a team, so the team ranking list (?view=teams) is fuzzed too.
    team = t.teams.create(name="Fuzz Team")
    t.registrations.filter(pk__in=t.registrations.order_by("pk").values("pk")[:2]).update(team=team)
    client = Client()
    client.force_login(director)
    return t, series, client


param = st.one_of(st.sampled_from(NASTY), junk)


@FEW
@given(
    query=st.fixed_dictionaries(
        {},
        optional={
            "form": value(st.one_of(st.sampled_from(["blank", "filled", "Filled", ""]), param)),
            "series": value(st.one_of(st.sampled_from(["", "1", "2", "²", "٣", "01"]), param)),
            "appendix": value(st.one_of(st.sampled_from(["0", "1", "all", "", "ALL"]), param)),
            "table": value(st.one_of(st.sampled_from(["", "1", "2", "3", "²", "1" * 5000]), param)),
            "view": value(st.one_of(st.sampled_from(["", "players", "teams", "Teams"]), param)),
        },
    ),
    which=st.sampled_from(
        ["series_sheets_pdf", "table_sheet_pdf", "standings_pdf", "series_cards_pdf", "series_pin_slips_pdf"]
    ),
)
@example(query={"series": "²"}, which="standings_pdf")
@example(query={"series": "٣"}, which="standings_pdf")
@example(query={"series": "1" * 5000}, which="standings_pdf")  # regression: int() refused it with a 500
@example(query={"table": "1" * 5000}, which="series_pin_slips_pdf")
def test_the_printed_documents_query(drawn, query, which):
    t, _series, client = drawn
    args = {"standings_pdf": [t.pk], "table_sheet_pdf": [t.pk, 1, 1]}.get(which, [t.pk, 1])
    response = client.get(reverse(f"tournaments:{which}", args=args), query)
    event(f"{which} {response.status_code}")
    assert response.status_code in {200, 400}
    if response.status_code == 400:
        page = response.content.decode()
        assert any(f"{name}: " in page for name in ("form", "series", "appendix", "table", "view")), page
    else:
        assert response["Content-Type"] == "application/pdf"


@FUZZ
@given(sheet=st.one_of(st.sampled_from([*SHEETS, *(s.upper() for s in SHEETS)]), st.text(min_size=1, max_size=40)))
def test_the_export_sheet_name(drawn, sheet):
    t, _series, client = drawn
    sheet = sheet.replace("/", "")
    if not sheet:
        return
    response = client.get(reverse("tournaments:export_csv", args=[t.pk, sheet]))
    assert response.status_code in {200, 404}
    assert (response.status_code == 200) == (sheet.lower() in {s.lower() for s in SHEETS})
    if response.status_code == 200:
        b"".join(response.streaming_content)


@FUZZ
@given(number=st.integers(0, 3), table=st.one_of(st.none(), st.integers(0, 4)), data=value(junk))
def test_reissuing_table_links(drawn, number, table, data):
    t, _series, client = drawn
    tokens = dict(Table.objects.values_list("pk", "token"))
    before = snapshot()
    if table is None:
        url = reverse("tournaments:reissue_links", args=[t.pk, number])
    else:
        url = reverse("tournaments:reissue_link", args=[t.pk, number, table])
    response = client.post(url, {"x": data})
    exists = number == 1 and (table is None or table in {1, 2})
    assert response.status_code == (302 if exists else 404)
    if not exists:
        assert snapshot() == before
    else:
        changed = {pk for pk, token in Table.objects.values_list("pk", "token") if tokens[pk] != token}
        assert len(changed) == (2 if table is None else 1)


def money_data(prefix: str, key: str, keys: st.SearchStrategy[str]) -> st.SearchStrategy:
    """A money table's formset: plausible rows, one field junk, or anything. The ids of
    the two stored rows are "@0" and "@1" (replaced by the test: the pks vary)."""
    rows = [("@0", 0), ("@1", 1)]
    decimal = st.one_of(st.sampled_from(["0.50", "1.00", "2", "0", "-1", "10000.00", "1.234"]), junk)
    sizes = st.one_of(st.sampled_from(["3", "4"]), small_int(0, 5))
    ids = st.one_of(st.sampled_from(["@0", "@1"]), junk)
    fields = {}
    for i in range(3):
        fields |= {
            f"{prefix}-{i}-id": ids,
            f"{prefix}-{i}-table_size": sizes,
            f"{prefix}-{i}-{key}": keys,
            f"{prefix}-{i}-amount": decimal,
            f"{prefix}-{i}-DELETE": st.sampled_from(["on", ""]),
        }
    management = {
        f"{prefix}-TOTAL_FORMS": st.one_of(st.sampled_from(["0", "1", "2", "3"]), junk),
        f"{prefix}-INITIAL_FORMS": st.one_of(st.sampled_from(["0", "1", "2"]), junk),
    }
    plausible = st.fixed_dictionaries(
        {f"{prefix}-TOTAL_FORMS": st.just("3"), f"{prefix}-INITIAL_FORMS": st.just(str(len(rows)))}
        | {f"{prefix}-{i}-id": st.just(str(pk)) for i, (pk, _k) in enumerate(rows)}
        | {f"{prefix}-{i}-table_size": st.sampled_from(["3", "4"]) for i in range(3)}
        | {f"{prefix}-{i}-{key}": st.integers(1, 5).map(str) for i in range(3)}
        | {f"{prefix}-{i}-amount": st.sampled_from(["0.50", "1.00", "2", "0"]) for i in range(3)},
        optional={f"{prefix}-{i}-DELETE": st.just("on") for i in range(3)},
    )
    return st.one_of(
        plausible,
        st.tuples(plausible, st.sampled_from(sorted(fields | management)), junk).map(lambda t: {**t[0], t[1]: t[2]}),
        st.fixed_dictionaries({}, optional={k: value(v) for k, v in (fields | management).items()}),
    )


@pytest.fixture
def rules_world():
    director = factories.user("director")
    t = factories.tournament(directors=[director], series_count=3)
    client = Client()
    client.force_login(director)
    return t, client


@FUZZ
@given(data=st.data())
def test_the_money_tables_of_the_rules_page(rules_world, data):
    t, client = rules_world
    t.passed_out_fees.all().delete()
    t.table_money.all().delete()
    ids = {
        "passed": [
            t.passed_out_fees.create(table_size=s, from_passed_out=n, amount="0.50").pk for s, n in ((3, 4), (4, 5))
        ],
        "money": [t.table_money.create(table_size=3, place=p, amount=a).pk for p, a in ((1, "2.00"), (2, "1.00"))],
    }
    posted = dict(VALID_TOURNAMENT)
    posted |= {"fees-TOTAL_FORMS": "0", "fees-INITIAL_FORMS": "0"}
    if data.draw(st.booleans()):
        posted |= data.draw(money_data("passed", "from_passed_out", small_int(-1, 8)))
    if data.draw(st.booleans()):
        posted |= data.draw(money_data("money", "place", small_int(-1, 6)))

    def real(v, prefix):
        if isinstance(v, list):
            return [real(x, prefix) for x in v]
        return str(ids[prefix][int(v[1])]) if v in ("@0", "@1") else v

    posted = {k: real(v, k.split("-")[0]) if k.split("-")[0] in ids else v for k, v in posted.items()}
    before = snapshot()
    response = client.post(reverse("tournaments:edit", args=[t.pk]), posted)
    event(f"status {response.status_code}")
    assert response.status_code in {200, 302}
    if response.status_code == 200:
        assert snapshot() == before
        context = response.context
        page = response.content.decode()
        assert_shown(page, context["form"], context["fees"], context["passed_out_fees"], context["table_money"])
        for formset, name in ((context["passed_out_fees"], "passed-out fee"), (context["table_money"], "table money")):
            for form in formset.forms:
                for error in form["id"].errors if formset.is_bound else []:
                    assert html.escape(f"{name}: {error}") in page  # a hidden field: named above its row
    else:
        for row in t.table_money.all():
            assert 1 <= row.place <= row.table_size
        for row in t.passed_out_fees.all():
            assert row.table_size in {3, 4} and row.from_passed_out >= 1
