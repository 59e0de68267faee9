"""fx47: what `gate_holdout47` showed when it was read, each mended as a rule.

1. Refusals: "I'm not going tubeless" rules out tubeless, "don't want to mess about with
   sealant" the sealant, "Took the heel brake off ... How do I stop without it?" the heel
   brake; "We're not going vegan" is no vegan diet to keep.
2. In the answer, "a multi-effects unit with amp models" is no amp.
3. Forms: "exactly 5 valid two-letter words" counts five words (not two); a JSON list of
   "exactly 3 objects" is counted by its objects; "whats" opens a second ask.
4. A credential held ("Got my A licence last month") offered again ("pass your A licence
   check").
5. The asker's facts told back the other way: going solo and "your passenger"; "next
   Saturday's gig" and "With a month or so to go"; "starting 9am" and "your early afternoon
   start".
6. A plan against the asker's time: a step left overnight for "I only have about 2 hours";
   a budget's "Skip the budget brands and get a premium gi at $180-200".
"""

from __future__ import annotations

import pytest

from scoregate.scoring.budget import over_budget
from scoregate.scoring.counting import count_units
from scoregate.scoring.request_analysis import analyze, split_asks
from scoregate.scoring.restated import contradicted
from scoregate.scoring.timebox import over_time
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

TUBES = (
    "Running normal clinchers with inner tubes on my cross bike and I'm not going tubeless - "
    "don't want to mess about with sealant. What pressure should I run for muddy races?"
)
BRAKE = (
    "Took the heel brake off my inline skates because it kept catching when I do crossovers."
    " How do I stop without it? I mostly skate on bike paths."
)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (TUBES, ["sealant", "tubeless"]),
        ("Not going tubeless. What pressure?", ["tubeless"]),
        ("I don't want to play around with settings. Which app?", ["play"]),
        ("I'd rather not fiddle with drivers. Which printer?", ["drivers"]),
        # not a way refused: a place, a time, a manner
        ("I'm not going back to the gym. How do I stay fit?", []),
        ("I'm not going anywhere near it. What pressure?", []),
        ("I'm not going out tonight. What should I cook?", []),
        ("I am not going crazy on price. Which one?", []),
        # a part taken off, then done without
        (BRAKE, ["heel brake"]),
        (
            "I removed the stabilisers from her bike. How does she balance without them?",
            ["stabilisers"],
        ),
        ("I took the lid off. How do I cook it?", []),
        ("I took the lid off. How do I cook it without a timer?", ["timer"]),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("We're not going vegan, but what can we cook tonight?", ["vegan"]),
        ("We've never gone keto. What should we eat?", []),
        ("We're going vegan. What can we cook?", ["meat", "seafood", "dairy"]),
    ],
)
def test_a_diet_refused_is_no_diet_to_keep(query: str, want: list[str]) -> None:
    assert items(query)[: len(want)] == want
    if not want:
        assert items(query) == []


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            TUBES,
            "For proper mud, the real answer is to convert to tubeless with sealant.",
            ["sealant", "tubeless"],
        ),
        (TUBES, "With tubes you can't go as low as tubeless riders. Try 30 psi.", []),
        (
            BRAKE,
            "Refit the heel brake before you set off and use a heel-brake stop.",
            ["heel brake"],
        ),
        (BRAKE, "Here are the ways to stop without a heel brake: a T-stop, a plough.", []),
        (
            "how do i practise bass silently at night? I've got a laptop but no amp, and I'm"
            " not buying one.",
            "A bass multi-effects unit with a headphone output has amp models built in.",
            [],
        ),
        (
            "No amp, and I'm not buying one. How do I practise silently?",
            "Use an amp simulator plugin on the laptop.",
            [],
        ),
        (
            "No amp, and I'm not buying one. How do I practise silently?",
            "Get a compact practice amp with a headphone socket.",
            ["amp"],
        ),
    ],
)
def test_what_the_answer_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


def counts(query: str) -> list[tuple[str | None, object]]:
    return [(i.unit, i.value) for i in analyze(query).instructions if i.check == "count"]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("give me exactly 5 valid two-letter words that use J, Q, X or Z.", [("words", 5)]),
        ("List 5 four-letter words with Q.", [("words", 5)]),
        ("Name 4 three-syllable words for a poem.", [("words", 4)]),
        ("What are some two-letter words with Q?", []),
        ("Write a 3 sentence summary of this.", [("sentences", 3)]),
    ],
)
def test_a_length_of_each_word_is_no_count(query: str, want: list[tuple[str, int]]) -> None:
    assert counts(query) == want


