"""The Tournament, Players and Tables sheets: what is needed to rebuild the tournament elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

from standings.places import finality

from .columns import FORMAT_VERSION


def _x(flag: object) -> str | None:
    return "x" if flag else None


def tournament_rows(tournament) -> Iterator[tuple]:
    """The Tournament sheet: the settings needed to rebuild it, as field/value pairs."""
    fees = " ".join(f"{fee.from_lost_game}:{fee.amount}" for fee in tournament.lost_game_fees.all())
    yield ("Format", FORMAT_VERSION)
    yield ("Name", tournament.name)
    yield ("Date", tournament.date.isoformat())
    yield ("Venue", tournament.venue)
    yield ("Number of series", tournament.series_count)
    yield ("Rounds per series", tournament.rounds_per_series)
    yield ("Lot seed", tournament.lot_seed)
    yield ("Entry fee", str(tournament.entry_fee))
    yield ("List fee", str(tournament.list_fee))
    yield ("Prize pool percent", tournament.prize_pool_percent)
    yield ("Lost-game fees", fees)
    yield ("Standings public", _x(tournament.standings_public))
    # The other money tables (after the older rows, whose positions stay as they were).
    yield (
        "Passed-out fees",
        " ".join(f"{f.table_size}:{f.from_passed_out}:{f.amount}" for f in tournament.passed_out_fees.all()),
    )
    yield ("Table money", " ".join(f"{m.table_size}:{m.place}:{m.amount}" for m in tournament.table_money.all()))
    # The overall ranking's prizes: a category's own (place 1 of "Damen") beside place 1
    # overall would be a second prize of place 1, refused by the import.
    yield (
        "Prizes",
        " ".join(
            f"{p.place}:{p.percent}%" if p.percent is not None else f"{p.place}:{p.amount}"
            for p in tournament.prizes.all()
            if p.category_id is None
        ),
    )
    # The list fees a withdrawal gets back (tournaments.door.refund), after the older rows.
    yield ("List fee refund percent", tournament.list_fee_refund_percent)
    yield ("Table money from", tournament.table_money_from)
    # Whether the results are final (5.5.3: only confirmed sheets are): a league manager
    # reading the file must see that it is provisional. The import reads no such field.
    yield ("Standings", standings_status(finality(tournament)))


def standings_status(state) -> str:
    """ "final", or "provisional: ..." with the unconfirmed sheets and unfinished series (data, in English)."""
    if state.final:
        return "final"
    reasons = []
    if state.confirmed < state.sheets:
        # Data in English (never translated), singular and plural all the same.
        sheets = "sheet" if state.sheets == 1 else "sheets"
        reasons.append(f"{state.sheets - state.confirmed} of {state.sheets} {sheets} not confirmed")
    if state.unfinished:
        reasons.append(f"series {', '.join(map(str, state.unfinished))} not finished")
    return "provisional: " + "; ".join(reasons)


def player_rows(tournament) -> Iterator[tuple]:
    """The Players sheet: every registration; Player ID is the key the Tables sheet uses."""
    from tournaments.models import Registration

    registrations = (
        Registration.objects.filter(tournament=tournament)
        .order_by("player__name", "player_id")
        .values_list(
            "player_id",
            "player__name",
            "player__club__name",
            "player__membership_number",
            "player__nationality",
            "team__name",
            "first_series",
            "withdrawn_after_series",
            "paid",
            "category__name",
        )
    )
    for pk, name, club, number, nationality, team, first, withdrawn, paid, category in registrations:
        yield (pk, name, club, number, nationality, team, first, withdrawn, _x(paid), category)


def table_rows(tournament) -> Iterator[tuple]:
    """The Tables sheet: every seat of every series, with the series' status and draw."""
    from tournaments.models import Seat

    seats = (
        Seat.objects.filter(series__tournament=tournament)
        .order_by("series__number", "table__number", "number")
        .values_list(
            "series__number",
            "series__status",
            "series__method",
            "series__seed",
            "table__number",
            "table__size",
            "number",
            "player_id",
            "player__name",
            "player__membership_number",
        )
    )
    for row in seats:
        yield (*row[:8], row[8], row[9])
