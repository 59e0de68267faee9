"""fx27b: misreadings `gate_holdout26` showed, each mended as a rule.

1. "cant" typed without its apostrophe rules out as "can't" does ("cant use bleach").
2. "Is there any way to X without Y?" asks for a way without Y: Y is excluded (a yes/no
   question about a condition, "Is it safe to run the pump without water?", still is not).
3. "not going down the X route" refuses X, and "rather not go down the DIY route" names the
   DIY, not "down the diy route".
4. "not" never mentions an item, though "note" stems as it does.
5. "I only have liability, no collision": what the asker has, then what they lack, is a lack
   stated (review at most), not a rule; "I have a toddler, no nuts please" stays a rule.
6. A heading that labels checks for the item ("Gluten checks:") and "X contains anchovies,
   so skip it" warn of the item; they do not use it.
7. "keep X out of Y" asked how to do ("Is there a way in Hugo to keep draft posts out of the
   production build?") excludes nothing, "keep crypto out of it" still does; "can't get
   under it", "can't get through" exclude no "under" or "through", while SQL's OVER and a
   coat's down stay excluded.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.exclusions import exclusion_matches
from scoregate.scoring.request_analysis import analyze


def _excluded(query: str) -> list[str]:
    return [t for t, _ in exclusion_matches(query)]


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("whats the best way to clean mould? cant use bleach, we're on a septic tank", "bleach"),
        ("I cant have dairy. Smoothie ideas?", "dairy"),
        ("Is there any way to sharpen kitchen knives without a whetstone?", "whetstone"),
        ("Is there an easy way to cook rice without a rice cooker?", "rice cooker"),
        ("Are there any ways to heat the room without gas?", "gas"),
        ("I'm not going down the whetstone route.", "whetstone"),
        ("we dont want to go the private school route. Options?", "private school"),
    ],
)
def test_the_exclusion_is_read(query: str, item: str) -> None:
    assert item in _excluded(query)


def test_a_question_about_a_condition_still_excludes_nothing() -> None:
    assert _excluded("Is it safe to run the pump without water?") == []


def test_a_way_refused_by_another_cue_names_the_way() -> None:
    assert analyze("I'd rather not go down the DIY route, so who should I call?").excluded == [
        "diy"
    ]
    assert analyze("I'd rather not go the progressive lenses route. Options?").excluded == [
        "progressive lenses"
    ]
    assert analyze("no toll road please").excluded == ["toll road"]


def test_not_never_mentions_an_item() -> None:
    assert mentions("Your own policy will not pay for it.", "note") == (False, False)
    assert mentions("Leave a note with your number.", "note")[0]


@pytest.mark.parametrize(
    "query",
    [
        "I only have liability on this car, no collision and no uninsured motorist coverage."
        " Is there any way to get this paid for?",
        "we've got a hob, no oven. dinner ideas?",
        "We have a tiny flat, no garden. What pets suit us?",
    ],
)
def test_what_the_asker_has_then_lacks_is_a_lack(query: str) -> None:
    found = analyze(query).exclusions
    assert found and all(e.lack for e in found)


@pytest.mark.parametrize(
    "query",
    [
        "I have a toddler, no nuts in the house please",
        "I have a toddler, no nuts in the house. Snack ideas?",
        "No nuts please. Snack ideas?",
    ],
)
def test_a_rule_stays_a_rule(query: str) -> None:
    found = analyze(query).exclusions
    assert [e.item for e in found] == ["nuts"] and not found[0].lack


@pytest.mark.parametrize(
    ("answer", "item"),
    [
        (
            "Gluten checks: make sure your mustard and any stock are labelled gluten-free.",
            "gluten",
        ),
        (
            "Two vegetarian watch-outs: regular Worcestershire sauce contains anchovies, so"
            " skip it or buy a vegetarian version.",
            "anchovies",
        ),
        ("Most Worcestershire sauce contains anchovies, so use a vegan one.", "anchovies"),
    ],
)
def test_a_warning_does_not_use_the_item(answer: str, item: str) -> None:
    assert mentions(answer, item) == (True, False)


@pytest.mark.parametrize(
    ("answer", "item"),
    [
        ("This dressing has anchovies, so it tastes great.", "anchovies"),
        ("Gluten checks: add a spoon of wheat flour and gluten.", "gluten"),
    ],
)
def test_a_use_beside_a_warning_still_counts(answer: str, item: str) -> None:
    assert mentions(answer, item) == (True, True)


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("Keep daylight saving out of it, just explain time zones.", "daylight saving"),
        ("leave crypto out of it completely. Where do I put £5k?", "crypto"),
        ("Write the query, no window functions (no ROW_NUMBER, RANK, OVER).", "over"),
        ("Need a warm coat but I'd prefer not to buy down.", "down"),
    ],
)
def test_what_the_answer_leaves_out_is_still_excluded(query: str, item: str) -> None:
    assert item in _excluded(query)


@pytest.mark.parametrize(
    "query",
    [
        "Is there a way in Hugo to keep draft posts out of the production build?",
        "squeaky floor upstairs. cant get under it (finished ceiling below). fix from above?",
        "A gate blocks the bridleway and riders can't get through. Draft a report to the council?",
    ],
)
def test_where_something_goes_excludes_nothing(query: str) -> None:
    assert _excluded(query) == []
