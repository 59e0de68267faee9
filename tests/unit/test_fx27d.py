"""fx27d: what a reviewer found in the fx27-fx27c rules with 206 cases of their own.

Each rule narrowed or widened as the cases showed:
1. "not going down the X route" only where the refusal governs the going ("not sure whether
   to go down the freelance route", "didn't go the IVF route", "don't mind going the DIY
   route" refuse nothing).
2. "Is there any way to X without Y?" asks for a way; "Is there any way my landlord can
   evict me without notice?" is a yes/no question and excludes nothing.
3. "can't get into / through / hold of" is where the asker cannot reach, no exclusion;
   "don't want to get into macros" still excludes the macros.
4. "keep X out" excludes X, unless the request asks how to keep it out ("How do I keep
   squirrels out of my bird feeder?": the squirrels are the subject).
5. "Coffee is out until noon" still excludes coffee: a thing the project's lists know is no
   person away.
6. A lack told after what the asker has needs "only" / "just" or a thing had ("a hob"); an
   occasion or a condition ("a dinner party on Saturday, no shellfish") keeps the rule.
7. "can" is a word an item may be ("a can of chickpeas"); "not" never is.
8. "5 bands or so-called supergroups" is a count of 5; "7 recipes, or more if you have
   them" at least 7.
9. An act in several places stops at a piece that is an act of its own ("no drilling into
    walls or using adhesive strips": the strips stay excluded).
10. What the asker wants is kept up to where it names the excluded thing ("I want to swim in
    just a swimsuit, no wetsuits").
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.request_analysis import analyze
from tests.unit.test_fx26b import _counts
from tests.unit.test_fx27b import _excluded


@pytest.mark.parametrize(
    "query",
    [
        "I'm not sure whether to go down the freelance route or stay employed. Pros and cons?",
        "We didn't go the IVF route in the end, but we're reconsidering it now.",
        "I don't mind going the DIY route, how do I tile a backsplash?",
        "Don't be afraid to go down the keto route, my doc said. Is she right?",
        "Is there any way my landlord can evict me without notice?",
        "i cant get into my account, how do I reset my password?",
        "I cant get through to customer service, how else can I cancel?",
        "How do I keep squirrels out of my bird feeder?",
        "what's the best way to keep slugs out of the veg patch",
        "Tom is out until 5, so can you help me plan dinner for the kids?",
    ],
)
def test_nothing_is_excluded(query: str) -> None:
    assert analyze(query).excluded == []


@pytest.mark.parametrize(
    ("query", "items"),
    [
        ("I don't want to go down the private school route. Options?", ["private school"]),
        ("we won't be going the loan route", ["loan"]),
        ("I really dont want to get into macros/VBA, I don't understand them.", ["macros", "vba"]),
        ("keep dairy out of her lunches (allergy). ideas?", ["dairy"]),
        (
            "No drilling into walls or using adhesive strips, how can I hang art?",
            ["drilling into walls", "adhesive strips"],
        ),
        ("I'm 68 and can't get down on the floor. Core exercises?", ["down on the floor"]),
    ],
)
def test_the_exclusion_stays(query: str, items: list[str]) -> None:
    assert _excluded(query) == items


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("Coffee is out until noon. How do I wake up?", "coffee"),
        ("Bacon is out till Monday lol, diet. Breakfast ideas?", "bacon"),
    ],
)
def test_a_known_thing_out_for_a_while_is_no_person_away(query: str, item: str) -> None:
    assert analyze(query).excluded == [item]


@pytest.mark.parametrize(
    "query",
    [
        "I have a dinner party on Saturday, no shellfish",
        "We have a party of 10 coming, no pork",
        "We have a small budget, no fancy ingredients",
    ],
)
def test_an_occasion_had_keeps_the_rule(query: str) -> None:
    found = analyze(query).exclusions
    assert found and not any(e.lack for e in found)


def test_a_can_is_an_item_and_not_is_none() -> None:
    assert mentions("Drain a can of chickpeas and rinse them.", "cans") == (True, True)
    assert mentions("Your policy will not pay for it.", "note") == (False, False)


def test_counts_next_to_so_called_and_or_more() -> None:
    assert _counts("Name 5 bands or so-called supergroups") == [("items", "exactly", 5)]
    assert _counts("give me 7 recipes, or more if you have them") == [("items", "at_least", 7)]


def test_what_the_asker_wants_is_kept_up_to_the_exclusion() -> None:
    swim = analyze("I want to swim in just a swimsuit, no wetsuits. Tips?")
    assert "just a swimsuit" in swim.asked
    assert "Japan" in analyze("I want to go to Japan but no flying. How?").asked


def test_a_use_then_advice_about_another_thing_is_a_use() -> None:
    """ "has butter, so don't use margarine" advises of the margarine: the butter is used;
    "contains anchovies, so skip it" advises of the sauce: the anchovies are a warning."""
    assert mentions("This one has butter, so skip the margarine.", "butter")[1]
    assert mentions("Worcestershire sauce contains anchovies, so skip it.", "anchovies") == (
        True,
        False,
    )


def test_cant_get_through_with_its_apostrophe() -> None:
    assert _excluded("I can't get through to customer service, how else can I cancel?") == []


def test_a_list_of_what_products_may_hold_then_check_the_contents_is_a_warning() -> None:
    answer = (
        "A heads-up on ready-made gift baskets: many include wine, bourbon barbecue sauce or"
        " liquor-filled chocolates, so check the contents or build your own."
    )
    assert mentions(answer, "liquor") == (True, False)
    assert mentions("Add a bottle of liquor to the basket.", "liquor")[1]


def test_a_lack_is_read_only_of_the_item_after_its_own_no() -> None:
    flour = analyze("I only have strong white bread flour, no wholemeal or rye in the house.")
    assert [(e.item, e.lack) for e in flour.exclusions] == [("wholemeal", True), ("rye", False)]
    # what is had ends before a "no": "my phone — no laptop, no printer" tells no thing had
    phone = analyze("I only have my phone for studying — no laptop, no printer. Note tips?")
    assert not any(e.lack for e in phone.exclusions)
    cloud = analyze("I only have a laptop, 16GB RAM, no GPU, and can't use cloud. Doable?")
    assert {e.item: e.lack for e in cloud.exclusions}.get("gpu") is True
    assert not any(e.lack for e in cloud.exclusions if e.item != "gpu")
