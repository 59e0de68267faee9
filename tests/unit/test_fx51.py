"""fx51: what `gate_holdout51` showed when it was read, each mended as a rule.

1. What is ruled out: a list ruled out item by item ("no powder - not the official stuff,
   not cornstarch"), "X is out - <reason>", "X and Y of any kind are not allowed", who
   said it ("the vicar says ..."), where or why it holds ("past the gate", "after a
   lifeguard missed a kid"), tails that are no part of the thing ("there", "to speak of",
   "per player").
2. In the answer: things of a feature ("no GPS devices": a GPS sports watch), other names
   of a thing ("commercial yeast": instant yeast; "entry fee": "£20 per team entry"), a
   list set aside with "all" or "along with", a thing measured ("test ammonia") no use.
3. A person the asker won't turn to, put forward by the answer ("the easiest fill-in is
   your brother-in-law").
4. Forms: "no full stops anywhere" (a point inside a number is none).
5. Facts told back: a figure already had told as a goal ("I'm already 95 kg" / "reach at
   least 95 kg"), a word stressed in capitals answered with its opposite ("the REVERSE
   weave" / "the forward weave"), a limb's side told with footedness beside it.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.activities import affirmed_activities
from scoregate.scoring.affirmation import mentions
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze
from tests.reading import items, told_back, violated


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "Please no powder of any kind - not the official stuff, not cornstarch, nothing - my"
            " youngest has asthma. What can we do?",
            ["powder", "official stuff", "cornstarch"],
        ),
        (
            "The school rule is strict: craft knives and blades of any kind are not allowed in the"
            " room. How should I set it up?",
            ["craft knives", "blades"],
        ),
        (
            "The landlord wants it free to play - no entry fee per player or per team. What else"
            " can we do?",
            ["entry fee"],
        ),
        (
            "Live ammunition is out - the council won't allow any firearm shooting there. How can"
            " we still train?",
            ["firearm shooting", "live ammunition"],
        ),
        ("It's November, so there's no sun to speak of. How long do I expose?", ["sun"]),
        (
            "The vicar says confetti and glitter of any kind are not allowed in the churchyard."
            " What can guests do instead?",
            ["confetti", "glitter"],
        ),
        (
            "Site rules say no Bluetooth devices past the gate, including on bikes in the shed."
            " Options?",
            ["bluetooth devices"],
        ),
        # the remark after the refusal is no thing; "drive there" is the trip
        ("I don't want to ask my brother-in-law to fill in, long story. Options?", []),
        (
            "I'd rather not rent a car or drive there, the hills stress me out. How do we get"
            " to Sintra?",
            ["car", "drive there"],
        ),
        # "not even" names where, read as before
        ("No cement anywhere, not even on the copes. How do I bed the slabs?", ["cement"]),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


def test_each_item_has_its_own_phrase() -> None:
    a = analyze("No powder of any kind - not talc, not cornstarch. What can we use?")
    assert [(e.item, e.phrase) for e in a.exclusions][-1] == ("cornstarch", "not cornstarch")


GPS = "The rules say no GPS devices at all, just a map and compass. What should we pack?"
YEAST = "Commercial yeast is out - my wife runs a wild-fermentation blog. Why is my loaf dense?"
FEE = "I want no entry fee per player or per team so nobody is put off. How do we pay the refs?"
WOOL = "She's allergic, so no animal fibres - not wool, not alpaca, not mohair. What yarn?"


USES = [
    (GPS, "Wear a GPS sports watch to keep an eye on pace.", ["gps devices"]),
    (GPS, "A cheap non-GPS digital watch is enough for timing.", []),
    (YEAST, "Add a quarter teaspoon of instant yeast with the starter.", ["commercial yeast"]),
    (YEAST, "No dried yeast needed: give the starter a longer bulk.", []),
    (FEE, "The simplest fix is a modest £20 per team entry.", ["entry fee"]),
    (FEE, "Ask a local business to sponsor the trophies and run a raffle.", []),
    (WOOL, "Since alpaca and mohair are off the table along with wool, try acrylic.", []),
    (WOOL, "With wool, alpaca and mohair all off the table, go for cotton.", []),
    (WOOL, "A soft merino wool is the warmest choice.", ["wool"]),
]


@pytest.mark.parametrize(
    ("answer", "used"),
    [
        ("Test ammonia, nitrite and nitrate with a liquid kit.", False),
        ("Any ammonia or nitrite above zero is a likely culprit.", False),
        ("Check your ammonia levels daily.", False),
        ("Dose ammonia to 2 ppm to cycle the tank.", True),
        ("Test the water and add a capful of ammonia.", True),
    ],
)
def test_a_thing_measured_is_no_use(answer: str, used: bool) -> None:
    assert mentions(answer.lower(), "ammonia")[1] is used


INLAW = "I don't want to ask my brother-in-law to fill in, long story. What are my options?"
AUNT = "I don't want to ask my aunt to bake it - she made it all about her. Options?"
SISTER = "I'd rather not borrow from my sister, she's lent us her awning twice. Cheapest way?"
PARENTS = "I don't want to ask my parents for money. How do I cover rent this month?"
PAT = "I don't want to ask our neighbour Pat for her press again. How do I get the juice out?"
PAUL = "I don't want to ask my uncle Paul to feed the snakes, he moans for months. Options?"
PARENTS_LOAN = "I don't want to borrow from my parents, they've helped enough. Options?"


@pytest.mark.parametrize(
    ("query", "answer", "words"),
    [
        (INLAW, "The easiest fill-in is your brother-in-law: it's one night.", "brother-in-law"),
        (AUNT, "Honestly, though, the easiest option is your aunt.", "your aunt"),
        (SISTER, "The cheapest route is to borrow your sister's mover.", "your sister's"),
        (INLAW, "Your brother-in-law is the obvious choice for one night.", "brother-in-law"),
        (INLAW, "Ask around the pub: regulars often fill in.", None),
        (INLAW, "If you'd rather not ask your brother-in-law, try the regulars.", None),
        (PARENTS, "Your parents may ask how it went.", None),
        (PARENTS, "Without leaning on your parents, try a hardship plan.", None),
        # round two: by name, by relation, by other words
        (PAT, "Pat's basket press is the obvious answer for 60 kg.", "pat's"),
        (PAUL, "Honestly, your uncle is the obvious person to ask.", "your uncle"),
        (PARENTS_LOAN, "Your mum and dad are the quickest and cheapest source.", "mum and dad"),
        (PAUL, "Paul may ask how it went.", None),
        (PAT, "Crush the grapes in a bucket and strain them through a bag.", None),
    ],
)
def test_a_person_the_asker_wont_turn_to(query: str, answer: str, words: str | None) -> None:
    found = affirmed_activities(answer, analyze(query).avoided)
    if words is None:
        assert found == []
    else:
        assert found and words in found[0][1]


FULL_STOPS = "A safety checklist for a Year 3 handout, 4 bullets, no full stops anywhere please."


def test_no_full_stops() -> None:
    (rule,) = [k for k in analyze(FULL_STOPS).instructions if k.check == "forbidden_chars"]
    assert check_instruction("- Stay with your group\n- Wet hands first\n- Keep 2.5 m back", rule)[
        0
    ]
    ok, why = check_instruction("- Stay with your group.\n- Wet hands first.", rule)
    assert not ok and "2 full stops" in why
    # "no periods" tells a health matter, no punctuation
    assert not analyze("I've had no periods for three months. Should I worry?").instructions


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "I'm already 95 kg and strong in the gym, but my sprint start is slow. What should I"
            " focus on?",
            "Eat in a steady surplus to reach at least 95 kg before testing.",
            "reach at least 95 kg",
        ),
        (
            "I can already hold a plank for 2 minutes with good form. Next goals?",
            "1. Build your plank hold up to 2 minutes, adding 10 seconds a week.",
            "2 minutes",
        ),
        (
            "I can already run a half in 1:45 and do 35 miles a week. Plan for a sub-3:45?",
            "For six weeks, work up to a 1:45 half marathon as your benchmark.",
            "1:45",
        ),
        (
            "I already ride 100 km in one go most weekends. Training for a 160 km sportive?",
            "Build your long ride until you can comfortably ride 100 km, then stretch it.",
            "100 km",
        ),
        (
            "I already ride 100 km in one go most weekends. Training for a 160 km sportive?",
            "Build from 100 km towards 140 km over the summer.",
            None,
        ),
        (
            "I'm already 95 kg. What should I focus on?",
            "You're already at 95 kg, so there's no need to reach 95 kg again: hold it.",
            None,
        ),
        (
            "Working on the REVERSE 3-beat weave; my forward weave is solid. Why do they clash?",
            "Clashes in the forward weave usually come from timing.",
            "forward weave",
        ),
        (
            "Working on the REVERSE 3-beat weave; my forward weave is solid. Why do they clash?",
            "Unlike the forward weave, in reverse the poi come up the front.",
            None,
        ),
        (
            "I'm right-footed but I idle with my LEFT foot down. I fall off the front. Why?",
            "With your right foot at the bottom of each rock, sit down properly.",
            "your right foot",
        ),
        (
            "I'm right-handed and I've sprained my right wrist. How do I keep typing?",
            "Rest your right wrist and use the mouse with your left hand for a week.",
            None,
        ),
    ],
)
def test_facts_told_back(query: str, answer: str, want: str | None) -> None:
    told_back(query, answer, want)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "Village fete this year: with bouncy castles, pony rides and the coconut shy all off"
            " the table (insurance went up), what can we put on for under-10s?",
            ["bouncy castles", "pony rides", "coconut shy"],
        ),
        (
            "With gazebos, marquees and sun umbrellas all off the table, how do we give people"
            " shade?",
            ["gazebos", "marquees", "sun umbrellas"],
        ),
        (
            "Since mealworms and waxworms are off the table along with superworms, what should"
            " his insect rotation look like?",
            ["mealworms", "waxworms", "superworms"],
        ),
    ],
)
def test_round_two_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


def test_the_rule_is_read_without_who_said_it() -> None:
    a = analyze("The vicar says confetti of any kind is not allowed. What can guests throw?")
    assert [(e.item, e.phrase) for e in a.exclusions] == [
        ("confetti", "confetti of any kind is not allowed")
    ]


KVASS = "Commercial yeast is out - I want the wild version my grandmother made. How do I start?"
SCOUTS = "There are to be no GPS devices at all on the hike. What kit list should I send parents?"
BALCONY = "My north-facing balcony gets no sun to speak of. What greenery will survive in pots?"
CAFE = "No nuts of any kind on the menu - not almonds, not hazelnuts. Three traybake ideas?"


USES_TWO = [
    (KVASS, "Many modern recipes call for a sachet of fast-action yeast, but not this.", []),
    (
        KVASS,
        "Unlike quick recipes that use a pinch of dried yeast, this relies on raisins.",
        [],
    ),
    (KVASS, "Add a sachet of fast-action yeast to get it going.", ["commercial yeast"]),
    (SCOUTS, "Remind parents that GPS watches and phone map apps should stay at home.", []),
    (SCOUTS, "Pack a GPS watch; phones should stay at home.", ["gps devices"]),
    (BALCONY, "Skip basil and succulents, as they need several hours of direct sun.", []),
    (CAFE, "Swap any almond extract in old recipes for vanilla.", []),
    (CAFE, "Top the slice with toasted almonds.", ["almonds"]),
]


MOTORHOME = (
    "The warden says campfires and barbecues are not allowed on the pitches this summer. How"
    " can we eat outside?"
)
LINDISFARNE = "The reserve says no drones past the causeway car park. Best way to get aerial shots?"
LEAK = "I want a water leak alarm but no Wi-Fi gear please. What should I buy?"
PARTY = "The school says nuts and sesame of any kind are not allowed. Ideas for a party spread?"
FOREST = "No GPS devices - I want to learn to navigate with a map and compass. What kit?"
GINGER = "Commercial yeast is out - I want to use a ginger bug like my gran. How do I start?"


USES_THREE = [
    (LINDISFARNE, "Keep the drone packed away in the van for the whole visit.", []),
    (LINDISFARNE, "Fly the drone from the car park at dawn.", ["drones"]),
    (MOTORHOME, "Gas barbecues count too, so leave them packed away.", []),
    (LEAK, "Those smart sensors are the Wi-Fi versions you want to avoid.", []),
    (PARTY, "Seeded bread and some crackers have sesame on them - check every pack.", []),
    (PARTY, "Sprinkle sesame over the sausage rolls.", ["sesame"]),
    (FOREST, "Many outdoor watches, like the Garmin Instinct range, have GPS built in.", []),
    (FOREST, "Get a watch that has GPS built in.", ["gps devices"]),
    (GINGER, "You'll see quicker recipes that use a sachet of dried yeast, but not here.", []),
    (GINGER, "Use a recipe that uses dried yeast for a quicker start.", ["commercial yeast"]),
]


def test_what_a_place_is_like_is_no_thing_ruled_out() -> None:
    assert items("A pitch near Fort William with no road noise to speak of, please. Tips?") == []
    assert items("Somewhere with no crowds or queues at the lifts?") == []


def test_the_general_head_is_no_member_of_its_kind() -> None:
    from scoregate.scoring.membership import _same_family

    assert _same_family("boat", "motorboats")
    assert not _same_family("kayak", "motorboats")


@pytest.mark.parametrize(("query", "answer", "want"), [*USES, *USES_TWO, *USES_THREE])
def test_what_the_answer_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want
