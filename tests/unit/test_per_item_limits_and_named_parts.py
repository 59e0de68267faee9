"""Instructions realistic requests give that the gate did not read before the thirteenth
session: a character limit on every item ("five taglines, each under 40 characters")."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import inferred_constraints


def _counts(query: str, unit: str) -> list[Instruction]:
    return [k for k in inferred_constraints(query) if k.check == "count" and k.unit == unit]


@pytest.mark.parametrize(
    ("query", "limit"),
    [
        ("give me 3 taglines for my bakery, each under 40 characters", 40),
        ("Suggest three names for the group chat, keep each one under 20 characters.", 20),
        ("3 subject lines for the newsletter, each no more than 50 chars", 50),
        ("Three push notification texts, 60 characters max each.", 60),
    ],
)
def test_a_character_limit_on_every_item(query: str, limit: int) -> None:
    (k,) = _counts(query, "item_characters")
    assert (k.relation, k.value) == ("at_most", limit)
    short = 'Here are three:\n\n1. **Rise and shine**\n2. "Warm loaves"\n3. Crumbs'
    assert check_instruction(short, k)[0] is True
    one_per_line = "Three ideas:\nRise and shine\nWarm loaves\nCrumbs"
    assert check_instruction(one_per_line, k)[0] is True
    long = "- Rise and shine\n- " + "Baked fresh every single morning " * 3 + "\n- Crumbs"
    ok, why = check_instruction(long, k)
    assert ok is False and why.startswith("item 2 has ")


@pytest.mark.parametrize(
    "query",
    [
        "Write a tweet announcing our sale, under 200 characters.",
        "Generate 5 passwords, each 16 characters long.",
        "Give me 3 taglines, each at least 30 characters.",
    ],
)
def test_no_limit_on_every_item(query: str) -> None:
    assert _counts(query, "item_characters") == []


def test_a_single_line_is_not_counted_per_item() -> None:
    (k,) = _counts("give me 3 taglines, each under 40 characters", "item_characters")
    assert check_instruction("Rise and shine, the loaves are warm", k)[0] is None
