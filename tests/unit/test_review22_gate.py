"""The twenty-second session's gate review, mended: what a new user scoring their own
requests found wrong in the decisions' reasons and the agent's feedback."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.affirmation import check_exclusions, mentions
from scoregate.scoring.figures import score_text
from scoregate.scoring.fusion import fuse
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted

CFG = load_scoring_config()


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "I have a bad knee. Suggest a 20-minute cardio workout that doesn't involve"
            " running or jumping.",
            ["running", "jumping"],
        ),
        ("A birthday cake recipe which won't need any eggs, please.", ["eggs"]),
        ("Any remote jobs that don't require a degree?", ["degree"]),
    ],
)
def test_what_a_relative_clause_says_the_thing_must_not_involve_is_excluded(query, items):
    assert analyze(query).excluded == items


def test_a_fact_stated_with_doesnt_is_not_an_exclusion():
    """ "my laptop doesn't turn on" states a fault, not a thing to leave out."""
    assert analyze("My laptop doesn't turn on after the update. What should I try?").excluded == []


PEANUTS = "Give me a quick weeknight stir-fry recipe without peanuts - my son is allergic."


@pytest.mark.parametrize(
    "answer",
    [
        "Chicken and broccoli stir-fry: toss with soy sauce and honey and serve over rice."
        " Check any bottled sauces for peanuts.",
        "Chicken stir-fry with rice. Check your oil and any bottled sauces for peanuts.",
        "Chicken stir-fry with rice. Watch out for peanuts in bottled sauces.",
        "Chicken stir-fry with rice. Be careful with store-bought satay, which is peanut-based.",
    ],
)
def test_telling_the_reader_to_look_out_for_the_item_is_no_use_of_it(answer):
    assert check_exclusions(PEANUTS, answer).violated == []


@pytest.mark.parametrize(
    "answer",
    [
        "Check the oven and add peanuts for crunch.",
        "Check the rice for doneness, then add the peanuts.",
        "Top with crushed peanuts. Check the seasoning for salt.",
    ],
)
def test_a_use_beside_a_check_still_counts(answer):
    assert check_exclusions(PEANUTS, answer).violated == ["peanuts"]


def test_an_answer_that_turns_the_requests_fact_round_is_not_said_to_rule_the_item_out():
    """ "rules out penicillin, as the request asks" beside "the answer says 'you're not
    allergic' where the request says 'i'm allergic'" says both that it complies and that
    it contradicts."""
    query = "I'm allergic to penicillin. What should I ask my doctor about antibiotics?"
    content = "Since you're not allergic to penicillin, ask whether amoxicillin is right for you."
    request = ScoreRequest.model_validate({"query": query, "content": content})
    precision = TrackScore(
        name="precision",
        score=0.6,
        reasons=[
            "answer fits the request 0.60 (cross-encoder)",
            "rules out penicillin, as the request asks",
        ],
    )
    result = fuse(
        request, {"precision": precision, "semantic": TrackScore(name="semantic", score=0.9)}, CFG
    )
    assert any("where the request says" in r for r in result.reasons), result.reasons
    assert not any(r.startswith("rules out") for r in result.reasons), result.reasons
    kept = fuse(
        ScoreRequest.model_validate({"query": query, "content": "Ask about azithromycin."}),
        {"precision": precision, "semantic": TrackScore(name="semantic", score=0.9)},
        CFG,
    )
    assert "rules out penicillin, as the request asks" in kept.reasons


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.9779, "0.97"), (0.98, "0.98"), (0.9999, "0.99"), (0.5, "0.50"), (1.0, "1.00")],
)
def test_a_score_is_cut_to_two_places_for_a_person(value, text):
    assert score_text(value) == text


def test_the_loops_reason_never_reads_a_cut_as_passed_and_failed():
    """ "score 0.98 < accept cut 0.98" for 0.9779."""
    from scoregate.pipelines.loop import decide
    from scoregate.schemas.loop import LoopPolicy

    request = ScoreRequest.model_validate({"query": "How do I boil an egg?", "content": "x"})
    result = fuse(request, {"precision": TrackScore(name="precision", score=0.9779)}, CFG)
    assert result.action != "accept"
    policy = LoopPolicy(enabled=True, max_iterations=3)
    decision = decide(policy, 1, result, has_agent=True, has_research=False)
    assert "score 0.97 < accept cut 0.98" in decision.rationale


THREE = "Give me exactly 3 bullet points on why unit tests matter."
TERSE = (
    "- Catch regressions before users do.\n- Document intended behaviour.\n- Make refactoring safe."
)


def _fused(query: str, content: str, relevance: float, cfg=CFG):
    request = ScoreRequest.model_validate({"query": query, "content": content})
    tracks = {
        "semantic": TrackScore(name="semantic", score=relevance),
        "precision": TrackScore(name="precision", score=0.93),
    }
    return fuse(request, tracks, cfg)


def test_a_list_of_the_asked_count_of_short_items_is_not_held_to_its_relevance():
    r = _fused(THREE, TERSE, relevance=0.18)
    assert r.action == "review" and r.score == CFG.fusion.missed_ask_cap
    assert any("not held against a list of 3 short items" in x for x in r.reasons), r.reasons
    assert not any("little in common" in x for x in r.reasons)


@pytest.mark.parametrize(
    "content",
    [
        "- Catch regressions.\n- Document behaviour.",  # 2 items where 3 are asked
        "Unit tests catch regressions. They document behaviour. They make refactoring safe.",
        "- Preheat the oven to 200C.\n- Salt the potatoes.\n- Roast them for 40 minutes.\n- Serve.",
    ],
)
def test_other_answers_are_still_held_to_their_relevance(content):
    r = _fused(THREE, content, relevance=0.18)
    assert r.action == "reject" and any("little in common" in x for x in r.reasons), r.reasons


def test_a_list_at_or_below_the_relevance_floor_is_still_off_topic():
    r = _fused(THREE, TERSE, relevance=CFG.fusion.relevance_floor)
    assert r.action == "reject" and any("off topic" in x for x in r.reasons), r.reasons


def test_zero_turns_it_off():
    off = CFG.model_copy(update={"fusion": CFG.fusion.model_copy(update={"short_item_words": 0})})
    r = _fused(THREE, TERSE, relevance=0.18, cfg=off)
    assert r.action == "reject"


@pytest.mark.parametrize(
    ("query", "answer", "said"),
    [
        (
            "I'm pregnant. How much water should I drink per day?",
            "About 8 cups. Since you're not expecting, there's no need to go beyond that.",
            "you're not expecting",
        ),
        (
            "I'm 68 and retired. Should I buy stocks or bonds?",
            "Since you're still working and years from retirement, stocks make sense.",
            "you're still working",
        ),
        (
            "My laptop runs Ubuntu 22.04. How do I check how much disk space is left?",
            "Since you're on Windows, open File Explorer and click This PC.",
            "since you're on windows",
        ),
    ],
)
def test_a_fact_of_the_request_turned_round_in_other_words(query, answer, said):
    assert [s for s, _ in contradicted(query, answer)] == [said]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("My laptop runs Ubuntu. How do I check disk space?", "Open a terminal and run df -h."),
        (
            "I'm moving from Windows to Ubuntu. Disk space?",
            "Since you're on Windows, open Explorer.",
        ),
        (
            "My laptop runs Ubuntu. How do I check disk space?",
            "Since you're on Ubuntu, run df -h; on Windows you'd open Explorer instead.",
        ),
        ("My Mac won't sync my iPhone photos.", "Since you have an iPhone, open Settings."),
        ("I'm 68 and retired. Stocks or bonds?", "At 68 and retired, a bond-heavy mix is usual."),
    ],
)
def test_what_is_not_a_fact_turned_round(query, answer):
    assert contradicted(query, answer) == []


@pytest.mark.parametrize(
    ("text", "term", "affirmed"),
    [
        ("Your 401k and IRA stay untouched, so your savings keep compounding.", "ira", False),
        ("Your 401k and IRA stay untouched, so your savings keep compounding.", "401k", False),
        ("Withdraw from your IRA first; the rest stays untouched.", "ira", True),
    ],
)
def test_untouched_rules_out_the_items_before_it(text, term, affirmed):
    """ "...that don't involve touching my retirement accounts" answered "your 401(k) and
    IRA stay untouched" keeps the exclusion; a withdrawal before it does not."""
    assert mentions(text.lower(), term)[1] is affirmed
