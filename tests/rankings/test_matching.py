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


def test_within_a_club_only_surnames_of_one_first_letter_are_compared():
    """ "Karl Berg" and "K. Berg" are compared; "Jürgen Maier" and "Jürgen Naier" (a typo in
    the surname's first letter) are not: 3,000 records stay a few thousand comparisons."""
    rows = records(
        (1, "Karl Berg", "SC", ""),
        (2, "K. Berg", "SC", ""),
        (3, "Jürgen Maier", "SC", ""),
        (4, "Jürgen Naier", "SC", ""),
    )
    found = match(rows, {pk: {pk} for pk in rows})
    assert found.doubtful == [(1, 2, "initial")]


def test_distance_stops_above_the_limit():
    assert distance("maier", "meier") == 1
    assert distance("abc", "abcdef") == 3
    assert distance("abcdef", "uvwxyz") == 3
    assert distance("juergen maier", "jurgen meier") == 2
    assert distance("ab", "ba") == 2 and distance("", "ab") == 2
