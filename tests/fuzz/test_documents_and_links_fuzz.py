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

from skat.prizes import check_prize_rules
from tests import factories
from tournaments.models import Table
from transfer.exports import SHEETS

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
    response = client.get(reverse(f"director:{which}", args=args), query)
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
    response = client.get(reverse("director:export_csv", args=[t.pk, sheet]))
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
        url = reverse("director:reissue_links", args=[t.pk, number])
    else:
        url = reverse("director:reissue_link", args=[t.pk, number, table])
    response = client.post(url, {"x": data})
    exists = number == 1 and (table is None or table in {1, 2})
    assert response.status_code == (302 if exists else 404)
    if not exists:
        assert snapshot() == before
    else:
        changed = {pk for pk, token in Table.objects.values_list("pk", "token") if tokens[pk] != token}
        assert len(changed) == (2 if table is None else 1)


MONEY = st.sampled_from(["0.50", "1.00", "2", "0"])
NASTY_MONEY = st.one_of(st.sampled_from(["0.50", "1.00", "2", "0", "-1", "10000.00", "1.234"]), junk)
SIZES = (st.sampled_from(["3", "4"]), st.one_of(st.sampled_from(["3", "4"]), small_int(0, 5)))


def money_data(prefix: str, fields: dict[str, tuple[st.SearchStrategy, st.SearchStrategy]]) -> st.SearchStrategy:
    """A money table's formset: plausible rows, one field junk, or anything. ``fields``
    maps each column to (a plausible value, any value). The ids of the two stored rows
    are "@0" and "@1" (replaced by the test: the pks vary)."""
    rows = [("@0", 0), ("@1", 1)]
    ids = st.one_of(st.sampled_from(["@0", "@1"]), junk)
    anything = {}
    for i in range(3):
        anything |= {f"{prefix}-{i}-id": ids, f"{prefix}-{i}-DELETE": st.sampled_from(["on", ""])}
        anything |= {f"{prefix}-{i}-{name}": nasty for name, (_plausible, nasty) in fields.items()}
    management = {
        f"{prefix}-TOTAL_FORMS": st.one_of(st.sampled_from(["0", "1", "2", "3"]), junk),
        f"{prefix}-INITIAL_FORMS": st.one_of(st.sampled_from(["0", "1", "2"]), junk),
    }
    plausible = st.fixed_dictionaries(
        {f"{prefix}-TOTAL_FORMS": st.just("3"), f"{prefix}-INITIAL_FORMS": st.just(str(len(rows)))}
        | {f"{prefix}-{i}-id": st.just(str(pk)) for i, (pk, _k) in enumerate(rows)}
        | {f"{prefix}-{i}-{name}": good for i in range(3) for name, (good, _nasty) in fields.items()},
        optional={f"{prefix}-{i}-DELETE": st.just("on") for i in range(3)},
    )
    return st.one_of(
        plausible,
        st.tuples(plausible, st.sampled_from(sorted(anything | management)), junk).map(lambda t: {**t[0], t[1]: t[2]}),
        st.fixed_dictionaries({}, optional={k: value(v) for k, v in (anything | management).items()}),
    )


MONEY_TABLES = {
    "passed": {
        "table_size": SIZES,
        "from_passed_out": (st.integers(1, 5).map(str), small_int(-1, 8)),
        "amount": (MONEY, NASTY_MONEY),
    },
    "money": {
        "table_size": SIZES,
        "place": (st.integers(1, 5).map(str), small_int(-1, 6)),
        "amount": (MONEY, NASTY_MONEY),
    },
    # A share or a fixed amount per place: both, neither and shares above 100 % in all are refused.
    "prizes": {
        "place": (st.integers(1, 5).map(str), small_int(-1, 6)),
        "percent": (st.sampled_from(["", "10", "33.33", "50", "60"]), NASTY_MONEY),
        "amount": (st.sampled_from(["", "", "100", "5.50"]), NASTY_MONEY),
    },
}


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
    t.prizes.all().delete()
    ids = {
        "passed": [
            t.passed_out_fees.create(table_size=s, from_passed_out=n, amount="0.50").pk for s, n in ((3, 4), (4, 5))
        ],
        "money": [t.table_money.create(table_size=3, place=p, amount=a).pk for p, a in ((1, "2.00"), (2, "1.00"))],
        "prizes": [t.prizes.create(place=1, percent="50").pk, t.prizes.create(place=2, amount="20").pk],
    }
    posted = dict(VALID_TOURNAMENT)
    posted |= {"fees-TOTAL_FORMS": "0", "fees-INITIAL_FORMS": "0"}
    for prefix, fields in MONEY_TABLES.items():
        if data.draw(st.booleans()):
            posted |= data.draw(money_data(prefix, fields))

    def real(v, prefix):
        if isinstance(v, list):
            return [real(x, prefix) for x in v]
        return str(ids[prefix][int(v[1])]) if v in ("@0", "@1") else v

    posted = {k: real(v, k.split("-")[0]) if k.split("-")[0] in ids else v for k, v in posted.items()}
    before = snapshot()
    response = client.post(reverse("director:edit", args=[t.pk]), posted)
    event(f"status {response.status_code}")
    assert response.status_code in {200, 302}
    if response.status_code == 200:
        assert snapshot() == before
        context = response.context
        page = response.content.decode()
        formsets = (context["passed_out_fees"], context["table_money"], context["prizes"])
        assert_shown(page, context["form"], context["fees"], *formsets)
        for formset, name in zip(formsets, ("passed-out fee", "table money", "prize"), strict=True):
            for form in formset.forms:
                for error in form["id"].errors if formset.is_bound else []:
                    assert html.escape(f"{name}: {error}") in page  # a hidden field: named above its row
    else:
        for row in t.table_money.all():
            assert 1 <= row.place <= row.table_size
        for row in t.passed_out_fees.all():
            assert row.table_size in {3, 4} and row.from_passed_out >= 1
        # A saved prize table can be paid out: one prize per place, a share or an amount, <= 100 %.
        check_prize_rules(t.prize_rules())