def test_a_json_list_is_counted_by_its_elements() -> None:
    four = '[{"food": "a"}, {"food": "b"}, {"food": "c"}, {"food": "d"}]'
    assert count_units(four, "items", None) == 4
    assert count_units("```json\n[1, 2, 3]\n```", "items", None) == 3
    assert count_units('{"food": "a"}', "items", None) is None
    assert count_units("[not json", "items", None) is None
    # a markdown list still counts as one
    assert count_units("- a\n- b", "items", None) == 2


def test_an_ask_typed_without_its_apostrophe_is_an_ask_of_its_own() -> None:
    query = (
        "just got quad skates. what wheels should I swap to, and whats the easiest way for a"
        " beginner to stop?"
    )
    assert split_asks(query) == (
        "what wheels should I swap to",
        "whats the easiest way for a beginner to stop?",
    )


SKYDIVE = (
    "Got my A licence last month, I'm on 28 jumps now. I want to start jumping with other"
    " people. What's the next step?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            SKYDIVE,
            "The first thing is to finish your AFF levels and pass your A licence check.",
            "pass your A licence",
        ),
        (SKYDIVE, "With your A licence done, book coached jumps. Get your B licence later.", None),
        (
            "I passed my theory test last week. What should I do next?",
            "Next, book and pass your practical test.",
            None,
        ),
        (
            "I passed my theory test last week. What should I do next?",
            "First, pass your theory test.",
            "pass your theory test",
        ),
    ],
)
def test_a_credential_held_offered_again(query: str, answer: str, want: str | None) -> None:
    again = offered_again(answer, tried_things(query))
    assert [words for _, words in again] == ([want] if want else [])


@pytest.mark.parametrize(
    "query",
    [
        "I got my licence suspended. How do I get it back?",
        "I got my test results today. What do they mean?",
    ],
)
def test_a_credential_lost_is_none_held(query: str) -> None:
    assert [t for t in tried_things(query) if t.act == "earn"] == []


SOLO = (
    "My usual chase partner dropped out so I'm going solo for a week on the Plains. Tips for"
    " doing it safely on my own?"
)
GIG = (
    "I've been asked to cover lead at next Saturday's gig. Should I switch to a shallower"
    " mouthpiece just for this?"
)
RACE = "third cx race on sunday, 40 min race starting 9am. what should I eat beforehand?"


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (SOLO, "- Let your passenger run radar and call out the storm's motion.", "your passenger"),
        (SOLO, "- If you can find a passenger, let your passenger run radar.", None),
        (SOLO, "Since your chase partner dropped out, check in with someone at home.", None),
        (SOLO, "Share your location with your partner at home.", None),
        (GIG, "With a month or so to go before the gig, you've time to settle in.", "with a month"),
        (GIG, "I wouldn't, not with less than a week to go.", None),
        (GIG, "If you had a month or so to go, I'd try it.", None),
        (RACE, "Eat about 3 hours before your early afternoon start.", "your early afternoon"),
        (RACE, "Eat about 3 hours before your morning start.", None),
        ("Kick-off is at 7:30pm. What should I eat?", "Eat by 4pm before your evening game.", None),
    ],
)
def test_a_fact_told_back_the_other_way(query: str, answer: str, want: str | None) -> None:
    found = contradicted(query, answer)
    if want is None:
        assert found == []
    else:
        assert found and found[0][0].startswith(want)


BAGELS = (
    "Can I make decent bagels from scratch on Sunday morning if I only have about 2 hours"
    " from start to eating?"
)


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("Shape, cover the tray and refrigerate the bagels overnight before boiling.", True),
        ("Shape and rest 20 minutes or overnight.", False),
        ("Next time, an overnight cold retard improves flavour.", False),
        ("No overnight rest is needed: shape, rest 15 minutes, boil.", False),
        ("Make the dough the night before and leave it overnight in the fridge.", False),
    ],
)
def test_a_step_left_overnight_in_a_short_sitting(answer: str, flagged: bool) -> None:
    assert (over_time(BAGELS, answer) is not None) is flagged


def test_a_step_left_overnight_under_a_daily_limit_is_not_read() -> None:
    query = "I only have 30 minutes a day to cook. Any tips?"
    assert over_time(query, "Marinate the chicken overnight.") is None


GI = "Starting BJJ next month. My budget is around $80 total. What gi should I get?"


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("Skip the budget brands and get a premium gi like a Shoyoroll at around $180-200.", True),
        ("Skip the $180 premium gis and get a basic one.", False),
        ("A $180 Shoyoroll is one to avoid.", False),
        ("Avoid the cheap ones; get a $150 gi.", True),
    ],
)
def test_a_turn_after_steering_away_offers_the_amount(answer: str, flagged: bool) -> None:
    assert (over_budget(GI, answer) is not None) is flagged
