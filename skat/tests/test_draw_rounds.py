"""The draw's swap search goes on round after round while a round still lowers the
penalty (skat/draw.py): club-mates are kept apart where the field allows (DOMAIN,
"Structure of a tournament"), also where one round of swaps leaves a pair together."""

from __future__ import annotations

from skat.draw import Entrant, draw
from skat.tests.test_draw import entrants


def test_club_mates_are_parted_even_where_one_round_of_swaps_is_not_enough():
    """28 players of 7 clubs of 4: seven tables of four with one player of each club exist.
    With seed 0 (and 32 players of 8 clubs, seed 7) one round of swaps leaves two club-mates
    together; the next round parts them."""
    for count, clubs, seed in ((28, 7, 0), (32, 8, 7)):
        field = entrants(count, clubs=clubs)
        assert draw(field, seed=seed, max_rounds=1).club_meetings == 1
        result = draw(field, seed=seed)
        assert result.club_meetings == 0
        for table in result.tables:
            assert len({player % clubs for player in table}) == len(table)


def test_a_field_without_conflicts_needs_no_swap():
    """Nobody shares a club or a team and nobody met before: no swap is made or reported."""
    for seed in range(5):
        assert draw(entrants(30), seed=seed).swaps == 0


def test_four_teams_of_four_without_a_swap_round_are_built_apart():
    """Four teams of four at four tables: as many tables as the largest team has players,
    so a seating apart exists (one of each team at each table) and, with no swap round at
    all, is built (team-mates never at one table, DOMAIN)."""
    field = [Entrant(f"{t}{n}", team=t) for t in "ABCD" for n in range(1, 5)]
    for seed in range(5):
        result = draw(field, seed=seed, max_rounds=0)
        assert result.team_meetings == 0
        assert all(sorted(player[0] for player in table) == ["A", "B", "C", "D"] for table in result.tables)


def test_the_swaps_reported_include_those_made_before_the_seating_apart_was_built():
    """Four teams of four and two single players, one swap round: with seed 4 the round
    makes 2 swaps and still leaves team-mates together, so the seating apart is built and
    one more round finds nothing to swap: 2 swaps in all (as published for this seed)."""
    field = [Entrant(f"{t}{n}", team=t) for t in "ABCD" for n in range(1, 5)] + [Entrant("s1"), Entrant("s2")]
    result = draw(field, seed=4, max_rounds=1)
    assert result.team_meetings == 0
    assert result.swaps == 2


def test_a_seeded_draw_parts_club_mates_only_near_their_seeded_tables():
    """The four best of 24 players (seeded at table 1) are of one club. Swaps go only to
    tables within the window (1 or 2), so the seeding holds: nobody ends more than two
    tables from the table the ranking gave him, though club-mates could be parted fully by
    sending them further; the draw keeps the one club meeting left rather than the seeding."""
    field = [Entrant(i, club="A" if i < 4 else None) for i in range(24)]
    for window in (1, 2):
        for seed in range(5):
            result = draw(field, seed=seed, ranking=list(range(24)), window=window)
            assert max(abs(t - player // 4) for t, table in enumerate(result.tables) for player in table) <= 2
            assert result.club_meetings == 1


def test_swaps_after_the_seating_apart_was_built_lower_the_club_meetings_and_are_counted():
    """The same line-up with clubs X, Y, Z and seed 3: one swap round makes 4 swaps and
    leaves team-mates together; the seating apart is built, and one more round makes 1 swap
    that parts club-mates without putting team-mates together: 5 swaps in all (as published
    for this seed), no team-mates, and 3 club meetings, the fewest possible: at five tables
    the 7 players of club Y meet at least twice and the 6 of club X at least once."""
    clubs = iter("ZXYYXXXZZYZYYXYYXZ")
    field = [Entrant(f"{t}{n}", team=t, club=next(clubs)) for t in "ABCD" for n in range(1, 5)]
    field += [Entrant("s1", club=next(clubs)), Entrant("s2", club=next(clubs))]
    result = draw(field, seed=3, max_rounds=1)
    assert (result.swaps, result.team_meetings, result.club_meetings) == (5, 0, 3)


def test_the_swap_search_is_bounded_at_twenty_rounds_a_pass(monkeypatch):
    """However the conflicts fall, one draw costs at most 20 rounds of swaps per pass, so
    a draw of 3,000 players ends in bounded time (no unbounded CPU on a hall laptop)."""
    import skat.draw as module

    rounds: list[int] = []
    real = module._improve

    def counted(tables, conflicts, rng, window, max_rounds):
        rounds.append(max_rounds)
        return real(tables, conflicts, rng, window, max_rounds)

    monkeypatch.setattr(module, "_improve", counted)
    draw(entrants(28, clubs=7), seed=0)
    assert rounds and set(rounds) == {20}
