"""fx29b: what a reviewer who had not written the fx29 rules found wrong in them, mended.

1. "lift" is read as the building's only when the excluded item is that noun: "no heavy
   lifting" is still broken by "lift the boxes", "no fishing" by "hire a fishing rod";
   "two people lift it" and "a lift to the tip" (a ride) use no lift; "Lifts can be
   booked" does.
2. "none of" lists nothing after a comma ("last summer, none of Rome, Paris or Madrid felt
   crowded") or before a pronoun ("none of whom", "none of mine"); "Catan etc" is Catan.
3. "rather not pay for a gym" rules out the gym (an article after "pay for" no longer ends
   the item); "this season" ends it; "avoid being locked into" is read; "no bed yet" is the
   bed; a question of two words or more after the last comma is what is asked for, not
   ruled out ("rather not pay for Spotify, free music apps?").
4. "Many of these socks are blends with wool" recommends wool; only a hedged "are actually
   blends with" warns. "cotton wool" and "steel wool" are no wool; a "cashmere-feel"
   finish is no cashmere.
5. JSON keys are read in "each object should have the keys ..." and "with `title` and
   `year` fields".
6. A clause left after a cut exclusion that asks something ("can we do it") is kept.
7. What a product may contain reaches the short list after it: "quietly contain wool,
   merino or other animal fibres" warns of the merino too ("..., add butter" is no list).
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


@pytest.mark.parametrize(
    ("answer", "term", "used"),
    [
        ("Lift the boxes with your legs bent.", "lifting", True),
        ("Keep lifting weights, just lighter ones.", "lifting", True),
        ("Do the heavy lifting yourself on the day.", "heavy lifting", True),
        ("Hire a fishing rod and a rowing boat.", "fishing", True),
        ("Have two people lift it, one at each end.", "lift", False),
        ("Ask a friend with a van for a lift to the tip.", "lift", False),
        ("Lifts can usually be booked through the concierge.", "lift", True),
        ("Soak a cotton wool pad in acetone.", "wool", False),
        ("Scrub it with steel wool.", "wool", False),
        ("Many of these socks are blends with wool, which keeps them warm.", "wool", True),
        ("Lots of acrylic yarns are actually blends with wool.", "wool", False),
    ],
)
def test_senses_and_warnings(answer: str, term: str, used: bool) -> None:
    assert mentions(answer, term)[1] is used


def test_a_feel_of_a_thing_is_no_member() -> None:
    check = check_members(["wool"], "Go for an acrylic jumper with a cashmere-feel finish.")
    assert check.violated == []


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("We went last summer, none of Rome, Paris or Madrid felt crowded. Where now?", []),
        ("My brothers, none of whom get along, are coming for Christmas.", []),
        ("My roses? none of mine survive winter.", []),
        (
            "Board games for 4 adults - none of Monopoly, Risk, Catan etc.",
            ["monopoly", "risk", "catan"],
        ),
        ("I'd rather not pay for a gym membership, home workouts?", ["gym membership"]),
        ("I'd rather not pay for Spotify, free music apps?", ["spotify"]),
        ("Soup without onions, garlic?", ["onions", "garlic"]),
        ("I'd rather not pay for the premium tier.", ["premium tier"]),
        ("No skiing this season please, my knee is bad.", ["skiing"]),
        ("I want to avoid being locked into Apple's ecosystem.", ["apple's ecosystem"]),
        ("We just moved in, no bed yet. Sleeping tips?", ["bed"]),
    ],
)
def test_what_is_ruled_out(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("query", "keys"),
    [
        (
            "Return a JSON array of 3 pasta recipes; each object should have the keys name,"
            " minutes and serves.",
            ["name", "minutes", "serves"],
        ),
        ("Output a JSON object with `title` and `year` fields for Arrival.", ["title", "year"]),
    ],
)
def test_json_keys_said_other_ways(query: str, keys: list[str]) -> None:
    found = [k.value for k in analyze(query).instructions if k.check == "json_keys"]
    assert found == [keys]


def test_a_question_left_after_the_cut_is_kept() -> None:
    core = analyze("We'd like to get by without a car - can we do it, and if so how?").core_ask
    assert "can we do it" in core


def test_a_reason_left_after_the_stub_is_dropped_too() -> None:
    query = (
        "my contract's ending next month. I want to avoid getting locked into another 24 month"
        " deal, hated it. what should i do for a phone + plan?"
    )
    assert analyze(query).core_ask == (
        "my contract's ending next month. what should i do for a phone + plan?"
    )


@pytest.mark.parametrize(
    ("answer", "term", "used"),
    [
        (
            "Many soft yarns quietly contain wool, merino or other animal fibres, so check the"
            " label.",
            "merino",
            False,
        ),
        ("Many sauces contain dairy, cream or butter.", "butter", False),
        ("Some breads contain milk, add butter on top.", "butter", True),
        ("Most granolas contain nuts, so add almonds.", "almonds", True),
    ],
)
def test_a_warning_reaches_the_short_list_after_it(answer: str, term: str, used: bool) -> None:
    assert mentions(answer, term)[1] is used
