"""A burger is meat ("no red meat", "no beef", "I don't eat meat", a vegetarian) unless
the answer says what else it is: a black bean, veggie, Beyond or halloumi burger, and for
"no red meat" or "no beef" a turkey, chicken or salmon burger."""

from __future__ import annotations

import pytest

from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.membership import check_members
from scoregate.scoring.precision import _pair_score, _Slots
from scoregate.scoring.request_analysis import analyze


def _used(query: str, answer: str) -> list[tuple[str, str]]:
    a = analyze(query)
    return check_members(a.excluded, answer, asked=a.asked, request=query).violated


@pytest.mark.parametrize(
    ("query", "answer", "used"),
    [
        (
            "Dinner ideas for tonight? No red meat please.",
            "Grill some juicy burgers with cheddar and pickles.",
            ("red meat", "burger"),
        ),
        (
            "Dinner ideas for tonight? No red meat please.",
            "How about cheeseburgers on brioche buns?",
            ("red meat", "cheeseburger"),
        ),
        ("Dinner ideas? no beef", "Serve a burger with fries.", ("beef", "burger")),
        ("Dinner ideas? No beef.", "Classic hamburgers with pickles.", ("beef", "hamburger")),
        ("Dinner ideas? I don't eat meat.", "Make a burger with caramelised onions.", None),
        ("I'm vegetarian, lunch ideas?", "Grab a burger at the diner.", ("meat", "burger")),
        ("BBQ ideas? No red meat please.", "Grill burgers and serve them with baked beans.", None),
    ],
)
def test_a_plain_burger_is_meat(query: str, answer: str, used: tuple[str, str] | None) -> None:
    found = _used(query, answer)
    assert found, answer
    if used is not None:
        assert used in found


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Dinner ideas? No red meat please.", "Try black bean burgers with avocado."),
        ("Dinner ideas? I don't eat meat.", "Try veggie burgers with avocado."),
        ("Dinner ideas? I don't eat meat.", "Lentil burgers with a yogurt sauce."),
        ("Dinner ideas? I don't eat meat.", "Chickpea burgers, or a falafel burger."),
        ("Dinner ideas? No red meat.", "Grill portobello mushroom burgers."),
        ("Dinner ideas? No red meat.", "Crispy tofu burgers or tempeh burgers."),
        ("Dinner ideas? No red meat.", "A quinoa burger with roasted peppers."),
        ("I'm vegetarian, lunch ideas?", "A halloumi burger with roasted peppers."),
        ("I'm vegan, what can I grill?", "Grill a Beyond Burger or an Impossible burger."),
        ("I'm vegan, what can I grill?", "Plant-based burgers with vegan cheese."),
        ("BBQ ideas? No red meat please.", "Grill chicken burgers with slaw."),
        ("BBQ ideas? No red meat please.", "Turkey burgers with cranberry mayo."),
        ("BBQ ideas? No red meat please.", "Salmon burgers with dill."),
        ("Dinner ideas? No beef.", "Try lamb burgers with mint."),
        ("Dinner ideas? No beef.", "Fish burgers with tartare sauce."),
        ("I'm pescatarian, BBQ ideas?", "Grill salmon burgers with dill mayo."),
        # the kind said once, the burgers after it are the same ones
        (
            "BBQ ideas? No red meat please.",
            "## Black Bean Burgers\n\n- 1 can black beans\n- breadcrumbs\n\n"
            "Shape into 4 patties and grill the burgers for 4 minutes a side.",
        ),
        (
            "BBQ ideas? No red meat please.",
            "Mash the chickpeas with cumin and form 4 patties. Grill the burgers until crisp.",
        ),
        # not a burger, or not one the answer serves
        ("Quick lunch, no red meat", "Toast a burger bun and fill it with grilled portobello."),
        ("Quick lunch, no red meat", "Think burger-style toppings on grilled corn."),
        ("BBQ ideas? No red meat please.", "Skip the burgers this time and grill salmon fillets."),
        # the request asks for burgers; the answer names their kind by other words
        ("Burger night ideas, no red meat", "Top the burgers with avocado and pickled onions."),
    ],
)
def test_a_burger_the_answer_makes_something_else_is_no_meat(query: str, answer: str) -> None:
    assert _used(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer", "used"),
    [
        ("Dinner ideas? I don't eat meat.", "Make chicken burgers.", ("meat", "chicken")),
        ("Dinner ideas? I don't eat meat.", "Try turkey burgers.", ("meat", "turkey")),
        ("BBQ ideas? No red meat please.", "Grill lamb burgers with mint.", ("red meat", "lamb")),
    ],
)
def test_poultry_is_still_meat_and_lamb_red_meat(
    query: str, answer: str, used: tuple[str, str]
) -> None:
    assert used in _used(query, answer)


def test_the_precision_track_reads_the_request_burgers() -> None:
    cfg = PrecisionConfig()

    def violated(query: str, answer: str) -> list[str]:
        track = _pair_score((query, answer), [0.9], _Slots(full=slice(0, 1)), cfg, 1.0)
        return list(track.details["violated"])

    assert violated("Dinner ideas? No red meat please.", "Grill cheeseburgers.") == ["red meat"]
    assert violated("Burger night ideas, no red meat", "Top the burgers with avocado.") == []
