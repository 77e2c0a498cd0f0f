"""Rule presets for a new tournament: the usual kinds of event as data.

A preset fills a new tournament's own rule tables once, when it is created: the rounds
per series (so the deals, 3.2.1), the entry and list fee, the prize pool's share, the
lost-game and passed-out fees and the table money (DOMAIN, "Settlement"), and ticks
"publish standings". The director
then edits them like any tournament's rules; the preset is not remembered, so nothing
changes them afterwards. A new preset is a new entry in :data:`PRESETS`, never a code
branch: :func:`apply_preset` and :func:`summary` read only the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import LostGameFee, PassedOutFee, TableMoney, Tournament


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    rounds_per_series: int
    entry_fee: Decimal
    list_fee: Decimal
    prize_pool_percent: int
    #: (from the nth lost game, amount)
    lost_game_fees: tuple[tuple[int, Decimal], ...]
    #: (table size, from the nth passed-out deal, amount per player)
    passed_out_fees: tuple[tuple[int, int, Decimal], ...] = ()
    #: (table size, place at the table, amount)
    table_money: tuple[tuple[int, int, Decimal], ...] = ()
    #: The usual events show their standings to the hall (the projector, the public
    #: page): a preset ticks "publish standings"; a tournament from scratch starts unpublished.
    standings_public: bool = True

    def fields(self) -> dict[str, object]:
        """The tournament's own fields the preset sets (the create form's initial values)."""
        return {
            "rounds_per_series": self.rounds_per_series,
            "entry_fee": self.entry_fee,
            "list_fee": self.list_fee,
            "prize_pool_percent": self.prize_pool_percent,
            "standings_public": self.standings_public,
        }


D = Decimal
PRESETS: tuple[Preset, ...] = (
    Preset(
        key="federation",
        name=_("Federation tournament"),
        rounds_per_series=12,
        entry_fee=D("15.00"),
        list_fee=D("0.00"),
        prize_pool_percent=90,
        lost_game_fees=((1, D("0.50")), (4, D("1.00"))),
        passed_out_fees=((3, 4, D("0.50")), (4, 5, D("0.50"))),
        table_money=(
            (4, 1, D("2.00")),
            (4, 2, D("1.20")),
            (4, 3, D("0.80")),
            (4, 4, D("0.00")),
            (3, 1, D("2.00")),
            (3, 2, D("1.00")),
            (3, 3, D("0.00")),
        ),
    ),
    Preset(
        key="club",
        name=_("Club evening"),
        rounds_per_series=10,
        entry_fee=D("5.00"),
        list_fee=D("0.00"),
        prize_pool_percent=100,
        lost_game_fees=((1, D("1.00")),),
    ),
    Preset(
        key="short",
        name=_("Short"),
        rounds_per_series=8,
        entry_fee=D("5.00"),
        list_fee=D("0.00"),
        prize_pool_percent=100,
        lost_game_fees=((1, D("0.50")), (4, D("1.00"))),
    ),
)
BY_KEY: dict[str, Preset] = {preset.key: preset for preset in PRESETS}


def apply_preset(tournament: Tournament, preset: Preset) -> None:
    """Write the preset's rule tables for a new ``tournament`` (call inside its creation's transaction)."""
    LostGameFee.objects.bulk_create(
        LostGameFee(tournament=tournament, from_lost_game=start, amount=amount)
        for start, amount in preset.lost_game_fees
    )
    PassedOutFee.objects.bulk_create(
        PassedOutFee(tournament=tournament, table_size=size, from_passed_out=start, amount=amount)
        for size, start, amount in preset.passed_out_fees
    )
    TableMoney.objects.bulk_create(
        TableMoney(tournament=tournament, table_size=size, place=place, amount=amount)
        for size, place, amount in preset.table_money
    )


def _money(amount: Decimal) -> str:
    """0.50 in English, 0,50 in German."""
    return number_format(amount, 2)


def summary(preset: Preset) -> str:
    """What the preset sets, in words, read from its data: "12 rounds: 48/36 deals; lost-game
    fee 0.50 from the 1st, 1.00 from the 4th lost game; ..."."""
    rounds = preset.rounds_per_series
    parts = [
        ngettext(
            "%(n)s round: %(four)s/%(three)s deals",
            "%(n)s rounds: %(four)s/%(three)s deals",
            rounds,
        )
        % {"n": rounds, "four": 4 * rounds, "three": 3 * rounds}
    ]
    steps = preset.lost_game_fees
    if len(steps) == 1 and steps[0][0] == 1:
        parts.append(_("lost-game fee flat %(amount)s") % {"amount": _money(steps[0][1])})
    elif steps:
        parts.append(
            _("lost-game fee %(steps)s")
            % {
                "steps": ", ".join(
                    _("%(amount)s from the %(nth)s.") % {"amount": _money(amount), "nth": start}
                    for start, amount in steps
                )
            }
        )
    if preset.passed_out_fees:
        parts.append(
            _("passed-out fee %(steps)s")
            % {
                "steps": ", ".join(
                    _("%(amount)s from the %(nth)s. at %(size)s") % {"amount": _money(a), "nth": n, "size": s}
                    for s, n, a in preset.passed_out_fees
                )
            }
        )
    if preset.table_money:
        parts.append(_("table money"))
    parts.append(
        _("entry fee %(entry)s, prize pool %(share)s %%")
        % {"entry": _money(preset.entry_fee), "share": preset.prize_pool_percent}
    )
    return "; ".join(str(part) for part in parts)
