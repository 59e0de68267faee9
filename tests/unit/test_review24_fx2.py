"""Review R1's findings on counted words and single quotes (twenty-fourth session, fixer
fx2): a counted name told of in a story or a question is no instruction (F17), one counted
word is read once (F18), "wrap your answer in single quotes" is read (F19), two quoted words
are no quoted answer and a reply of one thing says so (F20), and a list inside the quotes
is counted whole (F21); a few more counted names are read (F22)."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import inferred_constraints


def _of(query: str, check: str) -> list[Instruction]:
    return [k for k in inferred_constraints(query) if k.check == check]


def _only(query: str, check: str) -> Instruction:
    (k,) = _of(query, check)
    return k


# F17 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "We tried using Redis twice and it crashed both times. Why?",
        "After saying Hello twice, the bot stops answering. Why?",
        "Including Docker twice in my resume — too much?",
        "I need to use Excel at least 3 times for this report, where do I start?",
        "Should we mention Acme twice in the press release?",
        "Is it too much to use the word 'synergy' twice in a cover letter?",
    ],
)
def test_a_count_told_of_or_asked_about_is_not_read(query: str) -> None:
    assert _of(query, "word_frequency") == []


@pytest.mark.parametrize(
    ("query", "word", "relation", "count"),
    [
        ("Write about Rome and mention Paris twice.", "Paris", "at_least", 2),
        ("Can you write a jingle and say Acme twice?", "Acme", "at_least", 2),
        ("Write an intro without mentioning Acme more than twice.", "Acme", "at_most", 2),
    ],
)
def test_a_count_asked_of_the_answer_is_still_read(
    query: str, word: str, relation: str, count: int
) -> None:
    k = _only(query, "word_frequency")
    assert (k.value, k.relation, k.count) == (word, relation, count)


# F18 ---------------------------------------------------------------------------------------


def test_one_counted_word_is_read_once_as_the_request_writes_it() -> None:
    k = _only("Write a song chorus, repeat the word Tonight four times", "word_frequency")
    assert (k.value, k.relation, k.count) == ("Tonight", "at_least", 4)
    ok, why = check_instruction("We run, we fly,\nThe city lights the sky,\nTonight is ours.", k)
    assert (ok, why) == (False, "'Tonight' appears 1 time; the request asks for at least 4 times")


# F19 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "Wrap your answer in single quotes.",
        "Put your answer in single quotes: what is 2+2?",
        "wrap the answer in single quotes",
        "Give your answer in single quotes",
        "Enclose your answer in single quotation marks: name a primary color.",
        "Surround your response with single quotes",
        "wrap ur answer in single quotes pls",
    ],
)
def test_your_answer_in_single_quotes_is_read(query: str) -> None:
    assert _only(query, "quoted").value == "single"


@pytest.mark.parametrize(
    "query",
    [
        "Solve for x and put your answer in single quotes.",
        "Explain recursion, then wrap your answer in single quotes.",
        "Show your steps and give your final answer in single quotes.",
        "Don't wrap your answer in single quotes.",
        "Give me a slogan for my bakery, in single quotes",
        "Give your answer with single quotes around each name",
        "Write your response with single quotes instead of double quotes",
    ],
)
def test_an_answer_after_working_in_single_quotes_is_not_read(query: str) -> None:
    assert _of(query, "quoted") == []


# F20 ---------------------------------------------------------------------------------------


def test_two_quoted_words_are_not_a_quoted_answer() -> None:
    k = _only("Wrap the whole answer in single quotes. What is the capital of France?", "quoted")
    ok, why = check_instruction("'Paris' is the capital of 'France'", k)
    assert (ok, why) == (
        False,
        "quoted parts, not one quoted answer; the request asks for the whole answer in "
        "single quotes",
    )
    assert check_instruction("‘Paris’ is the capital of ‘France’", k)[0] is False
    assert check_instruction("'It's Paris, the students' favourite city'", k)[0] is True
    assert check_instruction("'The capital is Paris.'", k)[0] is True


def test_a_reply_of_one_thing_names_the_thing() -> None:
    query = "Give me a slogan for my bakery and reply with the slogan in single quotes"
    k = _only(query, "quoted")
    ok, why = check_instruction("Here's one: 'Baked fresh, loved daily.'", k)
    assert (ok, why) == (
        False,
        "not wrapped in single quotes; the request asks for a reply of only the slogan, in "
        "single quotes",
    )


# F21 ---------------------------------------------------------------------------------------


def test_a_list_inside_the_quotes_is_counted_whole() -> None:
    query = "Wrap the whole answer in single quotes. Name 3 primary colours as a bulleted list."
    answer = "'- Red\n- Yellow\n- Blue'"
    ks = inferred_constraints(query)
    assert {k.check for k in ks} >= {"quoted", "list_form", "count"}
    assert all(check_instruction(answer, k)[0] is True for k in ks)


# F22 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "read"),
    [
        (
            "Mention Paris 3 times and London twice",
            [("Paris", "at_least", 3), ("London", "at_least", 2)],
        ),
        (
            "Use the keyword 'best running shoes' at least 3 times in the article",
            [("best running shoes", "at_least", 3)],
        ),
        (
            "Write an ad for Lumio, mention the name Lumio at least 3x",
            [("Lumio", "at_least", 3)],
        ),
        ("Mention Paris three or more times", [("Paris", "at_least", 3)]),
        ("Mention iPhone at least twice", [("iPhone", "at_least", 2)]),
        (
            "Plan my month; include Yoga twice a week and Running three times per week.",
            [],
        ),
    ],
)
def test_more_counted_names_are_read(query: str, read: list[tuple[str, str, int]]) -> None:
    assert [(k.value, k.relation, k.count) for k in _of(query, "word_frequency")] == read
