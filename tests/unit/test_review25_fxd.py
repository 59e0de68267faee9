"""Review 25, R2 findings 5, 8, 9, 11, 12 and 13.

- A burger named by a food that is no meat just before it ("paneer burgers", "Quorn
  burgers", "sweet potato burgers") or made of one ("burgers made from lentils") is no
  meat; a burger with meat, mushrooms or beans only beside it ("burgers topped with
  sautéed mushrooms", "cheeseburgers with a side of black beans") still is, and a
  request that names burgers exempts no cheeseburger, classic or smash burger.
- Code fences read as CommonMark reads them: "```npm install```" is inline code, and a
  fence closes only at a run of its character at least as long as the one that opened it.
- A poem's line count counts the poem's lines, not a lead-in or the prose around it, and
  is checked when the request rules prose out ("no explanation") or names it in passing.
"""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.counting import bold_spans, code_fences, heading_lines
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze, inferred_constraints
from scoregate.scoring.reward import evaluate_constraint

VEG = "I'm vegetarian, what should I grill this weekend?"
RED = "BBQ ideas for this weekend? No red meat please."
NO_MEAT = "Dinner ideas? I don't eat meat."
NO_BEEF = "Dinner ideas? No beef."


def _used(query: str, answer: str) -> list[tuple[str, str]]:
    a = analyze(query)
    return check_members(a.excluded, answer, asked=a.asked, request=query).violated


# --- finding 5: vegetarian burgers named by a food that is no meat ---------------------


@pytest.mark.parametrize(
    "answer",
    [
        "Sweet potato burgers with chipotle mayo are great.",
        "Beet burgers are colourful and tasty.",
        "Cauliflower burgers with tahini.",
        "Paneer burgers with mint chutney.",
        "Tandoori paneer burger with mint raita.",
        "Aloo tikki burgers are popular in India.",
        "A Quorn burger with salad.",
        "Grill some Quorn burgers.",
        "Eggplant burgers with pesto.",
        "Zucchini fritter burgers.",
        "Crispy potato burgers.",
        "Spinach and feta burgers.",
        "Spiced carrot and oat burgers.",
        "Hearty nut burgers with walnuts and rice.",
        "Grill some Boca Burgers.",
        "Grill some MorningStar burgers.",
        "Black-bean burgers with avocado.",
        "Mushroom-walnut burgers.",
        "Beyond Meat burgers taste great on the grill.",
        "Here are some ideas:\n\n- **Paneer burgers** with mint chutney\n- **Halloumi skewers**",
        # the kind said once, the burgers after it are the same ones
        "Grill veggie burgers, then serve the burgers with slaw.",
        # a burger that labels what follows
        "Burgers! Make black bean burgers with smoky paprika.",
        "## Burgers\n\nBlack bean patties with smoked paprika, grilled 4 minutes a side.",
        # made of a food that is no meat
        "Burgers made from lentils and oats, topped with cheese.",
    ],
)
def test_a_burger_named_by_a_food_that_is_no_meat_is_no_meat(answer: str) -> None:
    assert _used(VEG, answer) == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (RED, "Burgers made with ground turkey and herbs."),
        (RED, "Burgers — use ground turkey instead of beef."),
        (RED, "Crab cake burgers."),
        (RED, "Set up a burger bar with turkey patties and all the toppings."),
        (NO_BEEF, "Make turkey smash burgers."),
        (NO_BEEF, "Hamburger buns with pulled chicken."),
    ],
)
def test_poultry_fish_and_things_named_after_burgers_stay_allowed(query: str, answer: str) -> None:
    assert _used(query, answer) == []


# --- finding 12: the exemption held to the burger the words name -----------------------


