"""An answer that spends more than the budget the request states (``scoring.budget``), and
how fusion caps it."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.scoring.budget import ceiling, over_budget
from scoregate.scoring.fusion import fuse
from scoregate.scoring.request_analysis import analyze


@pytest.mark.parametrize(
    ("query", "value", "period"),
    [
        ("My budget for a robot vacuum is $250, max. What should I get?", 250, None),
        ("Setting up a home office, budget is $800 total, absolutely no more.", 800, None),
        ("Hard limit of $10/month total for this. What do you recommend?", 10, "month"),
        ("I can only afford £40 a session, absolute max.", 40, "session"),
        ("DJ gear for a beginner? Budget is roughly $600–800.", 800, None),
        ("need new ski boots. $400 absolute max, wide feet", 400, None),
        ("anniversary at home, budget is $50 tops", 50, None),
        ("A laptop for uni, no more than €1.2k please", 1200, None),
        ("3 paperbacks under £15 each if poss", 15, "each"),
    ],
)
def test_the_budget_a_request_states(query: str, value: float, period: str | None) -> None:
    cap = ceiling(query)
    assert cap is not None and (cap.value, cap.period) == (value, period)


@pytest.mark.parametrize(
    "query",
    [
        "What does a robot vacuum cost these days?",
        "I paid $300 for my last vacuum and it broke. What should I get?",
        'Summarise this for me: "The ministry announced a budget of £290 million for roads '
        'and rail across the north of England over the next five years, the minister said."',
    ],
)
def test_no_budget(query: str) -> None:
    assert ceiling(query) is None


QUERY = "Robot vacuum for mostly hard floors and two rugs. My budget is $250, max."


@pytest.mark.parametrize(
    "answer",
    [
        "Get the Roborock Q5 ($299): it maps well and handles rugs.",
        "The best pick is the Roomba j7 at $399-449 depending on the sale.",
        "Honestly, spend $300 and you get mapping.",
        # past a firm budget ("max"), a stretch is still a suggestion to spend more
        "If you can stretch to $300, the Q7 adds mopping.",
    ],
)
def test_an_amount_over_the_budget(answer: str) -> None:
    found = over_budget(QUERY, answer)
    assert found is not None and found[1] == "budget is $250"


@pytest.mark.parametrize(
    "answer",
    [
        "The Eufy 11S ($199) is quiet and fits your budget.",
        "The Roborock S8 ($499) is over your budget, so look at the Q5 at $229 instead.",
        "The Q5 (list $329, often on sale at $229) is the one to watch.",
        "Buying the $229 Q5 instead of the $499 S8 saves you a lot.",
        "Two spare brushes and filters keep the total under $260 over a year.",
        "The Q5 costs £299 in the UK, about $229 in the US.",
        "Budget for a $5/month filter subscription.",
    ],
)
def test_no_suggestion_to_spend_more(answer: str) -> None:
    assert over_budget(QUERY, answer) is None


def test_a_monthly_cap_is_compared_with_monthly_amounts_only() -> None:
    query = "Password manager for 4 people. Hard limit of $10/month total."
    assert over_budget(query, "Bitwarden Families is about $40 per year for 6 users.") is None
    assert over_budget(query, "1Password Teams is $19.95/month for the four of you.") is not None


def test_a_share_is_not_compared_with_a_total() -> None:
    query = "Lunch for 40 people. Budget £18/head."
    assert over_budget(query, "At £17 a head, the total is £680 before service.") is None


def test_a_figure_the_request_gives_is_restated_not_spent() -> None:
    query = "Approval rules: up to £10k the team lead signs. This invoice is £28,500, who signs?"
    assert over_budget(query, "At £28,500 it needs the finance director.") is None


CFG = load_scoring_config()


def _fused(content: str, cfg: ScoringConfig = CFG) -> ScoreResult:
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.9),
        "precision": TrackScore(name="precision", score=0.99),
    }
    return fuse(ScoreRequest(query=QUERY, content=content), tracks, cfg)


def test_fusion_caps_an_answer_over_budget_at_review() -> None:
    over = _fused("Get the Roborock Q5 ($299): it maps well and handles rugs.")
    assert over.score == CFG.fusion.missed_ask_cap < CFG.actions.accept
    assert over.action == "review"
    assert any(
        "suggests $299, above the request's budget ('budget is $250')" in x for x in over.reasons
    )
    within = _fused("Get the Eufy 11S ($199): quiet, and it handles rugs.")
    assert within.action == "accept"


def test_the_budget_check_is_off_with_one_key() -> None:
    off = CFG.model_copy(update={"fusion": CFG.fusion.model_copy(update={"budget_check": False})})
    assert _fused("Get the Roborock Q5 ($299): it maps well and handles rugs.", off).action == (
        "accept"
    )


def test_the_breakdown_names_the_budget() -> None:
    assert analyze(QUERY).to_dict()["budget"] == {
        "currency": "$",
        "amount": 250.0,
        "per": None,
        "phrase": "budget is $250",
    }
    assert analyze("Robot vacuum for hard floors?").to_dict()["budget"] is None


def test_a_stretch_past_a_loose_budget_is_offered_as_one() -> None:
    query = "hardtail or full suspension mountain bike? budget is around $1500"
    assert not ceiling(query).firm  # type: ignore[union-attr]
    answer = "Go full suspension if you can stretch to $2,000 or find a good used one."
    assert over_budget(query, answer) is None
    assert over_budget(query, "Go full suspension: the Stumpjumper at $2,000 is the one.")


@pytest.mark.parametrize(
    ("query", "answer", "over"),
    [
        ("cloud backup for one laptop, ~400GB. under $5 a month", "Backblaze is $99 a year.", True),
        ("cloud backup for one laptop, ~400GB. under $5 a month", "B2 runs $48 a year.", False),
        (
            "Taking my son to a gig. 150 dollars total max for both tickets.",
            "Floor seats are $120 each, so $240 for two.",
            True,
        ),
        (
            "A tall cat tree please. Limit is 40 quid, can't stretch.",
            "The Feandrea tree is around £75.",
            True,
        ),
        (
            "Water heater leaking. We can't spend more than $1,200 on the replacement.",
            "A tankless unit installed runs about $2,400.",
            True,
        ),
        (
            "Starting tennis. £60 max for a racket.",
            "The Clash 100 at £200+ is not for this budget; the Head Ti.S6 at £45 is.",
            False,
        ),
        (
            "Running trainers under €120",
            "The Ghost 16 is €149.99 list but often €115 on sale.",
            False,
        ),
        (
            "Bachelor weekend, everyone can pay $300 max each.",
            "The cabin is $1,200 total, so $200 per person.",
            False,
        ),
        (
            "Car insurance, I can spend max $120 a month.",
            "About $115 a month with a $500 deductible.",
            False,
        ),
    ],
)
def test_periods_words_and_markers(query: str, answer: str, over: bool) -> None:
    assert (over_budget(query, answer) is not None) is over


def test_a_bare_amount_against_a_monthly_budget_counts_as_a_month_s() -> None:
    query = "Solo freelancer, my marketing budget is about $100 a month. Where should I spend it?"
    assert over_budget(query, "- ~$250: a LinkedIn campaign for local managers.") is not None
    assert over_budget(query, "- ~$60: a LinkedIn campaign for local managers.") is None
    prepaid = "Mint's plan is $25 a month if you prepay 12 months ($300 up front)."
    assert over_budget("20GB of data, max $35/month", prepaid) is None


@pytest.mark.parametrize(
    ("query", "value", "currency"),
    [
        ("need a stroller that folds small for our car boot, 300 max", 300, ""),
        ("Engagement ring, simple. My ceiling is 3k, ideally a bit less.", 3000, ""),
        ("Laptop for video editing. Budget is around a grand, give or take.", 1000, ""),
        ("Flight NYC to London. I've got 900 bucks for it, that's it.", 900, "$"),
        ("Dinner for 8 in Soho. Trying to keep it to £40 a head including drinks.", 40, "£"),
        ("Used SUV. My maximum is $25,000 out the door.", 25000, "$"),
        ("Water heater leaking. I have $1,200 set aside for this, firm.", 1200, "$"),
    ],
)
def test_more_ways_of_stating_a_budget(query: str, value: float, currency: str) -> None:
    cap = ceiling(query)
    assert cap is not None and (cap.value, cap.currency) == (value, currency)


@pytest.mark.parametrize(
    "query",
    [
        "Summarise it in no more than 3 sentences.",
        "Give me up to 5 ideas, max 3 words each.",
        "I'm 95 kg, max 2 sessions a week. What should I lift?",
        "I have $250 in my account. Why was my card declined?",
    ],
)
def test_counts_and_facts_are_no_budget(query: str) -> None:
    assert ceiling(query) is None


def test_a_budget_without_a_currency_is_compared_in_any() -> None:
    query = "need a stroller that folds small for our car boot, 300 max"
    assert over_budget(query, "The Bugaboo Butterfly (£449) folds tiny.") is not None
    assert over_budget(query, "The Joie Pact (£179) folds tiny.") is None
