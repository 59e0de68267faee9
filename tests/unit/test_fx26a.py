"""Exclusions read in fx26a: a thing's own lack is a situation ("the pot has no drainage
hole"), still excluded but not used by an answer that proposes to add it ("repot into a pot
with drainage holes"); an act ruled out whole ("running ethernet cables through walls
isn't an option", "... is out"); an item set aside by a back-reference in the answer
("toasted almonds: leave those out"); "X-free" in the answer; irregular plurals ("no
cacti" and a Christmas cactus); and "anything with X" ("skip anything with barre
chords"). Each rule with readings that change and near misses that keep today's."""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions, stem
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


def _items(query: str) -> list[str]:
    return analyze(query).excluded


def _lacks(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions if e.lack]


def _violated(query: str, answer: str) -> list[str]:
    a = analyze(query)
    check = check_members(a.excluded, answer, asked=a.asked, request=query)
    return [item for item, _ in check.violated]


# --- 1. a thing's lack is a situation -------------------------------------------------------

SITUATIONS = [
    ("why is my basil wilting? the planter it came in has no drainage holes", "drainage holes"),
    ("the blender came with no manual, how do I clean the blade?", "manual"),
    ("the desk arrived without a manual, how do the legs go on?", "manual"),
    ("There's no lid for my wok. Can I still steam dumplings?", "lid"),
    ("theres no dishwasher in the rental, any tips for less washing up?", "dishwasher"),
    ("our office has no fridge, what lunches keep till 1pm?", "fridge"),
    ("the rental flat doesn't have a tumble dryer, how do I dry towels fast?", "tumble dryer"),
    ("Our community hall is small and has no stage. How do we run a talent show?", "stage"),
    (
        "the old car doesn't have a cigarette lighter, how do I charge my phone?",
        "cigarette lighter",
    ),
]


@pytest.mark.parametrize(("query", "item"), SITUATIONS)
def test_a_things_lack_is_an_exclusion_marked_as_a_situation(query: str, item: str) -> None:
    a = analyze(query)
    assert item in a.excluded, a.exclusions
    assert item in a.situations, a.exclusions


def _situation_violated(query: str, answer: str) -> list[str]:
    a = analyze(query)
    check = check_members(a.excluded, answer, asked=a.asked, request=query, situations=a.situations)
    return [item for item, _ in check.violated]


TANK = "My 54 litre tank has finished cycling. There's no heater in it, the room sits at 19C."
POT = "my fern's fronds are going brown, the pot it came in has no drainage hole"
GARAGE = "Running a submain to a detached shed. There's no consumer unit in the shed yet."
SUBFLOOR = "Tiling a hallway on joists and ply; there's no concrete anywhere. Which adhesive?"

ADDED = [
    (POT, "Repot it into a pot with drainage holes and water only when the top inch is dry."),
    (POT, "Drill a couple of drainage holes in the base with a masonry bit."),
    (POT, "Move it to a pot that has a drainage hole, then let it dry out."),
    (POT, "Replace the pot with one that has drainage holes."),
    (POT, "Switch to a nursery pot with a drainage hole and stand it inside the pretty one."),
    (TANK, "Buy a 50W heater if you want tetras; otherwise pick minnows."),
    (TANK, "For cardinals you'll need a new heater set to 25C."),
    (TANK, "Fit an adjustable heater and give it a day to settle before the fish go in."),
    (TANK, "If you'd rather keep tropical fish, pick up a small heater first."),
    (GARAGE, "Fit a small consumer unit in the shed first, with a main switch and two RCBOs."),
    (GARAGE, "Put in a two-way consumer unit at the shed end as the origin."),
    (GARAGE, "You'll need a new consumer unit out there; then run a 20A radial."),
]


@pytest.mark.parametrize(("query", "answer"), ADDED)
def test_proposing_to_add_the_missing_thing_uses_nothing(query: str, answer: str) -> None:
    assert _situation_violated(query, answer) == []


