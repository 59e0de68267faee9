"""Exclusions mended in fx26f, from a reviewer's pairs: the adding cues of a situation
narrowed to verbs that obtain something new before "a"/"an"/a number ("buy a spare tyre",
not "fit a spare tyre" as a step, "set up Bluetooth", "you'll need a hot oven"); "my/our
<home> has no X" read as the asker's own lack; an act matched by a verb of its kind with
its object or a kind of it and its place ("feed a Cat6 cable through the walls"); the
thing lacked read without its place ("no heater in my 20 litre tank"), with "there isn't
a", "haven't got", "doesn't come with"; "X is out" with a reason or a while after it;
back-references across a sentence, in the past tense and to a list; -ies plurals."""

from __future__ import annotations

import pytest

from scoregate.scoring.activities import affirmed_activities
from scoregate.scoring.affirmation import stem
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


def _violated(query: str, answer: str) -> list[str]:
    """As the precision track reads it: members (with situations) and avoided acts."""
    a = analyze(query)
    check = check_members(a.excluded, answer, asked=a.asked, request=query, situations=a.situations)
    acts = affirmed_activities(answer, a.avoided)
    return [item for item, _ in check.violated] + [x.label for x, _ in acts]


# --- 1. adding cues: a verb that obtains something new, before an indefinite determiner ----

NO_SPARE = "The car has no spare tyre. What do I do if I get a puncture?"
NO_BLUETOOTH = "Our car doesn't have Bluetooth. How can I play podcasts through the speakers?"
NO_OVEN = "My kitchen has no oven. Can I make a birthday cake?"
NO_CRUISE = "My car doesn't have cruise control. How do I keep a steady speed on the motorway?"

TAKEN_AS_THERE = [
    (NO_SPARE, "Loosen the wheel nuts, jack the car up and fit a spare tyre, then drive on."),
    (NO_BLUETOOTH, "Set up Bluetooth in the car's media menu and pair your phone with it."),
    (NO_OVEN, "Yes, you'll need a hot oven at 180C and two 20cm sandwich tins."),
    (NO_OVEN, "Yes, make it in a fan oven at 170C for 25 minutes."),
    (NO_CRUISE, "Set up cruise control from the steering wheel buttons once you reach 70."),
]


@pytest.mark.parametrize(("query", "answer"), TAKEN_AS_THERE)
def test_a_thing_taken_as_there_is_used(query: str, answer: str) -> None:
    assert _violated(query, answer)


ADDED = [
    (
        "Our car has no spare tyre, just a can of sealant. What should I do on the motorway?",
        "Use the sealant kit; longer term you could buy a space-saver spare tyre for the boot.",
    ),
    (
        "The bike I bought second-hand has no kickstand. How do I park it at home?",
        "Lean it against a wall, or fit a kickstand: most frames have a mounting plate.",
    ),
    (
        "The aquarium has no lid. Will my betta jump out?",
        "Bettas can jump, so fit a lid or lay a sheet of acrylic over the top.",
    ),
    (
        "The rented flat doesn't have a washing machine. What are my options?",
        "Use a launderette, or ask your landlord whether you can plumb in a washing machine.",
    ),
    (
        "The hotel room has no kettle. How can I make my morning tea?",
        "Bring a travel kettle next time; for now ask reception for a jug of hot water.",
    ),
    (
        "There's no kettle in our hotel room. How can I make my morning tea?",
        "Ask reception for a kettle; most hotels keep a few spares.",
    ),
    (
        "The tank has no heater. Can I keep a betta in it?",
        "Bettas need 24-28C, so buy an adjustable 50W heater, and once it's in, set the"
        " heater to 26C.",
    ),
    (
        "There's no dishwasher in our rental. How do I handle dishes for five?",
        "Wash up after each meal. If you have a spare tap, a countertop dishwasher is also"
        " worth considering.",
    ),
    (
        "The campervan has no toilet. What do people do on long trips?",
        "Most people use campsite facilities or buy a small cassette toilet.",
    ),
]


