"""fx37: misreadings `gate_holdout37` showed when it was read, each mended as a rule.

1. British and American spellings stem alike, every form of a listed family with its twin
   ("computerised" and "computerized", "colourful" and "colorful", "centred" and
   "centered", "practises" and "practices"), and no other word ("surprise" is no "prize").
2. In answers, a thing "left out" on purpose is set aside: "with Yamaha left out as you
   asked", "Hanon is left out entirely" (not "butter left out to soften", "make sure the
   butter is left out, then cream it", "in most guides Hanon is left out, but ...").
3. (Withdrawn after review: a term of three words met with one inner word left out; "white
   vinegar" is no "white wine vinegar".)
4. What a request rules out: "no alcohol on it" rules out alcohol, "rather not lean on
   plant ID apps" the apps; "we've tried those" names no item.
5. A plan whose length, named outright, is over the time the request says the asker has
   (``scoring.timebox``); the steps' own figures are not summed (withdrawn after review).
"""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.scoring.affirmation import check_exclusions, mentions, stem
from scoregate.scoring.fusion import fuse
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.timebox import over_time, time_limit


def _items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("computerised", "computerized"),
        ("organisation", "organization"),
        ("analyse", "analyze"),
        ("colour", "color"),
        ("flavoured", "flavored"),
        ("favourite", "favorite"),
        ("neighbourhood", "neighborhood"),
        ("centre", "center"),
        ("litres", "liters"),
        ("fibre", "fiber"),
        ("travelled", "traveled"),
        ("labelling", "labeling"),
        ("grey", "gray"),
        ("aluminium", "aluminum"),
        ("coeliac", "celiac"),
        ("defences", "defenses"),
        ("practises", "practices"),
        ("sanitiser", "sanitizer"),
        ("pyjama", "pajamas"),
        ("greyed", "gray"),
        ("catalogued", "catalog"),
        ("centred", "center"),
        ("sanitisers", "sanitizers"),
        ("colourfully", "colorful"),
    ],
)
def test_spellings_stem_alike(british: str, american: str) -> None:
    assert stem(british) == stem(american)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("raise", "rise"),
        ("flour", "floor"),
        ("four", "for"),
        ("timbre", "timber"),
        ("surprise", "prize"),
        ("enterprise", "prize"),
        ("contour", "tours"),
        ("centimetres", "meters"),
        ("offence", "offensive"),
        # a British sense its twin lacks: a tin, a course, not sweet
        ("mould", "mold"),
        ("programme", "program"),
        ("programming", "program"),
        ("savoury", "savory"),
    ],
)
def test_short_and_unrelated_words_keep_their_own(one: str, other: str) -> None:
    assert stem(one) != stem(other)


def test_a_british_request_meets_an_american_answer() -> None:
    check = check_exclusions(
        "A birthday cake for my son please, no artificial colourings.",
        "Tint the icing with artificial colorings for a bright finish.",
    )
    assert check.violated == ["artificial colourings"]


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Good options in that range, with Yamaha left out as you asked:", "Yamaha", False),
        ("Here is a routine with Hanon left out entirely.", "Hanon", False),
        ("The nuts are deliberately left out.", "nuts", False),
        ("Bullet points are left out entirely, as you asked.", "bullet points", False),
        ("Use butter left out to soften for an hour.", "butter", True),
        ("The chicken left out overnight is unsafe to eat.", "chicken", True),
        ("Make sure the butter is left out at room temperature.", "butter", True),
        ("Make sure the butter is left out, then cream it with the sugar.", "butter", True),
        ("With the dough left out, it proofs faster.", "dough", True),
        ("The dough is left out here for 12 hours to ferment.", "dough", True),
        ("In most guides Hanon is left out, but it's the best thing you can do.", "Hanon", True),
        ("The butter is deliberately left out on the counter overnight.", "butter", True),
        ("The cheese is left out completely until serving, then sprinkled over.", "cheese", True),
        (
            "In the original recipe pecans are left out entirely, but I've added them.",
            "pecans",
            True,
        ),
        ("With the steak left out as you wanted, it comes to room temperature.", "steak", True),
        ("The eggs are intentionally left out of the fridge.", "eggs", True),
    ],
)
def test_left_out_is_set_aside(answer: str, term: str, affirmed: bool) -> None:
    assert mentions(answer, term) == (True, affirmed)


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # an inner word is what the thing is: no match without it
        ("No white wine vinegar please, we don't keep it.", "Use white vinegar and sugar."),
        (
            "Budget $450 for my first telescope, anything but a computerized goto mount.",
            "An 8-inch Dobsonian on a manual alt-azimuth mount is the classic first scope.",
        ),
    ],
)
def test_every_word_of_a_term_is_needed(query: str, answer: str) -> None:
    assert check_exclusions(query, answer).violated == []


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "How do I clean my flute? My teacher said absolutely no alcohol on it, not even"
            " those pre-moistened wipes.",
            ["alcohol", "pre-moistened wipes"],
        ),
        (
            "Skimming an old lime-plastered wall: no gypsum products on it at all.",
            ["gypsum products"],
        ),
        (
            "I'd rather not lean on plant ID apps, they've got grasses wrong for me so many"
            " times. How do I learn grasses?",
            ["plant id apps"],
        ),
        (
            "I don't need a chore chart or a cleaning system, we've tried those. How do I talk"
            " to her about her room?",
            ["chore chart", "cleaning system"],
        ),
        (
            "I put up a bird feeder a fortnight ago and not a single bird has come near it."
            " What food should I put out?",
            [],
        ),
    ],
)
def test_what_the_request_rules_out(query: str, items: list[str]) -> None:
    assert _items(query) == items


