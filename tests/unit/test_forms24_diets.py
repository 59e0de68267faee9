"""What "vegan" and "vegetarian" rule out: honey, gelatin and shellfish included."""

from __future__ import annotations

import pytest

from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


def _violated(query: str, answer: str) -> list[str]:
    a = analyze(query)
    return [item for item, _ in check_members(a.excluded, answer, asked=a.asked).violated]


@pytest.mark.parametrize(
    ("query", "answer", "item"),
    [
        (
            "I'm vegan. What's a quick breakfast I can make?",
            "Toast with peanut butter, sliced banana and a drizzle of honey.",
            "honey",
        ),
        (
            "I'm vegan, how do I set a fruit jelly?",
            "Dissolve 2 tsp gelatine in hot juice, pour into moulds and chill for 4 hours.",
            "gelatin",
        ),
        (
            "We're vegetarian - any ideas for a paella?",
            "Saffron rice with peas, peppers and a handful of prawns and mussels.",
            "seafood",
        ),
    ],
)
def test_what_a_diet_rules_out_is_caught(query, answer, item):
    assert item in _violated(query, answer)


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "I'm vegan. What's a quick breakfast I can make?",
            "Oat porridge with soy milk, topped with berries and maple syrup instead of honey.",
        ),
        (
            "I'm vegan, how do I set a fruit jelly?",
            "Use agar-agar instead of gelatin: 1 tsp per 250 ml of juice, boil 2 minutes, chill.",
        ),
        (
            "We're vegetarian - any ideas for a paella?",
            "Saffron rice with artichokes, peppers, peas and butter beans in vegetable stock.",
        ),
        ("I'm not vegan, but I want a lighter breakfast.", "Greek yogurt with honey and walnuts."),
    ],
)
def test_a_substitute_or_a_diet_not_held_is_not_a_violation(query, answer):
    assert _violated(query, answer) == []


def test_one_word_of_the_answer_is_said_once():
    query = "Vegan food truck, no animal products at all. A sticky glaze for tofu?"
    a = analyze(query)
    check = check_members(a.excluded, "Whisk soy sauce with honey and rice vinegar.", asked=a.asked)
    assert [item for item, _ in check.violated] == ["animal products", "honey"]
    assert check.violations({}) == ["uses honey (animal products), which the request excludes"]


def test_a_word_the_asker_lacks_keeps_the_diet_violation():
    """Said under the diet, not under "I don't have any milk" (a lack is review at most)."""
    a = analyze("I don't have any milk. Give me a vegan pancake recipe.")
    check = check_members(a.excluded, "Mix flour with milk.", asked=a.asked)
    assert ("dairy", "milk") in check.violated
    assert check.violations({}, {"milk"}) == ["uses milk (dairy), which the request excludes"]


@pytest.mark.parametrize(
    ("query", "answer", "item"),
    [
        ("Suggest a vegan dish for cheese lovers.", "Top it with lots of cheese.", "dairy"),
        ("I'm vegan. Ideas?", "Swap the eggs for flax eggs and serve chicken with rice.", "meat"),
        ("I'm vegetarian. Lunch ideas?", "Grab some chicken subs from the deli.", "meat"),
    ],
)
def test_a_dish_name_or_a_swap_hides_nothing_after_it(query, answer, item):
    assert item in _violated(query, answer)
