"""The twenty-third session's gate review, mended: what a new user scoring their own
requests found wrong in the decisions' reasons."""

from __future__ import annotations

import pytest

from tests.unit.test_review22_gate import CFG, _fused

EGG = "How long should I boil an egg for a soft yolk?"


@pytest.mark.parametrize(
    ("query", "content", "gives"),
    [
        (EGG, "6 minutes", "a duration"),
        (EGG, "About 6 minutes.", "a duration"),
        ("What temperature should I roast a chicken at?", "220°C (425°F).", "a temperature"),
        ("how often should I water a snake plant", "Every 2-3 weeks.", "how often"),
    ],
)
def test_a_short_answer_that_gives_the_form_asked_is_not_held_to_its_relevance(
    query, content, gives
):
    r = _fused(query, content, relevance=0.10)
    assert r.action == "review" and r.score == CFG.fusion.missed_ask_cap
    [reason] = [x for x in r.reasons if "not held against" in x]
    assert f"answer that gives {gives}" in reason and "review at most" in reason
    assert not any("another request" in x for x in r.reasons), r.reasons


@pytest.mark.parametrize(
    ("query", "content"),
    [
        (EGG, "Use eggs at room temperature."),  # no duration: the form is not given
        (EGG, "Boil them for about 6 minutes, then cool them in iced water to stop them."),
        ("Why does bread go stale so fast?", "Six minutes."),  # no form expected
        (
            "My laptop runs Ubuntu. How do I check how much disk space is free?",
            "Run `df -h` in a terminal.",  # 'how much' about a degree: no form expected
        ),
    ],
)
def test_other_answers_are_still_held_to_their_relevance(query, content):
    r = _fused(query, content, relevance=0.10)
    assert not any("not held against" in x for x in r.reasons), r.reasons
    assert r.action == "reject"


def test_the_check_goes_off_with_the_answer_type_check():
    cfg = CFG.model_copy(
        update={"fusion": CFG.fusion.model_copy(update={"answer_type_check": False})}
    )
    r = _fused(EGG, "6 minutes", relevance=0.10, cfg=cfg)
    assert r.action == "reject" and not any("not held against" in x for x in r.reasons)


def test_a_relevance_factor_that_reads_x1_00_gives_no_reason():
    f = CFG.fusion
    span = f.relevance_full - f.relevance_floor
    query = "Write a haiku about autumn, all in lowercase letters."
    haiku = "crimson leaves drifting\noctober wind hums softly\nthe old maple sighs"
    near = _fused(query, haiku, relevance=f.relevance_full - 0.001 * span)
    assert not any("little in common" in x for x in near.reasons), near.reasons
    far = _fused(query, haiku, relevance=f.relevance_full - 0.2 * span)
    assert any("little in common" in x and "x0.80" in x for x in far.reasons), far.reasons
    assert near.score > far.score


@pytest.mark.parametrize(
    "query",
    [
        "WRITE A SHORT SLOGAN FOR A GYM, IN ALL CAPITAL LETTERS.",
        "Write a template cover letter with at least 3 placeholders in square brackets.",
    ],
)
def test_a_made_thing_is_not_told_to_name_what_the_request_asks_about(query):
    f = CFG.fusion
    r = _fused(query, "STRONGER EVERY SINGLE DAY.", relevance=f.relevance_floor + 0.1)
    [reason] = [x for x in r.reasons if "little in common" in x]
    assert "in its own words" in reason and "name what the request asks about" not in reason


def test_a_question_is_still_told_to_name_what_it_asks_about():
    f = CFG.fusion
    r = _fused(
        "Why does my sourdough starter smell like nail polish remover?",
        "Our office moves to the new building on Monday; bring your badge and a coffee mug.",
        relevance=f.relevance_floor + 0.1,
    )
    assert any("name what the request asks about" in x for x in r.reasons), r.reasons


MOUNTAIN = "Responde en español: ¿cuál es la montaña más alta del mundo?"


@pytest.mark.parametrize(
    "query",
    [MOUNTAIN, "¿Cuál es la montaña más alta del mundo?"],  # read as asking for Spanish
)
def test_a_request_in_its_own_language_answered_in_english_is_not_called_off_topic(query):
    r = _fused(query, "The highest mountain in the world is Everest, at 8,849 metres.", 0.05)
    assert not any("off topic" in x for x in r.reasons), r.reasons
    assert any("the request is in Spanish and the answer is not" in x for x in r.reasons)
    assert r.score <= CFG.fusion.missed_ask_cap and r.action != "accept"


@pytest.mark.parametrize(
    ("query", "content"),
    [
        # written in English, asking for Spanish: the cosine still reads the request
        ("Answer in Spanish: what is the tallest mountain?", "Our office moves on Monday."),
        # written in English with no language asked: gated as every English request is
        ("What is the tallest mountain?", "Our office moves on Monday."),
    ],
)
def test_other_requests_are_still_gated_on_relevance(query, content):
    r = _fused(query, content, 0.05)
    assert any("off topic" in x for x in r.reasons), r.reasons
