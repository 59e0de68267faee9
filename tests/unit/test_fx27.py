"""fx27: two misreadings of a request, each mended as a rule.

1. A list count hedged right after its number or its noun ("5 or so books", "3ish ideas",
   "5 tips or so", "10 ideas, give or take") sets no count; one bounded there ("5 or more
   books", "5 or fewer tips") is at least / at most that many, not exactly it.
2. "<Name> is out" followed by a time or a place ("Tom is out until 5", "Priya is out at
   work all day") tells a person is away: it excludes nothing. A thing or an act ruled out
   with a time after it ("Dairy is out until the baby is weaned", "Driving is out until
   Friday") is still excluded.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.request_analysis import analyze
from tests.unit.test_fx26b import _counts, _items, _passes


@pytest.mark.parametrize(
    "query",
    [
        "suggest 5 or so books for a long flight",
        "give me 3 or so bullet points on this",
        "Give me 5 tips or so for sleeping better.",
        "Suggest 10 ideas, give or take.",
    ],
)
def test_a_hedged_list_count_sets_no_count(query: str) -> None:
    assert _counts(query) == []
    assert _passes(_items(7), query)


def test_a_count_bounded_after_its_number_is_a_bound_not_exact() -> None:
    assert _counts("suggest 5 or more books for a long flight") == [("items", "at_least", 5)]
    assert _counts("give 5 or fewer tips on saving money") == [("items", "at_most", 5)]
    assert _passes(_items(7), "suggest 5 or more books for a long flight")
    assert not _passes(_items(3), "suggest 5 or more books for a long flight")
    assert not _passes(_items(7), "give 5 or fewer tips on saving money")


def test_a_plain_count_is_still_exact() -> None:
    assert _counts("give me 5 tips for sleeping better") == [("items", "exactly", 5)]
    assert not _passes(_items(7), "give me 5 tips for sleeping better")


@pytest.mark.parametrize(
    "query",
    [
        "Tom is out until 5, so can you help me plan dinner for the kids?",
        "so Priya is out at work all day and I have the dog. Walk ideas?",
        "Sam is out tonight. What can I cook just for me?",
    ],
)
def test_a_person_away_excludes_nothing(query: str) -> None:
    assert analyze(query).excluded == []


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("Dairy is out until the baby is weaned. Breakfast ideas?", "dairy"),
        ("Driving is out until Friday, what can I do?", "driving"),
        ("Gluten is out for me. Bread ideas?", "gluten"),
    ],
)
def test_a_thing_or_act_out_for_a_while_is_still_excluded(query: str, item: str) -> None:
    assert item in analyze(query).excluded