@pytest.mark.parametrize(
    ("query", "answer", "used"),
    [
        (
            RED,
            "Classic burgers topped with sautéed mushrooms and Swiss cheese.",
            ("red meat", "burger"),
        ),
        (RED, "Cheeseburgers with a side of grilled vegetables.", ("red meat", "cheeseburger")),
        (VEG, "Juicy cheeseburgers with a side of black beans and rice.", ("meat", "cheeseburger")),
        (NO_MEAT, "Cheeseburgers with a mushroom sauce.", ("meat", "cheeseburger")),
        (VEG, "Burgers with veggie toppings: lettuce, tomato, onion.", ("meat", "burger")),
        (VEG, "Burgers topped with sautéed mushrooms.", ("meat", "burger")),
        (VEG, "Sauté mushrooms and grill burgers.", ("meat", "burger")),
        (RED, "Cheeseburgers, and turkey wraps for lunch.", ("red meat", "cheeseburger")),
        (
            VEG,
            "Grill classic cheeseburgers for everyone. If anyone is vegan, keep a veggie burger"
            " on hand.",
            ("meat", "cheeseburger"),
        ),
        (RED, "Chicken burgers, turkey burgers, and a plain burger for the kids.", None),
        (VEG, "Grill veggie burgers. Your friends might want regular burgers too.", None),
        (RED, "Smash burgers with American cheese.", None),
        (NO_MEAT, "Try a mushroom Swiss burger.", None),
        (NO_MEAT, "Burgers made with beef and topped with mushrooms.", None),
    ],
)
def test_a_burger_beside_meatless_words_is_still_meat(
    query: str, answer: str, used: tuple[str, str] | None
) -> None:
    found = _used(query, answer)
    assert found, answer
    if used is not None:
        assert used in found


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "I'm vegetarian but I miss burgers. What can I make?",
            "Make a classic smash burger with two thin patties.",
        ),
        (
            "I'm vegetarian. My kids want burgers tonight, any ideas?",
            "Make classic cheeseburgers with cheddar and pickles.",
        ),
        (
            "I'm vegetarian. My kids want burgers tonight, any ideas?",
            "Grill hamburgers and toast the buns.",
        ),
        (
            "No red meat please - I had a burger yesterday. Dinner ideas?",
            "How about juicy cheeseburgers with fries?",
        ),
        ("No beef. What goes well with burger buns?", "Hamburgers, obviously."),
    ],
)
def test_a_request_that_names_burgers_exempts_no_meat_burger(query: str, answer: str) -> None:
    assert _used(query, answer)


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # (and "Burger night ideas, no red meat": tests/unit/test_fx25b_burgers.py)
        ("Write a funny poem about a burger. I'm vegetarian.", "Oh burger, round and grand."),
    ],
)
def test_the_burgers_a_request_asks_for_are_of_its_kind(query: str, answer: str) -> None:
    assert _used(query, answer) == []


@pytest.mark.parametrize(
    "answer",
    [
        "Even fans of a classic smash burger will love these lentil burgers.",
        "They are as juicy as a regular burger.",
        "Portobello caps are meatier than most burgers.",
        "A vegetarian take on the classic cheeseburger: halloumi stacks.",
    ],
)
def test_a_meat_burger_held_up_for_comparison_is_not_served(answer: str) -> None:
    assert _used(VEG, answer) == []


# --- finding 8 and 13: code fences as CommonMark reads them ----------------------------


def test_a_fence_line_with_a_backtick_after_its_opener_is_inline_code() -> None:
    text = "First:\n\n```python -m venv .venv```\n\nThen **activate** it."
    assert code_fences(text) == []
    assert bold_spans(text) == ["**activate**"]
    assert bold_spans("```npm install```\n**after**") == ["**after**"]


def test_a_fence_closes_only_at_a_run_as_long_as_its_opener() -> None:
    nested = "````markdown\n```python\nprint('hi')\n```\n````\n\nThe **outer fence** wins."
    (block,) = code_fences(nested)
    assert nested[block[1] : block[2]] == "```python\nprint('hi')\n```\n"
    assert bold_spans(nested) == ["**outer fence**"]
    # a longer closing fence closes a shorter opener
    assert bold_spans("```\ncode\n````\n**after**") == ["**after**"]
    # a run of the other character closes nothing
    assert bold_spans("```\ncode\n~~~\n**inside**") == []