@pytest.mark.parametrize(("query", "answer"), ADDED)
def test_a_thing_added_anew_is_no_use(query: str, answer: str) -> None:
    assert _violated(query, answer) == []


def test_my_homes_lack_is_the_askers_own_as_before() -> None:
    a = analyze(NO_OVEN)
    assert a.excluded == ["oven"] and a.situations == []
    # a thing's lack, said with "the", is still a situation
    assert analyze("The pot my fern came in has no drainage hole.").situations == ["drainage hole"]


# --- 2. an act done by a verb of its kind ---------------------------------------------------

ETHERNET = (
    "Running ethernet cables through walls isn't an option in our rental. How can I get a"
    " wired connection upstairs?"
)


@pytest.mark.parametrize(
    "answer",
    [
        "Feed a Cat6 cable through the walls using the existing phone socket cavity.",
        "Run ethernet through the wall cavity next to the stairs with a fish tape.",
        "An ethernet cable pulled tight through the walls is the neatest way.",
    ],
)
def test_an_act_done_by_a_verb_of_its_kind(answer: str) -> None:
    assert _violated(ETHERNET, answer)


@pytest.mark.parametrize(
    "answer",
    [
        "Plug one powerline adapter into a wall socket and connect it with an ethernet cable.",
        "Use a flat ethernet cable along the skirting, under the carpet, to the stairs.",
    ],
)
def test_the_object_without_its_place_is_no_act(answer: str) -> None:
    assert _violated(ETHERNET, answer) == []


# --- 3. the thing lacked, without its place -------------------------------------------------

LACKED = [
    ("There's no heater in my 20 litre tank. Can I keep a betta in it?", "heater"),
    ("There's no microwave in our office kitchen. How can I have a hot lunch?", "microwave"),
    ("There's no kettle in our hotel room. How can I make my morning tea?", "kettle"),
    ("There's no wifi at my parents' house. How can I work there for a week?", "wifi"),
    ("There isn't a lift in our block. How do I move a fridge up three floors?", "lift"),
    ("We haven't got a garden. How can I grow tomatoes?", "garden"),
    ("The flat doesn't come with a fridge. How do I store milk?", "fridge"),
    ("There's no dishwasher in our rental. Any tips?", "dishwasher"),
    ("There's no lift in our building. How do we get a sofa up?", "lift"),
    ("The tank has no filter yet. How often should I change the water?", "filter"),
]


@pytest.mark.parametrize(("query", "item"), LACKED)
def test_the_thing_lacked_is_excluded_without_its_place(query: str, item: str) -> None:
    assert analyze(query).excluded == [item]


def test_a_clause_after_and_is_no_part_of_the_thing() -> None:
    query = "The nursery has no curtains and the baby wakes at 5am. What can I do?"
    assert analyze(query).excluded == ["curtains"]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (LACKED[0][0], "Yes, just set the heater to 26C and they'll be fine."),
        (LACKED[1][0], "Bring leftovers and heat them in the microwave for two minutes."),
        (LACKED[3][0], "Connect your laptop to their wifi and use a VPN for work."),
        (LACKED[4][0], "Take it up in the lift on a sack truck, strapped upright."),
        (LACKED[5][0], "Plant them in a sunny spot in the garden in late May."),
        (LACKED[6][0], "Keep it on the top shelf of the fridge."),
        (LACKED[9][0], "Change 25% weekly and rinse the filter sponge in old tank water."),
    ],
)
def test_an_answer_that_takes_the_lacked_thing_as_there_uses_it(query: str, answer: str) -> None:
    assert _violated(query, answer)


def test_there_isnt_much_and_a_wish_keep_their_reading() -> None:
    assert analyze("there isn't a lot of time before dinner").excluded == []
    a = analyze("Make sure there isn't any garlic in it.")
    assert a.excluded == ["garlic"] and a.situations == []


# --- 4. "X is out" with a reason or a while after it ----------------------------------------