TAKEN_AS_THERE = [
    (POT, "Make sure the drainage hole stays clear of roots."),
    (POT, "Check that water runs freely out of the drainage hole after watering."),
    (TANK, "Set the heater to about 25C and let it stabilise before they go in."),
    (TANK, "Since your heater keeps it steady, cardinal tetras will be fine."),
    (TANK, "Get the heater up to 26C for a week before adding them."),
    (TANK, "Put the tank in a quiet corner, next to the heater and away from the window."),
    (GARAGE, "Since there's already a consumer unit on the shed wall, work straight off it."),
    (GARAGE, "Switch off at the consumer unit in the shed before you start."),
    (SUBFLOOR, "Since you're laying onto a concrete subfloor, prime it first."),
    (SUBFLOOR, "Prime the concrete with an acrylic primer and let it dry."),
]


@pytest.mark.parametrize(("query", "answer"), TAKEN_AS_THERE)
def test_taking_the_missing_thing_as_there_uses_it(query: str, answer: str) -> None:
    assert _situation_violated(query, answer), analyze(query).exclusions


def test_without_the_situations_an_added_thing_is_used_as_before() -> None:
    a = analyze(TANK)
    check = check_members(a.excluded, "Buy a 50W heater.", asked=a.asked, request=TANK)
    assert [item for item, _ in check.violated] == ["heater"]


def test_a_lack_is_read_as_a_situation_only_of_a_thing() -> None:
    # the asker's own lack, a wish and a plain "no" are no situations: adding them uses them
    for query, item in [
        ("I have no oven, what can I bake?", "oven"),
        ("pasta for two, no garlic", "garlic"),
        ("make sure there's no garlic in it, what sauce can I make?", "garlic"),
    ]:
        a = analyze(query)
        assert item in a.excluded and item not in a.situations, a.exclusions
    assert _situation_violated("I have no oven, what can I bake?", "Buy a small oven first.")
    assert _situation_violated("pasta for two, no garlic", "Add a clove of garlic.")


def test_a_situation_told_again_as_a_wish_is_an_exclusion() -> None:
    a = analyze("The pan has no lid. Please, no lid.")
    assert "lid" in a.excluded and "lid" not in a.situations, a.exclusions


KEPT_AS_TODAY = [
    ("I have no oven, what can I bake?", "oven", False),
    # the asker's own home: "my/our <home> has no X" (fx26f)
    ("Our flat has no balcony, where can I dry laundry in winter?", "balcony", False),
    ("we don't have a car, how do we get to the coast?", "car", True),
    ("pasta for two, no garlic", "garlic", False),
    ("a cake recipe with no nuts please", "nuts", False),
    ("I have a pot with no lid, how do I cook rice?", "lid", False),
    ("My husband and I have no car, how do we do a big shop?", "car", False),
    ("my son has no interest in football, what sport could he try?", "football", False),
    # wished, not told: "make sure", "a sauce that has no cream"
    ("make sure there's no garlic in it, what sauce can I make?", "garlic", False),
    ("I want a sauce that has no cream", "cream", False),
    # a name as code and products are written: a setup that lacks a tool rules it out
    ("The build box has no GCC 13, how do I use C++23 features?", "gcc 13", False),
]


@pytest.mark.parametrize(("query", "item", "lack"), KEPT_AS_TODAY)
def test_the_askers_lack_and_wishes_keep_their_reading(query: str, item: str, lack: bool) -> None:
    assert item in _items(query), analyze(query).exclusions
    assert (item in _lacks(query)) is lack


def test_a_situation_is_cut_from_the_core_ask_as_an_exclusion() -> None:
    a = analyze("no onions please. The flat has no oven, so what can I cook on the hob?")
    assert a.excluded == ["onions", "oven"] and a.situations == ["oven"]
    assert "no oven" not in a.core_ask


# --- 2. an act ruled out whole ---------------------------------------------------------------

ACTS = [
    (
        "Renting, so running ethernet cables through walls isn't an option.",
        "running ethernet cables through walls",
    ),
    ("my landlord says drilling holes in the walls is out.", "drilling holes in the walls"),
    (
        "Hiring an electrician isn't possible this month, can I fit it myself?",
        "hiring an electrician",
    ),
    (
        "we agreed that paying for grades is off the table. How else can we motivate him?",
        "paying for grades",
    ),
    ("Restarting the server is not an option, it's live.", "restarting the server"),
]


@pytest.mark.parametrize(("query", "item"), ACTS)
def test_an_act_is_ruled_out_whole(query: str, item: str) -> None:
    assert item in _items(query), analyze(query).exclusions