def _verdicts(query: str, answer: str, check: str = "count") -> list[bool | None]:
    cfg = load_scoring_config().reward
    return [
        evaluate_constraint(answer, k, cfg).passed
        for k in inferred_constraints(query)
        if k.check == check
    ]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Explain how to create a Python virtual environment. Bold 3-5 key terms.",
            "First, create it:\n\n```python -m venv .venv```\n\nThen **activate** it with "
            "`source .venv/bin/activate`. A **virtual environment** keeps your "
            "**dependencies** isolated from the system **interpreter**.",
        ),
        (
            "Explain how to nest a code block in Markdown. Bold 2-4 key terms.",
            "Use a longer outer fence:\n\n````markdown\n```python\nprint('hi')\n```\n````\n\n"
            "The **outer fence** must be longer than the **inner fence**, so the **code block**"
            " stays intact.",
        ),
    ],
)
def test_bold_after_a_non_fence_is_counted(query: str, answer: str) -> None:
    assert _verdicts(query, answer) == [True, True]


@pytest.mark.parametrize(
    ("query", "answer", "found"),
    [
        (
            "How do I create a Python virtual environment? Don't use any headings.",
            "```python -m venv .venv```\n\n## Activate\n\nRun the script.\n\n## Install\n\n"
            "Use pip.",
            ["## Activate", "## Install"],
        ),
        (
            "Show me how to write a README section with a code example. No headings please.",
            "````markdown\n## Usage\n```bash\nnpm start\n```\n````\n\n## Why this works\n\n"
            "The fence keeps it literal.",
            ["## Why this works"],
        ),
    ],
)
def test_no_headings_sees_the_headings_a_non_fence_used_to_hide(
    query: str, answer: str, found: list[str]
) -> None:
    assert heading_lines(answer) == found
    assert _verdicts(query, answer) == [False]


# --- findings 9 and 11: a poem's lines -------------------------------------------------

SIX = (
    "Leaves let go of the maple,\nred coins for the cold wind,\nthe path hums underfoot,\n"
    "geese stitch the grey sky,\nsmoke curls from a far field,\nthe year signs its name."
)
FIVE = "\n".join(SIX.splitlines()[:5])


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Write a 6-line poem about autumn, then a one-sentence summary",
            SIX + "\n\nThe poem shows autumn as a gentle letting go.",
        ),
        (
            "Write a 6-line poem about autumn and tell me what inspired it",
            SIX + "\n\nI was inspired by walks in October.",
        ),
        ("Write a 6-line poem about autumn with a short intro", "Here is a poem:\n\n" + SIX),
        (
            "Write a 6-line poem about autumn. After it, give a one-line moral.",
            SIX + "\n\nMoral: let go gracefully.",
        ),
        ("Write a 6-line poem about autumn", "Here's a 6-line poem about autumn:\n\n" + SIX),
        (
            "Write a 6-line poem about autumn, then explain the imagery",
            SIX + "\n\nThe imagery sets warmth against cold. The geese suggest departure.",
        ),
        # a title, stanzas, a last line set apart are still the poem's
        ("Write a 6-line poem about autumn", "**Autumn**\n\n" + SIX),
        ("Write a 6-line poem about autumn", SIX.replace("\nsmoke", "\n\nsmoke")),
        ("Write a 6-line poem about autumn", FIVE + "\n\nthe year signs its name."),
    ],
)
def test_a_poem_s_lines_are_counted_beside_its_prose(query: str, answer: str) -> None:
    assert _verdicts(query, answer) == [True]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Write a 4-line poem about tea, no explanation", "a\nb\nc\nd\ne\nf"),
        ("Write a 4-line poem about tea, without any explanation", "a\nb\nc\nd\ne\nf"),
        ("Write a 4-line poem about tea. Just the poem, no commentary.", "a\nb\nc\nd\ne\nf"),
        ("Write a 4-line poem for my blog about tea.", "a\nb\nc\nd\ne\nf"),
        ("Write a 4-line poem about my essay deadline.", "a\nb\nc\nd\ne\nf"),
        # a lead-in makes no sixth line of a poem of five
        ("Write a 6-line poem about autumn", "Here's a 6-line poem about autumn:\n\n" + FIVE),
        (
            "Write a 6-line poem about autumn and tell me what inspired it",
            SIX + "\nand the mug is warm.\n\nI was inspired by walks in October.",
        ),
    ],
)
def test_a_poem_of_the_wrong_length_fails_whatever_prose_the_request_names(
    query: str, answer: str
) -> None:
    assert _verdicts(query, answer) == [False]
