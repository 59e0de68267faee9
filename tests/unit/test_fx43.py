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
"""

from __future__ import annotations

import pytest

from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted


def items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


def violated(query: str, answer: str) -> list[str]:
    a = analyze(query)
    return [
        item
        for item, _ in check_members(
            a.excluded,
            answer,
            asked=a.asked,
            request=query,
            situations=a.situations,
            for_now=a.for_now,
        ).violated
    ]


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