OUT = [
    ("Driving is out since I lost my licence. How do I get to work?", "driving"),
    ("Gluten is out in our house. What can I bake for a party?", "gluten"),
    ("Cooking is out this week because our kitchen is being refitted.", "cooking"),
    ("Dairy is out at the moment.", "dairy"),
    ("Dairy is out this month.", "dairy"),
    ("Dairy is out now.", "dairy"),
    ("Using the stairs is out for a few weeks after my knee op. How do I manage?", "stairs"),
]


@pytest.mark.parametrize(("query", "item"), OUT)
def test_x_is_out_with_a_tail(query: str, item: str) -> None:
    assert item in analyze(query).excluded


@pytest.mark.parametrize(
    "query",
    [
        "The power is out tonight after the storm. How can I cook dinner?",
        "The tide is out since noon, can we walk to the island?",
        "My passport is out of date. Can I still fly?",
        "The lift is out for maintenance. How do I move a sofa?",
        "He is out of the country for a month. How do I reach him?",
    ],
)
def test_out_of_service_or_out_of_date_excludes_nothing(query: str) -> None:
    assert analyze(query).excluded == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (OUT[0][0], "Drive the back roads early to avoid the ring road traffic."),
        (OUT[1][0], "A classic Victoria sponge: 200g self-raising flour, 200g butter."),
        (OUT[2][0], "Cook a big batch of chilli on Sunday and reheat it each night."),
        (OUT[6][0], "Go up the stairs one at a time, good leg first, holding the rail."),
    ],
)
def test_an_answer_that_does_what_is_out_uses_it(query: str, answer: str) -> None:
    assert _violated(query, answer)


def test_downstairs_is_no_stairs() -> None:
    answer = "Set up a bed downstairs and use the downstairs loo."
    assert _violated(OUT[6][0], answer) == []


# --- 5. back-references across a sentence, in the past tense, to a list --------------------

PESTO = "Pesto recipe without pine nuts, please."
SONGS = "Beginner guitar songs, but skip anything with barre chords."
CARBONARA = "A carbonara recipe with no cheese."
SET_ASIDE = [
    (PESTO, "Classic pesto uses pine nuts; skip them and use sunflower seeds."),
    (PESTO, "Classic pesto uses pine nuts. Skip them and use toasted sunflower seeds."),
    ("A mojito with no rum.", "A mojito normally has white rum; replace it with soda water."),
    (SONGS, "Songs like Creep need barre chords, so I've left those out."),
    (SONGS, "Creep needs barre chords, so I left them off the list."),
    ("A rice dish with no onions.", "Risotto starts with onions; swap them for a little fennel."),
    ("Pizza ideas, no olives please.", "Recipes scatter olives on top; I'd leave them off."),
    (CARBONARA, "Carbonara uses pecorino and parmesan, but leave those out."),
    (CARBONARA, "It uses pecorino and parmesan, but without those the yolks make it creamy."),
]


@pytest.mark.parametrize(("query", "answer"), SET_ASIDE)
def test_a_back_reference_sets_the_item_aside(query: str, answer: str) -> None:
    assert _violated(query, answer) == []


STILL_USED = [
    ("Biscuits with no almonds.", "Toast the almonds, then leave them out on a plate to cool."),
    ("Biscuits with no almonds.", "Toast the almonds. Don't leave them out, they add crunch."),
    ("Biscuits with no almonds.", "Top with toasted almonds; skip them if you like."),
    ("Pasta with no garlic.", "Fry the garlic gently. Don't skip it, it makes the sauce."),
]


@pytest.mark.parametrize(("query", "answer"), STILL_USED)
def test_a_back_reference_that_keeps_it_is_still_a_use(query: str, answer: str) -> None:
    assert _violated(query, answer)


# --- 6. -ies plurals ------------------------------------------------------------------------


def test_ies_plurals_stem_as_their_singular() -> None:
    assert stem("berries") == stem("berry") and stem("cherries") == stem("cherry")
    assert stem("ferries") == stem("ferry") and stem("lilies") == stem("lily")
    assert _violated("A smoothie with no berries.", "Blend banana and add one berry.")
    assert _violated("A fruit salad, no cherries.", "Top each bowl with a cherry.")
