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

from scoregate.scoring.affirmation import mentions, read_sentences
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
        # three pieces, none a member: reasons
        "I can't have caffeine (arrhythmia, insomnia, reflux). Evening drinks?",
        # what is allowed instead
        "No dairy in our house (oat milk, soy yoghurt, vegan butter instead). A cake?",
    ],
)
def test_a_reason_in_brackets_is_no_list(query):
    found = items(query)
    assert not {"arrhythmia", "insomnia", "oat milk", "heart arrhythmia"} & set(found), found
    assert len([i for i in found if i not in ("meat", "seafood", "eggs", "honey", "gelatin")]) == 1


def test_the_whole_family_is_a_plant_family_only():
    assert items("My whole family hates onions. Recipe ideas?") == []
    assert "whole" not in items("Just me tonight, not the whole family. Dinner ideas?")
    assert items("Nothing from the Helvetica family please. Font for a CV?") != ["helvetica"]


def test_a_scallion_is_an_allium_and_an_onion():
    found = violated(ALLIUM, "Top with cheddar, sour cream and thinly sliced scallions.")
    assert ("allium", "scallion") in found and ("onion", "scallion") in found


def test_a_warning_whose_list_closes_the_clause_is_no_use():
    answer = (
        "- 1/2 tsp chipotle powder (skip canned chipotles in adobo; the sauce usually contains"
        " garlic and onion)\n- 1 can crushed tomatoes with no added onion or garlic"
    )
    assert violated(ALLIUM, answer) == []
    # only for a product refused: a product recommended still uses what it holds
    assert mentions(
        "Start with a sofrito (it usually contains tomato, pepper and onion).", "onion"
    )[1]
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
    # a reason not given for a refusal is read as before, and so is a reason that goes on
    # to recommend
    assert mentions("Use the roller, since it is cheap. Then add a corded shade.", "cords")[1]
    assert mentions(
        "Avoid the motorised shades because they're pricey and a corded roller blind does fine.",
        "cords",
    )[1]


def test_zero_things_wanted_and_what_removes_them():
    query = "I want zero ads while the kids are watching. Which streaming service?"
    assert items(query) == ["ads"]
    assert violated(query, "YouTube Kids with a Premium subscription, which removes ads.") == []
    nuts = "I want zero nuts around the kids' snack table. What should I serve?"
    assert (
        violated(nuts, "Popcorn and fruit. Check granola bars, many are made alongside nuts.") == []
    )
    assert violated(nuts, "Popcorn, fruit and a bowl of salted cashews.")


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
    # nor a compound that opens on a quantifier ("all season long")
    tyres = "No all-season tires please. Which tires should I get for Colorado winters?"
    assert violated(tyres, "Winter tires: they will grip well all season long on ice.") == []


def test_a_class_kept_out_of_a_place_keeps_its_members():
    query = (
        "Our clubhouse lease says no alcohol on the premises at all, ever. Ideas for"
        " fundraising events?"
    )
    answer = "Quiz night with a pop-up bar selling a local craft beer and wine."
    assert violated(query, answer)
    assert violated(query, "Quiz night with tea, cake and a raffle.") == []
    # a substitute is no member, whichever way the class is named
    assert violated(query, "A mocktail bar, sparkling cider (non-alcoholic) and root beer.") == []


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
    # a line in brackets that is the text's own stays counted
    (tweet,) = analyze("Write a tweet for our bakery's sale, under 60 characters.").instructions
    own = "Half-price buns today only!\n(Offer valid until 4pm. T&Cs apply.)"
    assert check_instruction(own, tweet)[0] is False


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
        # (a "your N-unit one" can be the one to buy: "Your 12-inch one is also heavy")
        ("Your 6-quart model holds more rice.", False),
        ("The next size up from yours is the 6-quart model.", False),
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
    assert over_budget("£2,000 is what I can spend, tops. Laptop?", "The MacBook Pro at £2,499.")


