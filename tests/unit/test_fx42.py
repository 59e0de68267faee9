"""fx42: what `gate_holdout42` showed when it was read, each mended as a rule.

1. Members listed in brackets after what is ruled out are ruled out too: "allergic to the
   whole allium family (onion, garlic, shallots, leeks, chives, all of it)". Three pieces
   or more, or a list marked as one ("e.g.", "etc", "all of it"); two bare pieces are as
   often the reason ("no caffeine (heart arrhythmia, doctor's orders)"). "The whole allium
   family" is the allium, whose members include the scallion, an onion by another name.
2. "I want zero cords on the window coverings, not tucked away, not tied up high, none"
   rules out cords (it read "tucked away", "not tied up high" and "none").
3. A kind named by a compound before the head the request asks about: "not a fan of
   grommet-top curtains ... what curtain heading styles?" is broken by "grommet top".
4. A class kept out of a place keeps its members: "no alcohol on the premises" is broken
   by a brewery's keg.
5. Good answers that were flagged: a warning whose list ends the clause ("the sauce
   usually contains garlic and onion)"), the reason a thing is refused ("skip anything
   with a loop chain, since that's still a cord loop").
6. A character limit on a short text counts the text given, less a bracketed note after
   it ("(67 characters, so you have a little room left)").
7. The words of an instruction ("in under 60 words total") are none of the request's own
   words a wrong ticket's answer would miss.
8. The asker's own thing told back with another figure: "I have the 3 quart Instant Pot
   Mini" answered "since yours is the 6-quart model, you could ..."; a flat-water canal
   answered with "moving water".
9. "If the hammer is £500, what will I actually pay all in?" states no budget.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.budget import over_budget
from scoregate.scoring.fusion import _topic_less_form
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted
from scoregate.scoring.shared_words import shared_words

ALLIUM = (
    "I'm allergic to the whole allium family (onion, garlic, shallots, leeks, chives, all of"
    " it). Can you give me an Instant Pot chili recipe that's safe for me?"
)


def items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


def violated(query: str, answer: str) -> list[tuple[str, str]]:
    a = analyze(query)
    return check_members(
        a.excluded, answer, asked=a.asked, request=query, situations=a.situations
    ).violated


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (ALLIUM, {"allium", "onion", "garlic", "shallots", "leeks", "chives"}),
        (
            "I'm pregnant so no retinoids of any kind (retinol, tretinoin, adapalene etc). A"
            " night routine?",
            {"retinoids", "retinol", "tretinoin", "adapalene"},
        ),
        ("Pudding ideas with no dairy (e.g. milk, butter)? Thanks", {"dairy", "milk", "butter"}),
        ("Avoid the entire nightshade family please. Curry recipe?", {"nightshade"}),
    ],
)
def test_members_listed_in_brackets_are_ruled_out(query, want):
    assert want <= set(items(query)), items(query)


@pytest.mark.parametrize(
    "query",
    [
        "First marathon in 6 weeks. I can't have caffeine (heart arrhythmia, doctor's orders)."
        " What should I take for fuel?",
        "My lease literally bans subwoofers (neighbour complaints, long story). Fuller bass?",
        "One guest has a tree nut allergy (carries an epipen, so serious). One main for all?",
        "I hate cilantro (it tastes like soap to me, sadly). Any salsa recipe?",
    ],
)
def test_a_reason_in_brackets_is_no_list(query):
    assert len(items(query)) == 1, items(query)


def test_the_whole_family_is_not_a_family_of_people():
    assert items("My whole family hates onions. Recipe ideas?") == []


def test_a_scallion_is_an_allium_and_an_onion():
    found = violated(ALLIUM, "Top with cheddar, sour cream and thinly sliced scallions.")
    assert ("allium", "scallion") in found and ("onion", "scallion") in found


def test_a_warning_whose_list_closes_the_clause_is_no_use():
    answer = (
        "- 1/2 tsp chipotle powder (skip canned chipotles in adobo; the sauce usually contains"
        " garlic and onion)\n- 1 can crushed tomatoes with no added onion or garlic"
    )
    assert violated(ALLIUM, answer) == []
    # what follows a clause that is not a list's closing item still counts
    assert mentions("Cassoulet traditionally relies on pork and you can add onion.", "onion")[1]


CORDS = (
    "Setting up my 2 yo's toddler room. I want zero cords on the window coverings, not tucked"
    " away, not tied up high, none. Also needs to be dark for naps. What are my options?"
)


def test_zero_things_wanted_are_ruled_out_less_where_they_are():
    assert items(CORDS) == ["cords"]
    assert items("I need zero screws in the wall. How do I hang art?") == ["screws"]
    assert items("we have zero cooking skills lol, easy dinner?") == []


def test_a_corded_shade_breaks_it_and_the_reason_for_a_skip_does_not():
    bad = "A corded Roman shade is fine if you mount a cleat high and wrap the cord around it."
    assert violated(CORDS, bad)
    good = (
        "Cordless blackout cellular shades or motorized rollers. Skip anything with a"
        " continuous loop chain, since that's still a cord loop."
    )
    assert violated(CORDS, good) == []
    # a reason not given for a refusal is read as before
    assert mentions("Use the roller, since it is cheap. Then add a corded shade.", "cords")[1]


GROMMETS = (
    "Not a fan of grommet-top curtains, they look too modern to me. Doing a traditional living"
    " room. What curtain heading styles would suit it?"
)


def test_a_kind_named_by_its_compound_before_the_asked_head():
    bad = "- Grommet top in an antique brass finish: warm-toned grommets can read traditional."
    assert violated(GROMMETS, bad) == [("grommet-top curtains", "grommet top")]
    assert violated(GROMMETS, "- Pinch pleat on rings.\n- Goblet pleat for tall windows.") == []
    # not when the request asks about something else than the head
    other = "Not a fan of grommet-top curtains. How do I hem linen trousers?"
    assert violated(other, "Grommet top styles aside, hem them by hand.") == []


def test_a_class_kept_out_of_a_place_keeps_its_members():
    query = (
        "Our clubhouse lease says no alcohol on the premises at all, ever. Ideas for"
        " fundraising events?"
    )
    answer = "Quiz night with a pop-up bar: a local brewery will often supply a keg."
    assert violated(query, answer)
    assert violated(query, "Quiz night with tea, cake and a raffle.") == []


def test_a_character_limit_counts_the_text_less_a_bracketed_note():
    (k,) = analyze(
        "Can you write me an eBay title for a Carhartt Detroit jacket, brown, size M. Needs to"
        " be 80 characters max."
    ).instructions
    good = (
        "Carhartt WIP Detroit Jacket Mens Brown Canvas Size M Faded Workwear\n\n(67 characters,"
        " so you have a little room left if you want to add 'Vintage'.)"
    )
    assert check_instruction(good, k)[0] is True
    bad = (
        "Carhartt WIP Detroit Jacket Mens Brown Duck Canvas Size M Medium Faded Worn In Workwear"
        " Chore Coat Vintage\n\n(106 characters.)"
    )
    assert check_instruction(bad, k)[0] is False


def test_instruction_words_are_not_the_requests_own_words():
    query = (
        "Teaching our club's junior group on Saturday. Give me the basic dinghy right-of-way"
        " rules in under 60 words total so I can stick it on a laminated card."
    )
    topic = _topic_less_form(query)
    assert "words" not in topic and "total" not in topic
    assert {"dinghy", "right-of-way", "junior"} <= set(shared_words(topic, "").request)


INSTANT_POT = (
    "I have the 3 quart Instant Pot Mini. Can I make 2 cups of dry jasmine rice in it, and how"
    " much water do I use?"
)


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        (
            "Yes, 2 cups is easy, and since yours is the 6-quart model you could go up to 4 or 5"
            " cups if you're feeding a crowd.",
            True,
        ),
        ("Your 6-quart model holds more rice.", True),
        ("Yes: 2 cups rice to 2 cups water, 4 minutes on High, 10 minutes natural release.", False),
        ("If yours were a 6-quart you could double it, but 2 cups suits the Mini.", False),
    ],
)
def test_the_askers_own_thing_with_another_figure(answer, flagged):
    assert bool(contradicted(INSTANT_POT, answer)) is flagged


def test_flat_water_told_as_moving_water():
    query = "Planning a club canoe trip on a flat-water canal section. We'll be 12 people."
    assert contradicted(query, "Teach the beginners to read the moving water first.")
    assert not contradicted(query, "Unlike moving water, flat water is forgiving.")


def test_a_question_of_the_total_states_no_budget():
    query = (
        "Catalogue says buyer's premium is 25% + VAT on the premium. If the hammer is £500, what"
        " will I actually pay all in? Just trying to budget properly."
    )
    assert over_budget(query, "You'll pay £650 all in.") is None
    assert over_budget("I can spend £500 all in. Which sofa?", "Get the Loaf sofa at £650.")
