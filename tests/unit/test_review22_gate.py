"""The twenty-second session's gate review, mended: what a new user scoring their own
requests found wrong in the decisions' reasons and the agent's feedback."""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import check_exclusions
from scoregate.scoring.request_analysis import analyze


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "I have a bad knee. Suggest a 20-minute cardio workout that doesn't involve"
            " running or jumping.",
            ["running", "jumping"],
        ),
        ("A birthday cake recipe which won't need any eggs, please.", ["eggs"]),
        ("Any remote jobs that don't require a degree?", ["degree"]),
    ],
)
def test_what_a_relative_clause_says_the_thing_must_not_involve_is_excluded(query, items):
    assert analyze(query).excluded == items


def test_a_fact_stated_with_doesnt_is_not_an_exclusion():
    """"my laptop doesn't turn on" states a fault, not a thing to leave out."""
    assert analyze("My laptop doesn't turn on after the update. What should I try?").excluded == []


PEANUTS = "Give me a quick weeknight stir-fry recipe without peanuts - my son is allergic."


@pytest.mark.parametrize(
    "answer",
    [
        "Chicken and broccoli stir-fry: toss with soy sauce and honey and serve over rice."
        " Check any bottled sauces for peanuts.",
        "Chicken stir-fry with rice. Check your oil and any bottled sauces for peanuts.",
        "Chicken stir-fry with rice. Watch out for peanuts in bottled sauces.",
        "Chicken stir-fry with rice. Be careful with store-bought satay, which is peanut-based.",
    ],
)
def test_telling_the_reader_to_look_out_for_the_item_is_no_use_of_it(answer):
    assert check_exclusions(PEANUTS, answer).violated == []


@pytest.mark.parametrize(
    "answer",
    [
        "Check the oven and add peanuts for crunch.",
        "Check the rice for doneness, then add the peanuts.",
        "Top with crushed peanuts. Check the seasoning for salt.",
    ],
)
def test_a_use_beside_a_check_still_counts(answer):
    assert check_exclusions(PEANUTS, answer).violated == ["peanuts"]
