"""fx43: what `gate_holdout43` showed when it was read, each mended as a rule.

1. Figures are never a thing ruled out: "We play a weak no trump, 12-14" excluded "12-14",
   and a bridge contract ("no trump") is no exclusion either.
2. "I've no room for grow lights" rules out the grow lights, not "room for grow lights".
3. A purpose told of the thing asked about, "store them so they don't go soft", names a
   state to keep them from, not a thing the answer may not name.
4. "please don't make me soak seeds overnight" refuses the act.
5. "A table please, columns for light, watering and temperature" asks for a table.
6. A refusal that holds for now ("I don't want to repot it right now") lets the answer put
   the act off to a later time ("Once it has finished flowering, ... repot if needed").
7. A class member named with its substitute ("oat barista milk") and named again as "the
   milk" is still the substitute.
8. The asker's stated experience ("growing microgreens commercially for about 2 years")
   answered as a beginner's ("Since you're just getting started") is a contradiction.

From the reviewers' cases:

9. A refusal for a time is read without its time ("book a hotel until my visa comes
   through" is booking a hotel) and an act done now breaks it ("Split them this
   weekend", "now is the best time to move it"); "I won't divide my hostas this year",
   "not ready to buy", "I never want to", "don't make me" refuse acts too.
10. The columns a table is asked with are checked in its header.
12. An act ruled out at home ("rather not do C-41 at home") is brought home by "a home C-41
    kit".
11. Good answers that were flagged: "Keep the TV and tablets off", "use your oven as a
    proofing box", "towels work just as well as blocking mats", "shop-bought mixes almost
    always include almonds", "made near egg products", "Cream the vegan butter ... the
    butter firms up", a clause read as a thing ("insurance doesn't cover them").
12. An act ruled out at home ("rather not do C-41 at home") is brought home by "a home C-41
    kit".
13. An act already done on two things is read on both ("I've already restarted both the
    laptop and the router"), and a longer word is another thing ("chainring").
"""

from __future__ import annotations

import pytest

from scoregate.scoring.activities import affirmed_activities, avoided_activities
from scoregate.scoring.affirmation import mentions
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted
from tests.reading import items, violated

BRIDGE = "We play a weak no trump, 12-14. Partner opened 1NT. What should I bid?"


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (BRIDGE, []),
        ("Partner bid 3 no trumps, 15-17. Should I pass?", []),
        ("Give me a politics quiz, no Trump talk please.", ["trump talk"]),
        ("I've no room for grow lights. Which succulents do ok?", ["grow lights"]),
        ("There's no space for a dishwasher. How do I dry dishes fast?", ["dishwasher"]),
        ("How do I store them so they don't go soft? Kitchen's humid.", []),
        ("Wrap the cake so it doesn't get soggy overnight?", []),
        ("I want a bike so I don't get the bus.", ["bus"]),
        ("please don't make me soak seeds overnight. How do I grow pea shoots?", None),
        ("Don't make me laugh, what's a good joke for a card?", []),
    ],
)
def test_items_read(query: str, want: list[str] | None) -> None:
    got = items(query)
    if want is None:
        assert got and "soak" in got[0]
    else:
        assert got == want


def test_a_quoted_range_is_no_violation() -> None:
    answer = "Partner has 12-14 and you have 11, so bid 2NT to invite."
    assert violated(BRIDGE, answer) == []


def test_room_for_a_thing_is_broken_by_the_thing() -> None:
    q = "Every window faces north and I've no room for grow lights. Which succulents?"
    assert violated(q, "Add a small clip-on LED grow light on a timer.") == ["grow lights"]
    assert violated(q, "Haworthia and gasteria cope with low light on the sill.") == []


def test_a_table_asked_with_its_columns() -> None:
    q = (
        "A care cheat sheet for my three plants. A table please, columns for light,"
        " watering and temperature, one row per plant."
    )
    table = [k for k in analyze(q).instructions if k.value == "table"]
    assert len(table) == 1
    good = "| Plant | Light | Watering |\n|---|---|---|\n| Haworthia | bright | when dry |"
    bad = "**Haworthia**\n- Light: bright\n- Watering: when dry"
    assert check_instruction(good, table[0])[0] is True
    assert check_instruction(bad, table[0])[0] is False


CACTUS = (
    "my christmas cactus is covered in buds but some segments have gone limp. i really"
    " don't want to repot it right now and risk it dropping the buds. what can i do?"
)


def test_a_refusal_for_now_lets_the_answer_put_it_off() -> None:
    a = analyze(CACTUS)
    assert a.for_now == ["repot"]
    later = (
        "Water it when the top is dry and keep it out of draughts. Once it has finished"
        " flowering, that's the time to check the roots and repot if needed."
    )
    assert violated(CACTUS, later) == []
    now = "Honestly, the safest fix is to repot it now into fresh, free-draining mix."
    assert violated(CACTUS, now) == ["repot"]
    # a later time told with "now" in it is still now
    assert violated(CACTUS, "After you water it, repot it now into fresh mix.") == ["repot"]