# --- what review narrowed ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # a nuisance wanted gone is no thing ruled out
        ("I want zero weeds in the new bed. How?", "Hand-pull weeds while they're tiny."),
        ("We want zero ticks on him this summer.", "Remove any ticks with a tick twister."),
        # a substitute of the class holds for a member listed in brackets
        (
            "Dry January, so no alcohol (wine, beer, spirits). Party drinks?",
            "A ginger beer and lime punch, or root beer floats.",
        ),
        # a sweet potato is no potato
        (
            "No nightshade (tomatoes, potatoes, peppers, aubergine) please. Hearty dinner?",
            "A roasted sweet potato and black bean bowl with avocado.",
        ),
    ],
)
def test_good_answers_review_found_flagged(query, answer):
    assert violated(query, answer) == []


def test_a_refusal_negated_is_no_refusal():
    # "don't skip" recommends: its reason is a use
    assert (
        "a pecan crumble"
        in read_sentences("Don't skip the topping, since it's a pecan crumble.")[0]
    )
    # a product recommended after a refused one still uses what it holds
    assert mentions(
        "Don't buy stock cubes; homemade stock usually has onion, which gives depth.", "onion"
    )[1]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "I have a 10 inch Lodge skillet. Which lid?",
            "Yours is the 10.25-inch, as Lodge sells it.",
        ),
        (
            "5 days in Portugal, how to split it?",
            "3 in Lisbon, 2 in Porto. Since yours is a 3-day leg, pack light.",
        ),
        (
            "Planning a club canoe trip on a flat-water canal.",
            "Unlike moving water, a canal has no eddies.",
        ),
        (
            "Going down a class II river with moving water. Tips?",
            "Practise your roll in still water first.",
        ),
    ],
)
def test_figures_and_water_review_found_flagged(query, answer):
    assert contradicted(query, answer) == []


def test_a_budget_with_a_question_after_it_still_stands():
    query = "$700 is what I can spend max, what TV would you recommend for gaming?"
    assert over_budget(query, "The LG C3 at $1,299 is the one to get.")


def test_a_text_that_ends_on_its_own_line_is_counted_whole():
    (k,) = analyze(
        "Write an SMS reminder for our dental practice, under 90 characters."
    ).instructions
    own = (
        "Reminder: your check-up is tomorrow at 10am.\n"
        "This is Bright Smile Dental, reply STOP to opt out."
    )
    assert check_instruction(own, k)[0] is False


def test_a_wine_by_its_grape():
    query = "Salmon for 8 on Saturday. Red wine is out, it gives my wife migraines. 3 bottles?"
    assert violated(query, "An Oregon Pinot Noir is light enough for salmon.")
    assert violated(query, "A crisp Sancerre, a dry rosé and a Grüner Veltliner.") == []
    sober = "No alcohol at the dinner please. A main course?"
    assert violated(sober, "A Merlot-braised short rib with mash.")


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # a colour, a place or a counterfactual named for a wine
        ("No alcohol in the house. Paint for the dining room?", "A deep Merlot-coloured red."),
        (
            "We're hosting sober friends, no alcohol at the dinner. What replaces the wine?",
            "Beef stock and pomegranate juice give the tang Merlot would have added.",
        ),
        (
            "Dry trip to northern Spain, no alcohol. What should we see?",
            "Logroño in La Rioja has great tapas, and the Rioja region's monasteries are lovely.",
        ),
        # a tea of no tea plant, under a tea listed in brackets
        (
            "No caffeine (coffee, tea, cola) for my dad. Evening drinks?",
            "Rooibos, peppermint herbal tea or ginger tea.",
        ),
        (
            "I want zero notifications while I work. Phone setup?",
            "Disable badges and notifications.",
        ),
    ],
)
def test_good_answers_the_last_review_found_flagged(query, answer):
    assert violated(query, answer) == []


def test_nightshades_in_the_plural_list_their_members():
    query = "No nightshades (tomatoes, peppers, eggplant) please. A curry?"
    assert {"tomatoes", "peppers", "eggplant"} <= set(items(query))
