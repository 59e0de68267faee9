"""Questions whose answer has a recognisable form, answers that give none of it, and facts
of the request restated the other way round."""

from __future__ import annotations

import signal

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.answer_types import expected_answers, gives, missing_answers
from scoregate.scoring.fusion import fuse
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted

CFG = load_scoring_config()


def kinds(query: str) -> list[str]:
    return [e.kind for e in analyze(query).expects]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("How long and at what temp do I roast a 4 lb whole chicken?", ["duration", "temperature"]),
        (
            "How often should I feed my 10 week old puppy and how much each time?",
            ["frequency", "amount"],
        ),
        ("how much protein is in a cup of cooked lentils?", ["amount"]),
        ("How much sleep does a 9 year old actually need?", ["duration"]),
        ("Window or portable AC, and roughly how many BTUs for 150 sq ft?", ["count"]),
        ("what age do most kids get their first phone?", ["age"]),
        ("tell me how long cooked rice keeps in the fridge", ["duration"]),
        # side remarks, questions about a method or a cause, other kinds of "how much"
        ("No idea how many people are coming, but write an invitation for Saturday.", []),
        ("How can I tell how much memory my Python process is using?", []),
        ("Can you show me how to work out how much tax I owe?", []),
        ("What determines how long a phone battery lasts?", []),
        ("How much does RAM speed affect gaming performance?", []),
        ("How much difference does a good mattress make?", []),
        ("What time complexity does this function have?", []),
        ("What time of year is best to visit Japan?", []),
        ("How much longer should I cook the turkey?", ["duration"]),
        ("Is 'how much' or 'how many' right with 'people'?", []),  # the words, not a question
        ("How far is the airport from the old town?", ["distance"]),
        ("What time should I leave for a 9am flight?", ["clock_time"]),
        ("When should I plant garlic, and how deep?", ["size"]),
        ("How tall does a deck railing need to be?", ["size"]),
        ("How deep should I go into the theory before coding?", []),
        ("How wide a gap should I leave between tiles?", ["size"]),
        # statements and questions about a method, not about a figure
        ("How do I see how much storage is left on my Mac?", []),
        ("How much does it matter which flour I use?", []),
        ("How much taller is he than me?", []),
        ("How far into the series should I read?", []),
        ("I've had this sofa for ages, no matter how long I clean it it smells.", []),
        ("Write me a cover letter. It took me how long to find this job!", []),
        ("Give me a packing list for a week in Lisbon.", []),
    ],
)
def test_the_analysis_lists_what_each_question_expects(query, expected):
    assert kinds(query) == expected


def test_only_the_askers_own_questions_are_read():
    assert kinds("Summarise this note for my team. Note: the outage took how long.") == []
    # questions in text to translate, proofread or answer on someone's behalf
    assert kinds("Translate to Spanish: How much does the ticket cost?") == []
    assert kinds("Draft a reply. She wrote: 'How long will my refund take?'") == []
    assert kinds("Write an email to my landlord asking how long the repairs will take.") == []


@pytest.mark.parametrize(
    ("kind", "answer", "given"),
    [
        ("duration", "Boil them for 9-10 minutes.", True),
        ("duration", "Simmer until the lentils are soft.", True),
        ("duration", "About 1,200 pages unabridged.", True),
        ("duration", "Salt it well and roast it breast side up.", False),
        ("size", "Plant the cloves about 2 inches deep, pointy end up.", True),
        ("frequency", "No fixed interval, but most chains last 2,000-5,000 km.", True),
        ("frequency", "Measure it with a chain checker tool.", False),
        ("frequency", "The last step is to wipe it dry.", False),
        ("size", "Roast the chestnuts and kneel to check them.", False),
        ("size", "Set them twice as deep as the clove is tall.", True),
        ("size", "Plant them in autumn, a few weeks before the ground freezes.", False),
        ("amount", "About 18 g of protein per cup.", True),
        ("amount", "Tip 15-20% for table service.", True),
        ("amount", "It costs $98 a month.", True),
        ("amount", "The bulb draws 5 A at 12 V.", True),
        ("amount", "Season to taste.", True),
        ("amount", "Feed her four small meals spread through the day, around 7am.", False),
        ("frequency", "Twice a week in summer.", True),
        ("frequency", "Every 6-12 months.", True),
        ("frequency", "Use a cat-specific shampoo and lukewarm water.", False),
        ("temperature", "Roast at 220°C.", True),
        ("temperature", "Cook over medium-high heat.", True),
        ("temperature", "Pat the skin dry first.", False),
        ("count", "Three should do.", True),
        ("count", "Pick the window unit: it is quieter.", False),
        ("distance", "It's a 20-minute walk.", True),
        ("age", "Most get one at 11 or 12.", True),
        ("clock_time", "Leave by 6:30.", True),
        ("clock_time", "Aim to arrive three hours before departure.", True),
        ("clock_time", "Plant garlic in the fall.", True),
        # units, currencies, shares and number words that a first version missed
        ("amount", "About 2 gallons.", True),
        ("amount", "25 Mbps is plenty for streaming.", True),
        ("amount", "Roughly 1,000 yen a night at a hostel.", True),
        ("amount", "Between ten and twenty thousand dollars, depending on the car.", True),
        ("amount", "About a third of your gross income.", True),
        ("amount", "Three to six months of essential expenses is the usual target.", True),
        ("duration", "At least 12 characters, ideally a passphrase.", True),
        ("duration", "You don't need to wait at all before swimming.", True),
        ("distance", "About 93 million miles on average.", True),
        ("distance", "They are roughly fifty kilometres apart.", True),
        ("count", "Sixteen.", True),
        ("temperature", "Expect highs in the mid-40s most days.", True),
        ("frequency", "When the top two inches of soil feel dry.", True),
    ],
)
def test_an_answer_gives_a_kind_on_any_expression_of_it(kind, answer, given):
    assert gives(kind, answer) is given


