"""Activities a request would rather avoid (``scoring.activities``), and the precision track
reporting an answer that has the asker do one anyway."""

from __future__ import annotations

import pytest

from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.activities import affirmed_activities, avoided_activities
from scoregate.scoring.precision import _pair_score, _Slots
from scoregate.scoring.request_analysis import analyze


@pytest.mark.parametrize(
    ("query", "label", "verb", "head"),
    [
        ("I'd rather not ask my parents for money.", "ask my parents", "ask", "parent"),
        ("I really don't want to keep buying bags of ice.", "buying bags of ice", "buy", "ice"),
        (
            "id rather not go through a mortgage broker",
            "go through a mortgage broker",
            None,
            "broker",
        ),
        ("I'd rather not move DNS to another provider just for this.", "move DNS", "mov", "dns"),
        ("I don't want to be picking stocks every week", "be picking stocks", "pick", "stock"),
        (
            "I don't want to spend my weekends cleaning the oven",
            "spend my weekends cleaning the oven",
            "clean",
            "oven",
        ),
    ],
)
def test_what_the_request_would_rather_not_do(
    query: str, label: str, verb: str | None, head: str
) -> None:
    (a,) = avoided_activities(query)
    assert (a.label, a.verb, a.head) == (label, verb, head)


@pytest.mark.parametrize(
    "query",
    [
        "I'd rather not use a blender.",  # a thing: the exclusions read it
        "I don't want to do it again.",  # nothing named
        "I'd rather not go there on my own.",
        "I'd rather not keep doing this every week.",  # nothing named
    ],
)
def test_nothing_named_to_avoid(query: str) -> None:
    assert avoided_activities(query) == []


ASK = avoided_activities("I'd rather not ask my parents for money.")
BROKER = avoided_activities("id rather not go through a mortgage broker")


@pytest.mark.parametrize(
    ("answer", "acts", "words"),
    [
        ("The simplest option is to ask your parents for a short loan.", ASK, "ask your parents"),
        ("Compare deals through a whole-of-market mortgage broker.", BROKER, "mortgage broker"),
    ],
)
def test_an_answer_that_does_it(answer: str, acts: list, words: str) -> None:
    ((_, found),) = affirmed_activities(answer, acts)
    assert found == words


@pytest.mark.parametrize(
    ("answer", "acts"),
    [
        ("You don't need to ask your parents: a credit union loan works.", ASK),
        ("Without asking your parents, try a payment plan.", ASK),
        ("Your parents may ask how it went.", ASK),  # the verb after the head: not done
        ("Go direct to the banks; no broker needed.", BROKER),
        ("Phone the bank's own mortgage team.", BROKER),
        ("Brokers hide fees in surprising places, so read the small print.", BROKER),
    ],
)
def test_an_answer_that_does_not(answer: str, acts: list) -> None:
    assert affirmed_activities(answer, acts) == []


def test_an_object_already_excluded_is_checked_as_a_thing() -> None:
    analysis = analyze("I'd rather not use a food processor. Hummus recipe?")
    assert analysis.avoided == ()
    assert "food processor" in analysis.excluded


def test_the_precision_track_reports_it_in_plain_words() -> None:
    query = "I'm 22 and short on rent this month. I'd rather not ask my parents for money."
    answer = "The simplest option is to ask your parents for a short loan and repay it."
    cfg = PrecisionConfig()
    track = _pair_score((query, answer), [0.9], _Slots(full=slice(0, 1)), cfg, 1.0)
    assert track.details["violated"] == ["ask my parents"]
    (said,) = track.details["violations"]
    assert said == (
        "suggests 'ask your parents', which the request would rather not do"
        " ('I'd rather not ask my parents')"
    )
    assert said in track.reasons
    assert track.score == pytest.approx(
        track.details["model_score"] * cfg.exclusion_penalty, abs=1e-3
    )
    assert analyze(query).to_dict()["avoided"] == [
        {"activity": "ask my parents", "phrase": "I'd rather not ask my parents", "for_now": False}
    ]


@pytest.mark.parametrize(
    "query",
    ["I'm so tired of the constant noise. How can I sleep?", "tired of my job, what now?"],
)
def test_a_thing_one_is_tired_of_is_no_activity(query: str) -> None:
    assert avoided_activities(query) == []


def test_a_phrasal_particle_names_nothing() -> None:
    (a,) = avoided_activities("I'm not keen on taking out a loan")
    assert a.modifiers == frozenset()
    assert affirmed_activities("Work out which loan suits you.", [a]) == []


def test_what_an_exclusion_reports_is_not_said_twice() -> None:
    query = "id rather not go through a mortgage broker"
    answer = "Compare deals through a mortgage broker."
    track = _pair_score((query, answer), [0.9], _Slots(full=slice(0, 1)), PrecisionConfig(), 1.0)
    assert len(track.details["violated"]) == 1
    assert len(track.details["violations"]) == 1
