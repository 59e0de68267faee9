"""Misreadings found on the sweep's held-back requests (eleventh session): short answers the
relevance gate rejected, counts of a part read as counts of the whole answer, equations
read as Spanish, and exclusion items that were no things."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.scoring.language import foreign_language
from scoregate.scoring.phrasing import short_answer_asked
from scoregate.scoring.request_analysis import analyze

CFG = load_scoring_config()


@pytest.mark.parametrize(
    "query",
    [
        "Suggest a name for my D&D tavern. Just the name, in quotes.",
        "Three words to describe the film Parasite. Just the three words.",
        "6-word story about moving to a new city",
        "Name one fast-growing climbing plant for a fence. One word answer.",
        "Reply with just a number: how many legs does a spider have?",
    ],
)
def test_requests_for_a_short_answer(query: str) -> None:
    assert short_answer_asked(query) is not None


@pytest.mark.parametrize(
    "query",
    [
        "How do I fix a leaking tap?",
        "Can you name the main causes of the French revolution and explain each?",
        "I need a name for the function that parses dates, and an explanation of why",
        "Write a 500-word essay on tides",
        "My name is Sam and I need help with my CV",
    ],
)
def test_requests_that_do_not_ask_for_a_short_answer(query: str) -> None:
    assert short_answer_asked(query) is None


def _fused(query: str, content: str, semantic: float, precision: float):
    tracks = {
        "semantic": TrackScore(name="semantic", score=semantic),
        "precision": TrackScore(name="precision", score=precision),
    }
    return fuse(ScoreRequest(query=query, content=content), tracks, CFG)


def test_a_short_answer_to_a_request_for_one_is_reviewed_not_rejected() -> None:
    query = "Suggest a name for my knitting blog. Just one name, nothing else."
    got = _fused(query, "Purls of Wisdom", semantic=0.0, precision=0.95)
    assert got.action == "review"
    assert got.score == pytest.approx(CFG.fusion.missed_ask_cap)
    assert "request asks for a short answer" in got.reasons[0]
    # never accepted on the cross-encoder alone: relevance is unverified
    assert _fused(query, "Purls of Wisdom", semantic=0.2, precision=1.0).action == "review"
    # the cross-encoder still decides below the cap
    assert _fused(query, "Paris", semantic=0.0, precision=0.2).action == "reject"


def test_the_gate_still_rejects_off_topic_answers_elsewhere() -> None:
    # a long off-topic answer to the same request, and a short one to an open question
    long = "To unclog a drain, pour boiling water, then baking soda and vinegar, and wait."
    query = "Suggest a name for my knitting blog. Just one name, nothing else."
    assert _fused(query, long, semantic=0.0, precision=0.95).action == "reject"
    assert _fused("How do I fix a leaking tap?", "Purls", semantic=0.0, precision=0.95).action == (
        "reject"
    )


def test_the_short_answer_exemption_can_be_switched_off() -> None:
    cfg = CFG.model_copy(update={"fusion": CFG.fusion.model_copy(update={"short_answer_words": 0})})
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.0),
        "precision": TrackScore(name="precision", score=0.95),
    }
    query = "Name one fast-growing climbing plant for a fence. One word answer."
    got = fuse(ScoreRequest(query=query, content="Jasmine"), tracks, cfg)
    assert got.action == "reject"


def _counts(query: str) -> list[tuple[str, str, int]]:
    return [
        (i.unit or "", i.relation or "", int(i.value or 0))
        for i in analyze(query).instructions
        if i.check == "count"
    ]


@pytest.mark.parametrize(
    "query",
    [
        "Difference between weather and climate? Answer in exactly this format:\n"
        "Weather: <one sentence>\nClimate: <one sentence>",
        "one-sentence elevator pitch for a dog-walking app, then on a new line a 3-word slogan",
        "Describe your product in one sentence, then list 3 features.",
        "Give me a 3-day Rome itinerary. Use headings Day 1, Day 2, Day 3 and no more than 3"
        " bullets under each.",
        "Work out the open rate from these numbers. Then tell me in one sentence why it fell.",
    ],
)
def test_a_count_of_a_part_is_not_a_count_of_the_whole_answer(query: str) -> None:
    # a limit on every part (bullets per section) may be read; no count of the whole answer
    per_part = {"item_words", "item_sentences", "section_items"}
    assert [c for c in _counts(query) if c[0] not in per_part] == []


@pytest.mark.parametrize(
    ("query", "count"),
    [
        (
            "3 reasons to visit Kyoto in autumn. One sentence each, each in its own paragraph.",
            ("item_sentences", "exactly", 1),
        ),
        (
            "Answer these two questions, as two numbered answers of one sentence each.",
            ("item_sentences", "exactly", 1),
        ),
        ("Give me 4 tips, two sentences each.", ("item_sentences", "exactly", 2)),
    ],
)
def test_a_count_of_each_item_is_checked_item_by_item(
    query: str, count: tuple[str, str, int]
) -> None:
    assert count in _counts(query)
    assert all(unit != "sentences" for unit, _, _ in _counts(query))


def _check(query: str, content: str) -> tuple[float | None, list[str]]:
    from scoregate.scoring.engine import pure_tracks

    reward = pure_tracks(ScoreRequest(query=query, content=content), CFG).get("reward")
    assert reward is not None
    return reward.score, reward.reasons


def test_sentences_per_item_are_counted_in_items_paragraphs_or_lines() -> None:
    query = "3 reasons to visit Kyoto in autumn. One sentence each, each in its own paragraph."
    paragraphs = "Reason 1: The maples turn red.\n\nReason 2: The air is crisp.\n\nReason 3: Food."
    assert _check(query, paragraphs)[0] == 1.0
    bullets = "- The maples turn red. They peak in late November.\n- The air is crisp.\n- Food."
    score, reasons = _check(query, bullets)
    assert score == 0.5  # three reasons, as the request opens with; not one sentence each
    assert any("item 1 has 2 sentences" in r for r in reasons)
    lines = "1. Yes, flood damage is covered.\n2. The excess is £450."
    numbered = "Answer these two questions, as two numbered answers of one sentence each."
    assert _check(numbered, lines)[0] == 1.0


def test_counts_of_the_whole_answer_are_still_read() -> None:
    assert _counts("Explain recursion in one sentence.") == [("sentences", "exactly", 1)]
    assert _counts("Give me 3 tips, no more than 3 bullets.") == [("bullets", "at_most", 3)]
    assert _counts("Summarise this in a couple of sentences: rain, then sun.") == [
        ("sentences", "at_most", 3)
    ]


def test_an_equation_is_not_spanish() -> None:
    solution = (
        "From x − y = 1: x = y + 1.\nSubstitute: 2(y + 1) + 3y = 12 → 5y + 2 = 12 → y = 2.\n"
        "Then x = 2 + 1 = 3.\n\n**(3, 2)**"
    )
    assert foreign_language(solution) is None
    spanish = (
        "Para resolver el sistema, despejamos x de la segunda ecuación: x = y + 1. Luego"
        " sustituimos en la primera y obtenemos que y = 2, por lo que x = 3."
    )
    assert foreign_language(spanish) == "es"


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        (
            "I'm against punishing her: no spray bottles, no shouting, nothing like that."
            " How do we get her to scratch something else?",
            ["spray bottles", "shouting"],
        ),
        (
            "I'm honestly not a fan of fondant, hate the taste and it tears. What instead?",
            ["fondant"],
        ),
        ("I hate the taste of coriander, any salsa ideas?", ["coriander"]),
    ],
)
def test_exclusion_items_are_things(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


def test_an_answer_nothing_could_read_goes_to_a_person() -> None:
    """An answer in a language the models do not read, with no constraint to check, is
    unverified, not wrong: review, never a reject."""
    r = fuse(
        ScoreRequest(
            query="簡単なパスタのレシピを教えてください。",
            content="スパゲッティを茹でて、トマトとオリーブオイルを加えます。",
        ),
        {
            "semantic": TrackScore(name="semantic", score=0.1),
            "precision": TrackScore(name="precision", score=0.1),
        },
        CFG,
    )
    assert r.action == "review" and r.score == CFG.actions.review
    assert any("a person should read it" in x for x in r.reasons)


def test_an_unread_answer_that_meets_its_constraints_scores_below_the_accept_cut() -> None:
    """Only its form was judged: review, and a score a client gating on it cannot accept."""
    r = fuse(
        ScoreRequest(
            query="Explique la photosynthèse et mentionne la chlorophylle.",
            content=(
                "La photosynthèse permet aux plantes de transformer la lumière en énergie"
                " chimique grâce à la chlorophylle, qui capte la lumière du soleil."
            ),
            constraints=[{"kind": "contains", "value": "chlorophylle"}],
        ),
        {
            "semantic": TrackScore(name="semantic", score=0.9),
            "precision": TrackScore(name="precision", score=0.9),
            "reward": TrackScore(name="reward", score=1.0),
        },
        CFG,
    )
    assert r.action == "review" and r.band == "AMBER"
    assert r.score < CFG.actions.accept
