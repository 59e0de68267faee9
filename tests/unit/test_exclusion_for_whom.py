"""An exclusion followed by who or how much the request is for: "without nuts for 4" rules
out nuts (the item used to swallow "for 4", so walnuts no longer matched and the violating
answer was accepted). A span of time stays with its item: "no flowers for 3 years" states a
fact, and cutting it would hold every mention of flowers against the answer."""

from __future__ import annotations

import pytest

from scoregate.scoring.exclusions import parse_exclusions
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("Give me a pasta recipe without nuts for 4", "nuts"),
        ("A curry without coconut for two people tonight", "coconut"),
        ("soup without onions for 6 servings?", "onions"),
        ("dessert with no dairy for 8 guests, please", "dairy"),
        ("a stir fry without peanuts for under $10", "peanuts"),
        ("a cheese board without brie for a few friends", "brie"),
    ],
)
def test_who_or_how_much_it_is_for_ends_the_item(query: str, item: str) -> None:
    assert parse_exclusions(query) == [item]


@pytest.mark.parametrize(
    "query",
    [
        "Lush green leaves but no flowers for 3 years. What am I doing wrong?",
        "the fees add up fast for 40 coins and I'd rather not pay for grading",
    ],
)
def test_a_span_of_time_or_a_count_of_things_is_not_cut(query: str) -> None:
    assert "flowers" not in parse_exclusions(query)
    assert "fees add up fast" not in parse_exclusions(query)


def test_the_reported_request_flags_walnuts() -> None:
    a = analyze("Give me a pasta recipe without nuts for 4")
    answer = "Toast walnuts and toss them with spaghetti, butter and parmesan."
    assert [i for i, _ in check_members(a.excluded, answer, asked=a.asked).violated] == ["nuts"]
