"""Verse asked for as examples is counted as verse, not as list items or all the answer's
lines: "a short poem about autumn, with 2 haikus as examples" asks for no list of two."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.request_analysis import inferred_constraints
from scoregate.scoring.reward import evaluate_constraint


def _counts(query: str) -> list[tuple[str | None, str | None, object]]:
    return [
        (k.unit, k.relation, k.value) for k in inferred_constraints(query) if k.check == "count"
    ]


@pytest.mark.parametrize(
    "query",
    [
        "Write a short poem about autumn, with 2 haikus as examples",
        "Write a short poem about autumn, with two haikus as examples",
        "Give 3 limericks as examples",
        "Explain limericks. Provide 2 limericks as examples.",
        "Write a blog post about spring with 3 haikus as examples",
        "Teach me about sonnets with 2 sonnets as examples",
        "Share 3 poems as examples of free verse",
        "Give me three haiku as examples",
        "Share 2 limerick examples",
        "Provide 4 haiku examples about spring",
        "Explain what a haiku is with 2 examples",
        "Explain the limerick form with 3 examples",
        "Write a poem about cats with 2 couplets as examples",
    ],
)
def test_verse_as_examples_is_no_count_of_list_items(query: str) -> None:
    assert [c for c in _counts(query) if c[0] in ("items", "lines", "numbered")] == []


def test_examples_of_verse_are_counted_as_verse_only() -> None:
    assert _counts("Give 3 examples of haikus") == [("stanzas", "exactly", 3)]


@pytest.mark.parametrize(
    "query",
    [
        "Write a 6-line poem about autumn, then explain the imagery",
        "Write a poem about autumn in exactly 6 lines, then explain the imagery",
        "Describe a limerick and write 2 lines as an example",
        "Write an 8-line poem about the sea and explain the metaphors",
    ],
)
def test_lines_of_verse_beside_prose_are_no_count_of_the_answer(query: str) -> None:
    assert [c for c in _counts(query) if c[0] == "lines"] == []


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("List 3 examples of renewable energy", ("items", "exactly", 3)),
        ("Give exactly 3 bullet points about tea", ("bullets", "exactly", 3)),
        ("Explain recursion and give 3 examples", ("items", "exactly", 3)),
        ("Give me 5 poem ideas", ("items", "exactly", 5)),
        ("Give me 5 haiku prompts", ("items", "exactly", 5)),
        ("Give me 3 jokes as examples of puns", ("items", "exactly", 3)),
        ("Write a poem about spring and list 3 examples of flowers", ("items", "exactly", 3)),
        ("Write 3 haikus about rain", ("stanzas", "exactly", 3)),
        ("Write two limericks about cats", ("stanzas", "exactly", 2)),
        ("Write a 6-line poem about autumn", ("verse_lines", "exactly", 6)),
        ("Write an 8-line poem explaining photosynthesis", ("verse_lines", "exactly", 8)),
    ],
)
def test_real_counts_are_still_read(query: str, count: tuple[str, str, int]) -> None:
    assert count in _counts(query)


def test_a_good_answer_with_verse_examples_fails_no_count() -> None:
    query = "Write a short poem about autumn, with 2 haikus as examples"
    answer = (
        "**Autumn**\n\nThe maples let go,\nred letters to the cold wind,\n"
        "the year signs its name.\n\nExamples:\n\n"
        "- Crisp leaves underfoot\n- Geese stitch the grey sky southward\n"
        "- Pumpkins on the step\n\n"
        "1. Smoke from a far field\n2. the last apple in the grass\n3. frost finds it by dawn"
    )
    cfg = load_scoring_config().reward
    for k in inferred_constraints(query):
        if k.check == "count":
            assert evaluate_constraint(answer, k, cfg).passed is not False, k