def test_fuels_and_cleaners_are_no_drink() -> None:
    # "no alcohol" is mostly drinks: a fuel, a cleaner, a vitamin's form are no member
    for answer in (
        "Polish the glasses with a little isopropyl before the alcohol-free toast.",
        "A prenatal with methylated folate and B12 is worth taking.",
        "Keep an ethanol-based hand sanitiser by the mocktail bar.",
    ):
        assert check_members(["alcohol"], answer).violated == []


PIANO = "I only get about 15 minutes a day to practise piano. How should I structure it?"


@pytest.mark.parametrize(
    ("query", "minutes", "recurring"),
    [
        (PIANO, 15, True),
        ("the only time I get is about 10 min in the car on the way", 10, False),
        ("I can only spare 20 minutes a day for German. How should I use them?", 20, True),
        ("I have about an hour on the water after work.", 60, False),
        ("We have 90 minutes and there's a creche. How would you plan the session?", 90, False),
        ("I've got half an hour at lunch. What can I cook?", 30, False),
    ],
)
def test_the_time_a_request_states(query: str, minutes: float, recurring: bool) -> None:
    found = time_limit(query)
    assert found is not None
    assert (found.minutes, found.recurring) == (minutes, recurring)


@pytest.mark.parametrize(
    "query",
    [
        "I have 20 minutes of footage to edit. Which app?",
        "I have 30 minutes left on the meter. Where's good for coffee nearby?",
        "How long should I rest bread dough?",
        "My commute is 40 minutes each way. Any podcast ideas?",
        # a deadline: waiting counts against it, and what waits is not read
        "my 5e session starts in like 20 minutes and I have NOTHING prepped. help??",
        "I have 20 minutes until the guests arrive. Quick dessert?",
        # a weekly total
        "I have about 2 hours a week for Spanish. A plan?",
    ],
)
def test_no_time_stated(query: str) -> None:
    assert time_limit(query) is None


@pytest.mark.parametrize(
    ("query", "answer", "plan"),
    [
        (
            "the only time I get is about 10 min in the car. good vocal warm up?",
            "A proper warm-up makes a difference. Aim for about 30 minutes before you go on.",
            "Aim for about 30 minutes",
        ),
        (
            "I can only spare 20 minutes a day for German. How should I structure them?",
            "- 15 min: vocab\n- 20 min: listening\n- 15 min: grammar\n\nThat's an hour a day,"
            " the sweet spot for A2.",
            "That's an hour",
        ),
        (
            PIANO,
            "Here is a 45-minute daily routine: scales, your piece, then sight-reading.",
            "45-minute daily routine",
        ),
        (
            PIANO,
            "Scales, then your piece, then sight-reading: 40 minutes in total.",
            "40 minutes in total",
        ),
    ],
)
def test_a_plan_over_the_time(query: str, answer: str, plan: str) -> None:
    found = over_time(query, answer)
    assert found is not None and found[0] == plan


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (PIANO, "A 15-minute routine: 5 min scales, 8 min your piece, 2 min for fun."),
        # the steps' own figures are not summed: many are no time spent
        (PIANO, "- 10 min: scales\n- 20 min: your piece\n- 10 min: sight-reading"),
        (
            "I only have 20 minutes a day for yoga right now.",
            "Breath, sun salutations, standing poses. When things calm down you can grow this"
            " into a 45-minute session.",
        ),
        (
            "I only get about 30 minutes a day for the cello.",
            "Use your weekly 60-minute lesson to ask about the bow hold.",
        ),
        (
            "I have 15 minutes each way on the bus. How can I use it for German?",
            "- On the way in: Anki\n- On the way home: a podcast\n\nThat's 30 minutes of"
            " German a day.",
        ),
        (
            "I only get about 20 minutes a day to practise.",
            "If you ever have longer, aim for about 45 minutes at the weekend.",
        ),
    ],
)
def test_a_plan_within_the_time(query: str, answer: str) -> None:
    assert over_time(query, answer) is None


CFG = load_scoring_config()
OVER = "Scales, your piece, sight-reading and a piece for fun: aim for about 45 minutes."


def _fused(content: str, cfg: ScoringConfig = CFG) -> ScoreResult:
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.9),
        "precision": TrackScore(name="precision", score=0.99),
    }
    return fuse(ScoreRequest(query=PIANO, content=content), tracks, cfg)


def test_fusion_caps_a_plan_over_the_time_at_review() -> None:
    over = _fused(OVER)
    assert over.score == CFG.fusion.missed_ask_cap < CFG.actions.accept
    assert over.action == "review"
    assert any(
        "the answer says 'aim for about 45 minutes', more time than the request gives ('I only"
        " get about 15 minutes a day')" in r
        for r in over.reasons
    )
    assert _fused("Scales, then your piece: aim for about 15 minutes.").action == "accept"


def test_the_time_check_is_off_with_one_key() -> None:
    off = CFG.model_copy(update={"fusion": CFG.fusion.model_copy(update={"time_check": False})})
    assert _fused(OVER, off).action == "accept"
