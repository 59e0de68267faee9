"""fx41: what `gate_holdout41` showed when it was read, each mended as a rule.

1. A later piece that widens a ban is read as an item of its own: "Nothing with
   fragrance, and that includes essential oils" rules out essential oils (it read
   "includes essential oils", which no answer names), so "a drop of lavender essential
   oil" is caught.
2. A rule that bans the thing: "my lease literally bans subwoofers", "my landlord doesn't
   allow nails in the walls", "our building doesn't allow us to have grills". Not a
   question about the rule, nor the asker told not to do something ("my landlord doesn't
   allow me to paint": an act, which the activity reading is for).
   Not another's rule ("my neighbour's HOA"), a provider the answer may swap ("the
   hotel forbids pets"), a ban that holds only at some times ("bans phones during the
   school day"), nor one the request questions ("Can they actually do that?", "Is that
   even legal?").
3. An event the asker has already had is offered again when the answer books it: "I
   already did my makeup trial" and "book your makeup trial this week"; not "with a
   different artist", "a follow-up blood test", "a second surgeon".
4. Good answers that were flagged: "keep them dust-free" asks to be rid of dust, which the
   answer names to get rid of it; "the stub has no name" and "ask sellers to write a name
   on every stub" adds one; "sugar snap peas" are no sugar, "red wine vinegar" no wine,
   "ginger beer" no alcohol, "moisturising cream" no dairy.

A rule named by what it bans ("a strict no-alcohol policy") was read too and withdrawn
under review: the rule is often the request's own topic ("how do I enforce our no-shoes
rule?", "my classroom is a no-phones zone") and a good answer names what it bans.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import affirmed_word
from scoregate.scoring.membership import check_members
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
        "Our house has a no-shoes rule. What should I set up by the front door?",
        "The HOA forbids outdoor antennas. Can they actually do that?",
        "The HOA forbids outdoor antennas. Is that even legal?",
        "My neighbor's HOA forbids fences, but we're in another subdivision. Fence ideas?",
        "The hotel forbids pets. Where can my dog stay for the weekend?",
        "The gym bans phones in the changing rooms. Any good apps for tracking workouts?",
        "The school prohibits phones during the school day. How can my kid reach me?",
        "Our campsite doesn't allow generators after 10pm. How do I run my CPAP?",
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


@pytest.mark.parametrize(
    "answer",
    [
        "Book a consultation with a different surgeon for a second opinion.",
        "Schedule a follow-up makeup trial only if something changes.",
    ],
)
def test_a_new_one_is_no_offer_of_the_same_again(answer):
    assert offered_again(answer, tried_things(TRIAL)) == []


def test_a_thing_longer_than_the_reading_is_not_read():
    """ "a test drive of the Tesla" ends its four words at "the": not read, so "do a test
    drive of the Hyundai" is no offer of the same again."""
    assert tried_things("I already did a test drive of the Tesla Model 3 last week.") == []


def violated(query: str, answer: str) -> list[tuple[str, str]]:
    a = analyze(query)
    found = check_members(
        list(a.excluded), answer, asked=a.asked, request=query, situations=a.situations
    )
    return found.violated


def test_a_nuisance_kept_away_is_no_exclusion():
    query = "How do I keep my LEGO sets dust-free and stop bits falling off? No glue."
    assert "dust" not in items(query)
    answer = "Dust every couple of weeks with a soft makeup brush, before dust gets greasy."
    assert violated(query, answer) == []


def test_writing_a_name_on_a_stub_that_has_none_adds_one():
    query = "The stub has no name or phone number on it. What do we do?"
    answer = "Next time, ask sellers to write a name and phone number on every stub."
    assert violated(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Toddler snacks with no sugar, please.", "Sugar snap peas, cucumber sticks, cheese."),
        ("No alcohol in the house. A dressing?", "Whisk olive oil with red wine vinegar."),
        ("Drinks for the party? No alcohol.", "Ginger beer with lime and mint in a big jug."),
        ("No dairy, I'm vegan. A body lotion?", "A fragrance-free moisturising cream works."),
    ],
)
def test_a_compound_of_another_kind_is_no_member(query, answer):
    assert violated(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Toddler snacks with no sugar, please.", "Sugar cookies and a little honey."),
        ("Drinks for the party? No alcohol.", "A light beer or a glass of wine for the adults."),
        ("No dairy, I'm vegan. Pasta ideas?", "Finish it with a splash of cream and parmesan."),
    ],
)
def test_the_member_itself_is_still_caught(query, answer):
    assert violated(query, answer) != []


@pytest.mark.parametrize(
    ("sentence", "item", "used"),
    [
        ("Good call keeping the phone out of it entirely.", "phone", False),
        ("Keep the phone out of the bedroom at night.", "phone", False),
        ("Keep your phone out of your bedroom and out of reach.", "phone", False),
        ("Keep the dog out of the kitchen while you cook.", "dog", False),
        # a place it is taken from, for use: as before
        ("Keep the chicken out of the fridge for 30 minutes before roasting.", "chicken", True),
        ("Take the phone out of the drawer and set a timer on it.", "phone", True),
        # put away from the asker: "charge your phone in another room overnight"
        ("Charge your phone in another room overnight so it isn't an option.", "phone", False),
        ("Leave the phone in a drawer during the session.", "phone", False),
        ("Put your phone on the table and start the timer.", "phone", True),
        ("Watch the TV in another room with the kids.", "tv", True),
    ],
)
def test_a_thing_kept_out_of_a_place_is_kept_away(sentence, item, used):
    assert (affirmed_word(sentence, item) is not None) is used