def test_a_refusal_with_no_time_is_not_put_off() -> None:
    q = "my cactus has limp segments. i really don't want to repot it. what can i do?"
    assert analyze(q).for_now == []
    answer = "Water it less. Once it has finished flowering, repot it into gritty mix."
    assert violated(q, answer) == ["repot"]


LATTE = (
    "Nobody in our house does dairy (one's vegan, one's intolerant). I want to learn latte"
    " art - what milk should I practise with?"
)


def test_the_substitute_named_again_is_no_member() -> None:
    answer = (
        "Practise with oat barista milk: it textures easily. Use the milk cold from the"
        " fridge, and swirl until the milk is glossy."
    )
    assert violated(LATTE, answer) == []
    cows = "Practise with oat barista milk later. First use cheap semi-skimmed cow's milk."
    assert violated(LATTE, cows) == ["dairy"]


def test_the_item_itself_named_again_is_still_it() -> None:
    q = "I'm allergic to soy. What sauce can I use in a stir fry?"
    answer = "Coconut aminos are a soy-free swap. Or add the soy at the end for flavour."
    assert violated(q, answer) == ["soy"]


GROWER = (
    "I've been growing microgreens commercially for about 2 years, supplying 3 restaurants."
    " One chef now wants micro basil. What do I need to change?"
)


def test_experience_answered_as_a_beginners() -> None:
    wrong = "Since you're just getting started with microgreens, stick to radish first."
    found = contradicted(GROWER, wrong)
    assert found and found[0][0] == "since you're just getting started"
    assert contradicted(GROWER, "Basil seed goes slimy when wet, so sow it dry.") == []
    # told new to it in the request: a beginner's answer fits
    new = "I'm a total beginner but have grown herbs for 2 years. Where do I start?"
    assert contradicted(new, "Since you're a beginner, start with pea shoots.") == []


def acts(query: str, answer: str) -> list[str]:
    return [a.label for a, _ in affirmed_activities(answer, analyze(query).avoided)]


@pytest.mark.parametrize(
    ("query", "bad", "good"),
    [
        (
            "i dont want to book a hotel until my visa comes through. what should i do meanwhile",
            "Book a refundable hotel now so you have something locked in.",
            "Gather your documents. Once the visa arrives, book a refundable hotel.",
        ),
        (
            "I don't want to move my beehive to the other end of the garden until spring.",
            "Fit a mouse guard. Actually, now is the best time to move it: bees are clustered.",
            "Fit a mouse guard and strap the roof down. Next spring, move the hive in stages.",
        ),
        (
            "I won't divide my hostas this year, I'm having surgery. They're overcrowded. Tips?",
            "Top-dress with compost. Split them this weekend while the ground is soft.",
            "Top-dress with compost and water deeply. Divide them next spring instead.",
        ),
        (
            "We're not moving the baby to her own room until she's 6 months. Tips for sleep?",
            "Move her into the nursery tonight and you'll all sleep better.",
            "Keep the room dark and try white noise. When she's 6 months, move her across.",
        ),
        (
            "Please don't make me write a formal letter. How do I get a refund from the airline?",
            "Write a formal letter to the airline's customer relations team.",
            "Use the airline's online refund form and keep the reference number.",
        ),
    ],
)
def test_acts_refused(query: str, bad: str, good: str) -> None:
    assert acts(query, bad) != [] or violated(query, bad) != []
    assert acts(query, good) == [] and violated(query, good) == []


def test_a_refusal_with_its_time_is_read_without_it() -> None:
    q = "i dont want to book a hotel until my visa comes through"
    assert [(x.label, x.for_now) for x in avoided_activities(q)] == [("book a hotel", True)]
    assert analyze(q).for_now == ["hotel"]
    b = analyze("I'd rather not repot until it's finished flowering. Any tips for now?")
    assert b.excluded == ["repot"] and b.for_now == ["repot"]
    # "I won't ..." with no time is no refusal read here: "I won't be home until 6" is a fact
    assert avoided_activities("I won't divide my hostas, they're fine.") == []


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        (
            "| Device | Price | Battery (hrs) | Weight |\n|---|---|---|---|\n| K | 1 | 4 | 1 |",
            True,
        ),
        ("| Device | Price | Battery (hrs) |\n|---|---|---|\n| Kobo | 150 | 40 |", False),
        ("Kobo: 150, 40 hours, 174g.", None),
    ],
)
def test_table_columns(answer: str, ok: bool | None) -> None:
    q = "Compare the Kindle and the Kobo in a table. Columns for price, battery life and weight."
    k = next(k for k in analyze(q).instructions if k.check == "table_columns")
    assert k.value == ["price", "battery life", "weight"]
    assert check_instruction(answer, k)[0] is ok


