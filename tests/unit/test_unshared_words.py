"""``fusion.unshared_*`` and ``scoring.shared_words``: an answer that names almost nothing
the request names, with little relevance, answers another request (a wrong ticket in the
same field) and is capped in the reject zone; a faithful answer in other words is not."""

from __future__ import annotations

from typing import Any

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.scoring.shared_words import asks_to_make, own_words, shared_words

CFG = load_scoring_config()
ON = CFG.model_copy(update={"fusion": CFG.fusion.model_copy(update={"unshared_share": 0.15})})
OFF = CFG.model_copy(update={"fusion": CFG.fusion.model_copy(update={"unshared_share": None})})

QUERY = (
    "My electric kettle has a thick crust of limescale inside and the water tastes chalky."
    " We live in a hard water area and I bought it new last spring. How do I descale it"
    " safely?"
)
FAITHFUL = (
    "Fill the kettle halfway with equal parts water and white vinegar, or a sachet of citric"
    " acid, and bring it to the boil. Switch it off and leave it an hour so the limescale"
    " softens, then pour it away, scrub any crust left with a soft brush, and boil fresh water"
    " twice to rinse out the taste."
)
WRONG_TICKET = (
    "Run a handful of uncooked white rice through the grinder to pull the old oils and"
    " stale grounds off the burrs, then brush out the chamber and wipe the hopper with a dry"
    " cloth. Do this every couple of weeks if you grind daily, and never put the burrs in"
    " the dishwasher."
)


def result(content: str, relevance: float, cfg: Any = ON, query: str = QUERY) -> Any:
    tracks = {
        "semantic": TrackScore(name="semantic", score=relevance),
        "precision": TrackScore(name="precision", score=0.9),
    }
    request = ScoreRequest.model_validate({"query": query, "content": content})
    return fuse(request, tracks, cfg)


def test_own_words_drop_function_and_asking_words_and_match_by_stem():
    words = own_words("Can you please recommend some tips on descaling kettles?")
    assert set(words.values()) == {"descaling", "kettles"}
    found = shared_words("How do I descale my kettle?", "Descaling a kettle takes an hour.")
    assert found.share == 1.0 and found.unused(4) == []


def test_a_wrong_tickets_answer_is_rejected_with_the_words_it_never_uses():
    found = shared_words(QUERY, WRONG_TICKET)
    assert found.share < 0.15
    r = result(WRONG_TICKET, relevance=0.62)
    assert r.score == ON.fusion.none_asked_cap and r.action == "reject"
    why = next(x for x in r.reasons if "may answer another request" in x)
    assert f"uses {len(found.shared)} of the request's {len(found.request)} own words" in why
    assert "(not: electric, kettle, thick, crust)" in why and "relevance is 0.62" in why


def test_the_faithful_answer_to_the_same_request_is_left_alone():
    assert shared_words(QUERY, FAITHFUL).share > 0.25
    r = result(FAITHFUL, relevance=0.62)
    assert not any("another request" in x for x in r.reasons), r.reasons


@pytest.mark.parametrize(
    ("relevance", "content", "query"),
    [
        (0.85, WRONG_TICKET, QUERY),  # relevant as a whole: left to the other checks
        (0.62, "Rice through the grinder, then brush it out.", QUERY),  # too short to count
        (0.62, WRONG_TICKET, "Kettle descaling, how?"),  # a request of too few words
        (0.62, '{"steps": ["rice", "brush", "wipe"], "every": "two weeks"}', QUERY),  # data
    ],
)
def test_what_the_check_leaves_alone(relevance, content, query):
    r = result(content, relevance, query=query)
    assert not any("another request" in x for x in r.reasons), r.reasons


def test_the_requests_form_only_clauses_are_not_counted():
    """ "Answer in all lowercase, in under 120 words" names nothing an answer repeats."""
    query = QUERY + " Answer in all lowercase, in under 120 words, as a numbered list."
    r = result(WRONG_TICKET, relevance=0.62, query=query)
    why = next(x for x in r.reasons if "may answer another request" in x)
    assert f"request's {len(shared_words(QUERY, WRONG_TICKET).request)} own words" in why


def test_a_short_request_is_left_alone_however_few_of_its_words_are_used():
    """A good answer to a short request often repeats none of its words ("allergic to tree
    nuts, a crunchy topping for my yogurt?" -> "a seed-and-oat crumble...")."""
    query = "I'm allergic to tree nuts. Can you suggest a crunchy topping for my yogurt parfait?"
    assert len(shared_words(query, WRONG_TICKET).request) < ON.fusion.unshared_min_request_words
    r = result(WRONG_TICKET, relevance=0.62, query=query)
    assert not any("another request" in x for x in r.reasons), r.reasons


def test_null_turns_it_off():
    r = result(WRONG_TICKET, relevance=0.62, cfg=OFF)
    assert not any("another request" in x for x in r.reasons)
    assert r.score > ON.fusion.none_asked_cap


MAKE_QUERY = (
    "My brother and his fiancee are getting married in the old mill by the river next month"
    " and I have been asked, as best man, to close the dinner. Write me a warm closing toast"
    " of about six sentences."
)
TOAST = (
    "Before we go back to dancing, raise your glasses one last time. Tom, you were the kid who"
    " lent me your bike and never asked for it back; Anna, you are the first person who ever"
    " made him early for anything. Together you are kinder and funnier than either of you"
    " alone. May the years ahead be long, loud and full of friends like the ones here"
    " tonight. To Tom and Anna!"
)


@pytest.mark.parametrize(
    "query",
    [
        "Write a short toast for my brother's wedding",
        "Can you put together a packing list for 5 days in Iceland?",
        "I need a polite message to my neighbour about the noise",
        "Give me 3 ideas for a team lunch",
        "Plan a 3-day trip to Lisbon for me",
        "Could you organise my week around two exams?",
        "Please translate this notice into Spanish",
        "help me with a caption for the photo of our new puppy",
    ],
)
def test_a_request_to_have_something_made(query: str):
    assert asks_to_make(query)


@pytest.mark.parametrize(
    "query",
    [
        "How do I make sourdough starter from scratch?",
        "What lathe speed for roughing out a 10 inch bowl blank?",
        "how do I plan for retirement at 40?",
        "Is it safe to give my dog grapes?",
        "Why does my kettle get limescale so fast?",
        QUERY,
    ],
)
def test_a_question(query: str):
    assert not asks_to_make(query)


def test_a_made_thing_that_names_its_own_things_is_left_alone_with_questions_only():
    """A good toast names the couple, not the mill, the river or the dinner: read as a
    question's answer it would look like a wrong ticket; with ``unshared_questions_only``
    (the default) the check does not read a request to have something made."""
    found = shared_words(MAKE_QUERY, TOAST)
    assert len(found.request) >= ON.fusion.unshared_min_request_words and found.share < 0.15
    every = ON.model_copy(
        update={"fusion": ON.fusion.model_copy(update={"unshared_questions_only": False})}
    )
    capped = result(TOAST, relevance=0.55, cfg=every, query=MAKE_QUERY)
    assert any("another request" in x for x in capped.reasons)
    r = result(TOAST, relevance=0.55, query=MAKE_QUERY)
    assert not any("another request" in x for x in r.reasons), r.reasons
