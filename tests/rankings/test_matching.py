"""Who is who across tournaments (rankings/matching.py): records matched by name and club,
never across two membership numbers or two records of one tournament; doubtful pairs
listed for the director."""

from __future__ import annotations

from rankings.matching import Record, distance, match


def records(*rows: tuple[int, str, str, str]) -> dict[int, Record]:
    return {pk: Record(pk, name, club, number) for pk, name, club, number in rows}


def test_the_same_name_and_club_in_any_order_and_spelling_is_one_person():
    """ "Jürgen Müller" and "Mueller, Juergen" of one club, in two tournaments: one person,
    shown as the record with the membership number."""
    found = match(records((1, "Jürgen Müller", "SC", ""), (2, "Mueller, Juergen", "SC", "D-7")), {1: {10}, 2: {11}})
    assert found.person_of == {1: 2, 2: 2} and found.by_name == 1 and found.doubtful == []


def test_two_membership_numbers_or_one_tournament_are_two_people():
    found = match(
        records(
            (1, "Anna Alt", "SC", "1"),
            (2, "Anna Alt", "SC", "2"),
            (3, "Bert Bau", "SC", ""),
            (4, "Bert Bau", "SC", ""),
        ),
        {1: {10}, 2: {11}, 3: {10}, 4: {10}},
    )
    assert len(set(found.person_of.values())) == 4 and found.doubtful == []


def test_doubtful_pairs_wait_for_the_director():
    """The same name in another club; the same surname and initial; a spelling two letters apart."""
    found = match(
        records(
            (1, "Anna Alt", "SC", ""),
            (2, "Anna Alt", "TuS", ""),
            (3, "Karl Berg", "SC", ""),
            (4, "K. Berg", "SC", ""),
            (5, "Jürgen Maier", "TuS", ""),
            (6, "Jurgen Meier", "TuS", ""),
            (7, "Zoe Zorn", "TuS", ""),
        ),
        {pk: {pk} for pk in range(1, 8)},
    )
    assert sorted((a, b, why) for a, b, why in found.doubtful) == [
        (1, 2, "club"),
        (3, 4, "initial"),
        (5, 6, "spelling"),
    ]
    assert len(set(found.person_of.values())) == 7


def test_decisions_merge_or_keep_apart_and_a_contradicted_merge_is_not_applied():
    rows = records(
        (1, "Anna Alt", "SC", ""), (2, "Anna Alt", "TuS", ""), (3, "Karl Berg", "SC", ""), (4, "K. Berg", "SC", "")
    )
    found = match(rows, {1: {10}, 2: {11}, 3: {10}, 4: {11}}, [(1, 2, True), (3, 4, False)])
    assert found.person_of[2] == found.person_of[1] and found.person_of[3] != found.person_of[4]
    assert found.doubtful == []
    later = match(rows, {1: {10, 12}, 2: {11, 12}, 3: {10}, 4: {11}}, [(1, 2, True)])
    assert later.contradicted == [(1, 2)] and later.person_of[1] != later.person_of[2]


def test_a_large_club_is_compared_by_surname_only():
    """In a club of more than 400 records, alike names are looked for among the same first
    letters of the surname (so 3,000 records stay a few thousand comparisons)."""
    rows = {pk: Record(pk, f"Xaver {_word(pk)}", "Big", "") for pk in range(1, 402)}
    rows[500] = Record(500, "Karl Berg", "Big", "")
    rows[501] = Record(501, "K. Berg", "Big", "")
    found = match(rows, {pk: {pk} for pk in rows})
    assert (500, 501, "initial") in found.doubtful


def _word(n: int) -> str:
    """A surname of six letters, different for every n."""
    n = n * 104729 + 12345
    return "".join(chr(ord("a") + (n // 26**k) % 26) for k in range(6)).capitalize()


def test_distance_stops_above_the_limit():
    assert distance("maier", "meier") == 1
    assert distance("abc", "abcdef") == 3
    assert distance("abcdef", "uvwxyz") == 3
    assert distance("juergen maier", "jurgen meier") == 2
    assert distance("ab", "ba") == 2 and distance("", "ab") == 2
