"""Ways of ruling something out that the parser had missed or misread ("can't be bothered
with decanting", "nothing made of memory foam", "no words like token, API"), what happened
read as what happened ("the airline gave us NO hotel"), and instructions about a list's
items and a table alone."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import FORMATS, Instruction
from scoregate.scoring.activities import affirmed_activities, avoided_activities
from scoregate.scoring.exclusions import parse_exclusions
from scoregate.scoring.instructions import _FORMAT_CHECKS
from scoregate.scoring.membership import check_members
from scoregate.scoring.phrasing import short_answer_asked
from scoregate.scoring.request_analysis import analyze, request_topic
from scoregate.scoring.reward import check_instruction


def _flags(query: str, answer: str) -> list[str]:
    a = analyze(query)
    return [i for i, _ in check_members(a.excluded, answer, asked=a.asked).violated]


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("honestly cant be bothered with decanting, how do i serve this barolo", "decanting"),
        ("I really can't face video calls. How do I find a therapist?", "video calls"),
        ("one rule: nothing made of memory foam. which features matter?", "memory foam"),
        ("A gift for my aunt, nothing made from plastic please.", "plastic"),
        ("Light wind board ideas? Skip the foil stuff, not interested.", "foil"),
        ("How do I call GraphQL from vanilla JS without pulling in Apollo?", "apollo"),
    ],
)
def test_new_ways_of_ruling_out(query: str, item: str) -> None:
    assert item in parse_exclusions(query)


def test_words_that_only_introduce_examples_are_no_item() -> None:
    excluded = parse_exclusions(
        "Rewrite this error for users. No technical jargon at all: no words like token,"
        " API, OAuth, HTTP, and no error codes."
    )
    assert "words" not in excluded
    assert {"token", "api", "oauth", "http", "error codes"} <= set(excluded)


def test_a_class_with_examples_loses_its_relative_clause_only_there() -> None:
    excluded = parse_exclusions(
        "I want to claim it myself, without using any of those claim companies like AirHelp"
        " that take 30%."
    )
    assert excluded == ["claim companies", "airhelp"]
    # a relative clause without examples restricts the class: only those shoes are out
    assert parse_exclusions("wedding shoes pls, no shoes that pinch my toes") == []


@pytest.mark.parametrize(
    "query",
    [
        "Skip the foil stuff, not interested.",
        "Any hobby ideas? Not interested, honestly, in anything loud.",
        "Rebooting or powering it off is off the table. What should I do first?",
    ],
)
def test_no_item_from_a_mood_or_a_particle(query: str) -> None:
    excluded = parse_exclusions(query)
    assert not {"interested", "not interested", "off", "whatever"} & set(excluded)


@pytest.mark.parametrize(
    "query",
    [
        "The airline gave us NO hotel and no food vouchers. What can we claim?",
        "There was no hot water all week at the rental. Can I get money back?",
        "They offered me no refund at all. What now?",
    ],
)
def test_what_happened_is_no_exclusion(query: str) -> None:
    assert parse_exclusions(query) == []


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("We have no car, what can we do in Leeds?", "car"),
        ("Dinner ideas with no onions?", "onions"),
        ("I had no idea where to start; no onions please.", "onions"),
    ],
)
def test_a_no_that_asks_is_still_read(query: str, item: str) -> None:
    assert item in parse_exclusions(query)


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("Skip the foil stuff please", "foil"),
        ("no shiny stuff", "shiny stuff"),
        ("no sugary stuff please", "sugary stuff"),
    ],
)
def test_a_vague_noun_goes_only_after_a_noun(query: str, kept: str) -> None:
    assert kept in parse_exclusions(query)


def test_the_new_readings_flag_the_answer_that_uses_the_item() -> None:
    query = "double mattress, side sleeper. one rule: nothing made of memory foam. what matters?"
    assert _flags(query, "Go for a hybrid with a gel-infused memory foam top layer.")
    assert not _flags(query, "Go for a pocket-sprung mattress with wool and latex layers.")


def test_an_activity_object_stops_at_a_dash() -> None:
    [activity] = avoided_activities(
        "I'd rather not get out of jury service altogether - I genuinely want to do it."
    )
    assert "-" not in activity.label and "genuinely" not in activity.label


# --- instructions --------------------------------------------------------------------------


def _inferred(query: str) -> dict[str, Instruction]:
    return {str(k.unit or k.value): k for k in analyze(query).instructions}


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("Bills to switch into my name. Max 8 items, each under 50 characters.", 8),
        ("Ideas for a birthday party. Up to 5 ideas, please.", 5),
        ("Where should I go? Maximum 3 suggestions.", 3),
    ],
)
def test_a_maximum_that_opens_a_sentence(query: str, value: int) -> None:
    k = _inferred(query)["items"]
    assert (k.relation, k.value) == ("at_most", value)


def test_max_of_something_else_is_no_count_of_items() -> None:
    assert "items" not in _inferred("I have max 3 hours, what can I cook?")


@pytest.mark.parametrize(
    "query",
    [
        "Give me the plan as a numbered checklist of exactly 6 steps, each step a single sentence.",
        "List 4 ideas; keep each bullet to one sentence.",
        "Give me 5 tips, one sentence each.",
    ],
)
def test_one_sentence_for_every_item(query: str) -> None:
    k = _inferred(query)["item_sentences"]
    assert (k.relation, k.value) == ("exactly", 1)
    two = "1. Add the column as nullable. Do it now.\n2. Backfill in batches.\n"
    assert check_instruction(two, k)[0] is False
    assert check_instruction("1. Add the column.\n2. Backfill in batches.\n", k)[0] is True


TABLE = "| Name | Phone |\n|---|---|\n| | |\n| | |"


@pytest.mark.parametrize(
    "query",
    [
        "A table with the columns Name and Phone. Just the table please, nothing else.",
        "Columns Name, Phone. Table only.",
        "Give me the table and nothing else.",
    ],
)
def test_a_table_alone(query: str) -> None:
    k = _inferred(query)["table_only"]
    assert check_instruction(TABLE, k)[0] is True
    assert check_instruction("```\n" + TABLE + "\n```", k)[0] is True
    ok, why = check_instruction("Here's a template:\n\n" + TABLE + "\n\nTip: add a GP.", k)
    assert ok is False and "2 lines outside the table" in why
    assert check_instruction("Name, Phone", k)[0] is False


def test_a_table_mentioned_is_no_table_only() -> None:
    assert "table_only" not in _inferred("Only the table of contents is wrong, how do I fix it?")


def test_every_format_a_caller_may_name_is_checked() -> None:
    assert set(FORMATS) == set(_FORMAT_CHECKS)


def test_an_unknown_format_is_refused_at_the_boundary() -> None:
    with pytest.raises(ValueError, match="'format' checks one of"):
        Instruction(check="format", value="xml")


def test_an_instruction_s_own_words_leave_the_topic() -> None:
    query = (
        "Need slide titles for a 7-slide talk called 'Why our builds are slow'. Give me a"
        " numbered list of exactly 7 titles, each under 45 characters including spaces. Thanks!"
    )
    topic = request_topic(query, analyze(query).instructions)
    assert topic == "Need slide titles for a 7-slide talk called 'Why our builds are slow'."


def test_an_activity_is_done_with_a_verb_that_does_the_same() -> None:
    avoided = avoided_activities(
        "We're not keen on hiring an outside incident response firm, the budget is tiny."
    )
    done = affirmed_activities("3. **Engage an incident response firm** for the audit.", avoided)
    assert [words for _, words in done] == ["engage an incident response firm"]
    phone = avoided_activities("I'd rather not phone the council about it.")
    assert affirmed_activities("Ring the council first thing on Monday.", phone)
    assert not affirmed_activities("Write to the council instead.", phone)


def test_a_clause_of_its_own_after_a_comma_ends_the_item() -> None:
    assert parse_exclusions("Not keen on Uber, the budget is tiny.") == ["uber"]
    assert parse_exclusions("no nuts, the kids are allergic") == ["nuts"]


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("Three tips for sleeping better", 3),
        ("What are five good names for a cat?", 5),
        ("what are 3 things to pack for a day hike", 3),
    ],
)
def test_a_count_the_request_opens_with_or_asks_what_are(query: str, value: int) -> None:
    k = _inferred(query)["items"]
    assert (k.relation, k.value) == ("exactly", value)


@pytest.mark.parametrize(
    "query",
    [
        "Two questions. How do I avoid a pulley injury, and what do I do after a pop?",
        "Three options I'm weighing: A, B, C. Which one?",
    ],
)
def test_the_asker_s_own_count_is_no_instruction(query: str) -> None:
    assert "items" not in _inferred(query)


@pytest.mark.parametrize(
    ("query", "short"),
    [
        ("Summarise the meeting in one line.", True),
        ("Give me a one-line summary of this thread.", True),
        ("Explain it as a one-liner.", True),
        ("Put each item on one line.", False),
    ],
)
def test_a_request_for_one_line_asks_for_a_short_answer(query: str, short: bool) -> None:
    assert (short_answer_asked(query) is not None) is short
