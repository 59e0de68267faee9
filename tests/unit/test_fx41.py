"""fx41: what `gate_holdout41` showed when it was read, each mended as a rule.

1. A later piece that widens a ban is read as an item of its own: "Nothing with
   fragrance, and that includes essential oils" rules out essential oils (it read
   "includes essential oils", which no answer names), so "a drop of lavender essential
   oil" is caught.
2. A rule that bans the thing: "my lease literally bans subwoofers", "my landlord doesn't
   allow nails in the walls", "our building doesn't allow us to have grills". Not a
   question about the rule, nor the asker told not to do something ("my landlord doesn't
   allow me to paint": an act, which the activity reading is for).
3. A rule named by what it bans: "a strict no-alcohol policy", "our no-shoes rule".
4. An event the asker has already had is offered again when the answer books it: "I
   already did my makeup trial" and "book your makeup trial this week".
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import affirmed_word
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.tried import offered_again, tried_things


def items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


@pytest.mark.parametrize(
    ("query", "item"),
    [
        (
            "Can you suggest a simple makeup routine? Nothing with fragrance, and that includes"
            " essential oils.",
            "essential oils",
        ),
        ("No dairy, that includes butter and ghee. Ideas for a curry?", "butter"),
        ("No screens at bedtime, which includes the TV. What else can we do?", "tv"),
        ("No added sugar, which means honey too. Any flapjack recipes?", "honey"),
    ],
)
def test_a_piece_that_widens_the_ban_is_its_own_item(query, item):
    found = items(query)
    assert item in found, found
    assert not any(i.startswith(("includes", "which", "that")) for i in found), found


def test_the_widened_item_is_caught_in_the_answer():
    query = (
        "I have rosacea and fragrance sets it off. Can you suggest a simple makeup routine?"
        " Nothing with fragrance, and that includes essential oils."
    )
    assert "essential oils" in items(query)
    slip = "Finish with a mist of rosewater with a drop of lavender essential oil to set it."
    assert affirmed_word(slip, "essential oils") is not None
    kept = "Skip anything with essential oils; rosewater alone is fine if it's fragrance-free."
    assert affirmed_word(kept, "essential oils") is None


@pytest.mark.parametrize(
    ("query", "item"),
    [
        (
            "my lease literally bans subwoofers (neighbour complaints, long story). What can I"
            " do for fuller bass?",
            "subwoofers",
        ),
        ("My landlord doesn't allow nails in the walls. How do I hang a mirror?", "nails"),
        ("my landlord won't allow cats or dogs. What would be a good first pet?", "cats"),
        ("my HOA forbids any outdoor antennas. How do I get on HF?", "outdoor antennas"),
        ("Our company has a strict no-alcohol policy at events. Raffle prize ideas?", "alcohol"),
        ("We have a no-shoes rule at home. Ideas for a rack by the door?", "shoes"),
    ],
)
def test_a_rule_that_bans_the_thing_rules_it_out(query, item):
    assert item in items(query)


@pytest.mark.parametrize(
    "query",
    [
        "Does my school ban phones? It's a state school in Ohio.",
        "My landlord doesn't allow me to paint, any ideas to brighten the room?",
        "The rule bans nothing, so what should I bring?",
        "I want a no-knead bread recipe for a Dutch oven.",
        "Any no-bake cheesecake ideas for a hot day?",
    ],
)
def test_no_thing_is_ruled_out(query):
    assert items(query) == []


TRIAL = (
    "Wedding is in 3 weeks!! I already did my makeup trial with my artist last weekend and"
    " loved it. What should I be doing with my skin between now and the day?"
)


def test_an_event_already_had_is_not_booked_again():
    tried = tried_things(TRIAL)
    assert [t.item for t in tried] == ["makeup trial"]
    slip = "- First, if you haven't yet, book your makeup trial this week.\n- Wear sunscreen."
    ((_, words),) = offered_again(slip, tried)
    assert words == "book your makeup trial"


@pytest.mark.parametrize(
    "answer",
    [
        "Keep your skin as it was at the makeup trial: no new actives, and daily sunscreen.",
        "Book a facial at least 10-14 days before, with someone who knows your skin.",
        "Since you've already had your makeup trial, tell your artist if anything changes.",
    ],
)
def test_naming_the_event_is_no_booking(answer):
    assert offered_again(answer, tried_things(TRIAL)) == []