def test_an_act_is_matched_by_what_is_done() -> None:
    query = "Wifi drops upstairs. I rent, so running ethernet cables through walls isn't an option."
    assert _violated(query, "Run an Ethernet cable through the wall to your bedroom.")
    assert _violated(query, "An electrician can fish ethernet cables through your walls.")
    powerline = (
        "Use powerline adapters: they carry the network through your existing electrical"
        " wiring. Plug one into a wall socket by the router and connect it with an ethernet cable."
    )
    assert _violated(query, powerline) == []
    assert _violated(query, "A mesh system such as Deco needs no cables at all.") == []
    assert _violated(query, "No need to run ethernet cables through the walls: go mesh.") == []


def test_an_act_without_a_place_needs_its_verb() -> None:
    query = "Hiring a plumber isn't possible right now. How do I stop the tap dripping?"
    assert _violated(query, "If the washer is fine, hire a plumber.")
    assert _violated(query, "A plumber would swap the washer; you can do the same.") == []


OUT = [
    ("Red wine is out, it gives me headaches. What goes with lamb?", "red wine"),
    ("Toll roads are out for me. Fastest route from Porto to Faro?", "toll roads"),
    ("so a pull-up bar is out. Home back exercises?", "pull-up bar"),
    ("After the recall, anything from Zentek is out for me.", "zentek"),
    ("anything that has peanuts is off the table", "peanuts"),
    ("a second car isn't an option", "second car"),
]


@pytest.mark.parametrize(("query", "item"), OUT)
def test_a_thing_ruled_out_by_is_out(query: str, item: str) -> None:
    assert item in _items(query), analyze(query).exclusions


NOT_OUT = [
    "when the tide is out, what can we find in the rock pools?",
    "The power is out, how do I keep the freezer cold?",
    "my husband is out tonight, easy dinner for one?",
    "The lifts are out for maintenance, how do I get the sofa up?",
    "Version 3 of the SDK is out and has breaking changes.",
    "the whole team is out.",
    "The milk is out of date, can I still bake with it?",
]


@pytest.mark.parametrize("query", NOT_OUT)
def test_out_that_rules_nothing_out(query: str) -> None:
    assert _items(query) == [], analyze(query).exclusions


# --- 3. an item set aside by a back-reference ------------------------------------------------

SET_ASIDE = [
    "Tagines are often finished with toasted almonds: leave those out and use pumpkin seeds.",
    "Biryani is usually topped with cashews, so skip them for this guest.",
    "Many pestos use pine nuts and walnuts - omit them entirely, sunflower seeds work.",
    "The classic recipe scatters pistachios on top, so swap them for toasted sesame.",
    "Traditional baklava is full of walnuts, but instead of those, use a date paste.",
    "It usually comes with hazelnuts, leave them off completely.",
]


@pytest.mark.parametrize("answer", SET_ASIDE)
def test_a_back_reference_sets_the_item_aside(answer: str) -> None:
    assert _violated("One guest has a tree nut allergy. Ideas for a main?", answer) == []


STILL_USED = [
    "Top with toasted almonds and serve.",
    "Toast the almonds, then leave them out on a tray to cool.",  # a step, not a setting aside
    "Scatter almonds over the rice and skip those steps if short on time.",  # a determiner
    "Top with toasted almonds; skip them if you like.",  # another sentence
    "Stir in the cashews, then toss them well.",
]


@pytest.mark.parametrize("answer", STILL_USED)
def test_a_use_with_no_back_reference_is_still_a_use(answer: str) -> None:
    assert _violated("One guest has a tree nut allergy. Ideas for a main?", answer)


def test_a_pronoun_must_agree_with_the_item() -> None:
    # "it" is the sauce, not the almonds
    assert _violated(
        "no almonds", "Sprinkle almonds over the sauce, or skip it for a lighter dish."
    )
    assert _violated("no garlic", "Rub the bread with garlic, or skip it if you prefer.") == []


def test_the_readers_own_exclusion_named_is_no_use() -> None:
    query = "Which should I pick? anything from Zentek is out for me."
    assert (
        _violated(
            query, "Take the refund; a replacement is another Zentek, which you've ruled out."
        )
        == []
    )
    assert _violated(query, "Take the replacement Zentek, which you'll love.")


# --- 4. "X-free" in the answer ---------------------------------------------------------------