def test_a_bare_figure_answers_any_question_for_a_figure():
    expects = expected_answers("Rent is $1,500 split three ways. How much do I pay?")
    assert missing_answers(expects, "500") == []
    assert missing_answers(expects, "") == []  # empty answers are judged elsewhere


def _fused(query: str, content: str, cfg=CFG):
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.9),
        "precision": TrackScore(name="precision", score=0.99),
    }
    return fuse(ScoreRequest(query=query, content=content), tracks, cfg)


def test_an_answer_that_leaves_a_figure_out_is_capped_below_accept_with_the_question_named():
    query = "What temp and how long for a whole 1.8kg chicken?"
    r = _fused(query, "Roast it at 200°C, breast side up, and baste it now and then.")
    assert r.score == CFG.fusion.missed_ask_cap < CFG.actions.accept
    assert r.action == "review"
    assert any("'how long'" in x and "a duration" in x for x in r.reasons)
    whole = _fused(query, "Roast it at 200°C for about 80 minutes, then rest it 15 minutes.")
    assert whole.score > CFG.fusion.missed_ask_cap
    assert whole.action == "accept"


def test_the_answer_type_check_is_off_with_one_key():
    off = CFG.model_copy(
        update={"fusion": CFG.fusion.model_copy(update={"answer_type_check": False})}
    )
    assert _fused("How long do I boil an egg?", "Start it in cold water.").score == (
        CFG.fusion.missed_ask_cap
    )
    r = _fused("How long do I boil an egg?", "Start it in cold water.", off)
    assert r.score > CFG.fusion.missed_ask_cap


def test_an_answer_in_another_language_is_not_read_for_figures():
    r = _fused(
        "Answer in Spanish please: how often should I feed my adult cat?",
        "Un gato adulto suele comer dos veces al día, por la mañana y por la noche.",
    )
    assert not any("asks 'how often'" in x for x in r.reasons)


def test_the_breakdown_lists_the_expectations():
    a = analyze("How long do I rest a steak?").to_dict()
    assert a["expects"] == [{"phrase": "How long", "kind": "duration"}]


# --- facts of the request restated the other way round ------------------------------------


@pytest.mark.parametrize(
    ("query", "answer", "found"),
    [
        (
            "I'm in zone 4 with hard winters and I want a fig tree. Any chance?",
            "Absolutely: with your mild winters a fig will grow happily in the ground.",
            [("mild winters", "hard winters")],
        ),
        (
            "Costa Rica in September, I know it's the rainy season. Tips?",
            "September is the heart of the dry season, so expect sunny days.",
            [("dry season", "rainy season")],
        ),
        (
            "I'm pregnant (second trimester). What exercise is okay?",
            "Since you're not pregnant, go for kickboxing.",
            [("you're not pregnant", "i'm pregnant")],
        ),
        # the request offers both; the answer repeats the request's own words; an activity
        ("Do I start eggs in cold or hot water?", "Start them in cold water.", []),
        ("Tips for hard winters vs mild winters?", "In mild winters, mulch.", []),
        ("I'm looking for a quiet hotel.", "You're not looking in the right area.", []),
        ("Low heat or not, the sauce splits.", "Keep it on low heat; high heat splits it.", []),
    ],
)
def test_facts_restated_the_other_way_round(query, answer, found):
    assert contradicted(query, answer) == found


def test_an_answer_on_a_wrong_premise_is_capped_below_accept_with_both_words_named():
    query = "I'm in zone 4 with hard winters and I want a fig tree. Any chance?"
    r = _fused(query, "Yes! With your mild winters any fig grows outdoors, no protection needed.")
    assert r.score == CFG.fusion.missed_ask_cap < CFG.actions.accept
    assert any("'mild winters'" in x and "'hard winters'" in x for x in r.reasons)
    off = CFG.model_copy(
        update={"fusion": CFG.fusion.model_copy(update={"restated_fact_check": False})}
    )
    assert _fused(query, "Yes! With your mild winters any fig grows.", off).action == "accept"


def _too_slow(signum, frame):
    raise TimeoutError("the evidence search backtracks on a run of digits")


@pytest.mark.parametrize("kind", ["duration", "amount", "count", "frequency", "distance"])
def test_a_long_run_of_digits_is_read_in_one_pass(kind):
    # quadratic backtracking took 20 s here on 50,000 digits (minutes for worse ones); a
    # linear search takes milliseconds, so 10 s only fails a search that backtracks
    answer = "The first digits of pi: 3." + "1415926535" * 5000 + " and so on."
    previous = signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(10)
    try:
        gives(kind, answer)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_short_answer_s_figure_of_another_kind_gives_no_duration():
    assert gives("duration", "Roast it at 220°C.") is False
    assert gives("temperature", "Roast it at 220°C.") is True
    assert gives("amount", "500") is True  # a bare figure still answers "how much"
    r = _fused("How long and at what temp?", "Roast it at 220°C.")
    assert r.score == CFG.fusion.missed_ask_cap
    assert any("'How long' (a duration)" in x for x in r.reasons)


def test_the_evidence_is_named_even_when_the_score_is_already_below_its_cap():
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.9),
        "precision": TrackScore(name="precision", score=0.3),
    }
    query = "I'm in zone 4 with hard winters. Can I grow a fig outside?"
    r = fuse(ScoreRequest(query=query, content="With your mild winters, yes."), tracks, CFG)
    assert r.score < CFG.fusion.missed_ask_cap
    assert any("'mild winters'" in x and "'hard winters'" in x for x in r.reasons)
    assert not any(x.startswith("score capped") for x in r.reasons)
