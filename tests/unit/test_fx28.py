"""fx28: readings left open after the twenty-seventh session, each mended as a rule.

1. "between 3 and 5 tips" is the range 3 to 5, as "3 to 5 tips" is; "between 2 and 3
   sentences" is at most 3, never exactly 3.
2. A hedge that closes the sentence of a list count ("4 hikes near Bath, roughly.") sets
   no count; a hedge of something else ("roughly in order of importance") leaves it.
3. "X is out today / tonight / tomorrow" rules X out, and "sugar's out" is "sugar is out";
   a person's name before it is still someone away.
4. An act ruled out in places the cue's end cut off ("no cooking in the microwave or air
   fryer") is the act there; an act done with an appliance rules out the appliance.
5. "can't use bleach on this countertop" rules out the bleach, not the countertop; a
   question after it ("what else kills mold") is no excluded thing.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.request_analysis import analyze
from tests.unit.test_fx26b import _counts


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Give me between 3 and 5 tips for sleeping better",
            [("items", "at_least", 3), ("items", "at_most", 5)],
        ),
        (
            "give me between three and five ideas",
            [("items", "at_least", 3), ("items", "at_most", 5)],
        ),
        ("Answer in between 2 and 3 sentences", [("sentences", "at_most", 3)]),
        ("Keep it between 50 and 80 words please", [("words", "at_most", 80)]),
        # "and" joins a range only after "between"
        ("Give me 3 and 5 letter words", []),
        ("what is the difference between 3 and 5 stars", []),
    ],
)
def test_between_two_numbers_is_a_range(query: str, expected: list[tuple[str, str, int]]) -> None:
    assert _counts(query) == expected


def test_a_hedge_that_closes_the_sentence_sets_no_count() -> None:
    assert _counts("Suggest 4 hikes near Bath, roughly.") == []
    assert _counts("Give me 5 ideas for a rainy day, give or take.") == []
    # the hedge of another thing, or in another sentence, leaves the count
    assert _counts("Give me 5 tips for a job interview, roughly in order of importance") == [
        ("items", "exactly", 5)
    ]
    assert _counts("Suggest 4 hikes near Bath. Roughly 10km each.") == [("items", "exactly", 4)]


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("Alcohol is out today, what can I drink at the party?", ["alcohol"]),
        ("sugar's out this month - snack ideas?", ["sugar"]),
        ("Gluten's off the table. Pasta ideas?", ["gluten"]),
        ("Bacon's out till Monday, breakfast ideas?", ["bacon"]),
        # someone away, a service down, a question: nothing ruled out
        ("Tom's out today, can you draft the email to the client?", []),
        ("The power's out, how do I keep the freezer cold?", []),
        ("what's out there for beginners in pottery?", []),
    ],
)
def test_out_today_and_the_contracted_is(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        (
            "No cooking in the microwave or air fryer please, what can I make?",
            ["microwave", "air fryer"],
        ),
        ("no drying in the tumble dryer, how do I dry a wool jumper?", ["tumble dryer"]),
        ("no cooking on the hob tonight, dinner ideas?", ["hob"]),
        (
            "No drilling in the walls or ceiling, how do I hang a mirror?",
            ["drilling in walls", "drilling in ceiling"],
        ),
        ("no smoking in the house, where can guests go?", ["smoking in house"]),
        # a thing, no act: the place is cut off as before
        ("no garlic in the sauce please", ["garlic"]),
    ],
)
def test_an_act_in_places_the_cue_cut_off(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


def test_an_appliance_ruled_out_is_used_by_an_answer_that_cooks_in_it() -> None:
    assert mentions("Microwave the sweet potato for 8 minutes.", "microwave")[1]
    assert mentions("Put the fries in the air fryer at 200C.", "air fryer")[1]
    assert not mentions("Cook the pasta on the hob for 10 minutes.", "microwave")[0]


@pytest.mark.parametrize(
    "query",
    [
        "I can't use bleach on this countertop its marble, what else kills mold",
        "I can't use bleach on this countertop, it's marble. What else kills mold?",
    ],
)
def test_a_thing_used_on_a_surface_is_the_thing(query: str) -> None:
    assert analyze(query).excluded == ["bleach"]