FREE = [
    ("no worms please, pet ideas for a reptile?", "Worm-free options: dubia roaches or crickets."),
    ("skip the worm options please, how do I compost?", "Worm-free options: a bokashi bin."),
    ("pesto without nuts", "Make a nut-free pesto with sunflower seeds."),
    ("a bread with no gluten", "Use a gluten-free flour blend."),
    ("no dairy please", "Use dairy-free milk and dairy-free butter."),
    ("no pork", "Grill some pork-free sausages."),
]


@pytest.mark.parametrize(("query", "answer"), FREE)
def test_x_free_is_a_negated_mention(query: str, answer: str) -> None:
    assert _violated(query, answer) == []


def test_x_free_does_not_free_the_thing_it_describes() -> None:
    assert _violated("no bins", "Get a worm-free bin.")  # still a bin
    assert _violated("no dairy please", "Use milk.")
    assert _violated("no worm bins", "Get two worm bins.")


# --- 5. irregular plurals --------------------------------------------------------------------

PLURALS = [
    ("cactus", "cacti"),
    ("fungus", "fungi"),
    ("mouse", "mice"),
    ("goose", "geese"),
    ("tooth", "teeth"),
    ("foot", "feet"),
    ("leaf", "leaves"),
    ("knife", "knives"),
    ("loaf", "loaves"),
    ("half", "halves"),
    ("potato", "potatoes"),
    ("tomato", "tomatoes"),
    ("child", "children"),
]


@pytest.mark.parametrize(("one", "many"), PLURALS)
def test_irregular_plurals_stem_alike(one: str, many: str) -> None:
    assert stem(one) == stem(many)
    assert mentions(f"Try a {one}.", many) == (True, True)
    assert mentions(f"Try some {many}.", one) == (True, True)


def test_no_cacti_catches_a_named_cactus() -> None:
    query = "3 plants for a steamy bathroom, no cacti please, my toddler grabs everything"
    assert _violated(query, "A Christmas cactus loves humidity.")
    assert _violated(query, "Try a bunny ear cactus on the sill.")
    assert _violated(query, "Ferns, pothos and a peace lily; no cacti.") == []


def test_person_words_do_not_match_people_in_general() -> None:
    assert stem("people") != stem("person")
    assert mentions("Most people find this easy.", "person") == (False, False)
    assert mentions("Men and women both enjoy it.", "woman") == (False, False)


BEING = [
    "Feels like making a fuss and I don't want to be 'that person'.",
    "I don't want to be that guy at the party.",
    "I don't want to be the one who tells him.",
    "it doesn't need to be pretty, just sturdy",
]


@pytest.mark.parametrize("query", BEING)
def test_who_the_asker_would_rather_not_be_is_no_item(query: str) -> None:
    assert analyze(query).excluded == [], analyze(query).exclusions


def test_an_act_or_a_place_after_to_be_is_still_read() -> None:
    assert "picking stocks" in _items("I don't want to be picking stocks or rebalancing.")
    assert "traffic" in _items("I'd rather not be on busy roads with lots of traffic.")


def test_leaves_is_no_longer_the_verb_leave() -> None:
    assert mentions("Leave the pan to cool.", "leaves") == (False, False)


# --- 6. anything with X ----------------------------------------------------------------------

ANYTHING = [
    ("skip anything with barre chords, my hand isn't strong enough yet", "barre chords"),
    ("avoid anything that has onions in it", "onions"),
    ("nothing containing sesame, please", "sesame"),
    ("no anything with dairy", "dairy"),
    ("I don't want anything that needs batteries.", "batteries"),
    ("We want to avoid anything with bleach too.", "bleach"),
]


@pytest.mark.parametrize(("query", "item"), ANYTHING)
def test_anything_with_x_excludes_x(query: str, item: str) -> None:
    assert item in _items(query), analyze(query).exclusions


def test_anything_with_x_is_checked_on_x() -> None:
    query = "easy songs? skip anything with barre chords, my hand isn't strong enough yet"
    assert _violated(query, "Creep: G, B, C, Cm, where the B and Cm are barre chords.")
    assert _violated(query, "These songs use open chords only, no barre chords.") == []
    assert _violated(query, "Horse with No Name: Em and D6/9, all open shapes.") == []