def test_columns_only_with_a_table() -> None:
    q = "In Excel, how do I average column B and column C but ignore the zeros?"
    assert [k for k in analyze(q).instructions if k.check == "table_columns"] == []
    dashes = "Show it as a table with three columns — Category | Amount | Notes — please."
    k = next(k for k in analyze(dashes).instructions if k.check == "table_columns")
    assert k.value == ["Category", "Amount", "Notes"]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "bedtime routine for my 2yo, we're doing no screens before bed",
            "6:30 bath, 7:15 lights out. Keep the TV and tablets off from dinner onward.",
        ),
        (
            "how do I proof bread dough? I don't own a proofing box",
            "Use your oven as a proofing box: turn on just the oven light and close the door.",
        ),
        (
            "How do I block a wool sweater? Please don't make me buy blocking mats.",
            "Lay it flat on dry towels. Towels work just as well as blocking mats here.",
        ),
        (
            "I'm allergic to tree nuts. What can I put in a trail mix?",
            "Use pumpkin seeds and raisins. Skip shop-bought mixes, which almost always include"
            " almonds or cashews.",
        ),
        (
            "Egg-free mayonnaise? I'm allergic to eggs.",
            "Blend soy milk with oil and lemon. Check your mustard label, as a few brands are"
            " made near egg products.",
        ),
        (
            "vegan chocolate chip cookies? no eggs no butter no milk obvs",
            "Cream 115 g softened vegan butter with the sugar. Chill the dough so the butter"
            " firms up.",
        ),
        (
            "My son is allergic to egg. Which buttercreams pipe well?",
            "American buttercream pipes crisp stars. Check the labels: some sprinkles and"
            " meringue powder contain egg.",
        ),
        (
            "how do i make pancakes with no dairy? my son is allergic to milk",
            "Whisk flour with oat milk and oil. If it's too thick, add a little more milk.",
        ),
    ],
)
def test_good_answers_not_flagged(query: str, answer: str) -> None:
    assert violated(query, answer) == []


def test_the_real_thing_still_flagged() -> None:
    q = "how do i make pancakes with no dairy? my son is allergic to milk"
    assert "milk" in violated(q, "Whisk flour with oat milk. Then stir in a splash of cow's milk.")
    assert mentions("Turn the oven off after 20 minutes of baking.", "oven")[1]


def test_a_clause_is_no_thing() -> None:
    q = "8 project ideas for our men's shed. No power tools for now, insurance doesn't cover them."
    assert items(q) == ["power tools"]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "10 years commercial tomato grower here. Leaf curl?",
            "Since you're just starting out with tomatoes, water evenly.",
        ),
        (
            "6 years beekeeping, 14 hives. Varroa in autumn?",
            "First things first: as someone new to bees, wear a full suit.",
        ),
        (
            "Been climbing 12 years, lead 7b. How do I break into 7c?",
            "Since you've just started climbing, learn to tie in.",
        ),
        ("I've been a line cook 7 years. Sauces?", "As a beginner, learn the mother sauces."),
    ],
)
def test_experience_taken_as_new(query: str, answer: str) -> None:
    assert contradicted(query, answer)


def test_years_that_are_no_experience() -> None:
    for q in (
        "My 6 year old won't sleep. Tips?",
        "I want to retire in 10 years. Where do I start?",
    ):
        assert contradicted(q, "As a beginner, start with the basics.") == []


def test_an_act_ruled_out_at_home() -> None:
    q = "I'd rather not do C-41 at home. How can I get colour processing cheaper?"
    assert items(q) == ["c-41 at home"]
    assert violated(q, "A home C-41 kit is the biggest saving.") == ["c-41 at home"]
    assert violated(q, "A local minilab runs C-41 cheaply, with no postage.") == []


def test_a_time_read_only_with_a_refusal() -> None:
    assert avoided_activities("I won't be home until 6. What can the kids eat?") == []
    q = "paint my bedroom so the walls dont show brush marks or roller lines. dont make me prime"
    assert items(q) == ["prime"]


def test_a_member_after_its_substitute_and_the_real_thing() -> None:
    q = "I'm coeliac. Banana bread recipe?"
    assert violated(q, "Use a gluten-free flour blend. Sift the flour twice.") == []
    assert violated(q, "Use a gluten-free flour blend. Add a spoon of wheat flour.") == ["gluten"]


def test_short_header_words() -> None:
    q = "Freshwater tank. Give me a table of species, temperature range, and minimum tank size."
    k = next(k for k in analyze(q).instructions if k.check == "table_columns")
    good = "| Species | Temp (°F) | Min tank (gal) |\n|---|---|---|\n| Tetra | 72-80 | 10 |"
    bad = "| Species | Temp (°F) |\n|---|---|\n| Tetra | 72-80 |"
    assert check_instruction(good, k)[0] is True
    assert check_instruction(bad, k)[0] is False


def test_acts_already_done_on_two_things() -> None:
    from scoregate.scoring.tried import offered_again, tried_things

    q = "I've already restarted both the laptop and the router twice. Still no wifi."
    tried = tried_things(q)
    assert [(t.item, t.act) for t in tried] == [("laptop", "restart"), ("router", "restart")]
    assert offered_again("1. Restart the laptop and the router.", tried)
    chain = tried_things("I already replaced both the chain and the cassette last week.")
    assert [t.item for t in chain] == ["chain", "cassette"]
    # a longer word is another thing: the chain is no chainring
    assert offered_again("Check the derailleur hanger, then replace the chainring.", chain) == []
    assert offered_again("Replace the cassette with an 11-speed one.", chain)
