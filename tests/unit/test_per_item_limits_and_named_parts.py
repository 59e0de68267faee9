"""Instructions realistic requests give that the gate did not read before the thirteenth
session: a character limit on every item ("five taglines, each under 40 characters"); and
misreadings: what to check a label for, a tool run by hand taken for a power tool, "or free
ebooks" taken for an exclusion, a quotation after "the usual" taken for a required phrase,
and a letter's greeting and sign-off counted as paragraphs."""

from __future__ import annotations

import numpy as np
import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.affirmation import check_exclusions
from scoregate.scoring.exclusions import exclusion_matches
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
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


# --- exclusions: what to check a label for, and tools run by hand --------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "Freeze-dried beef liver (check the label, since many beef treats also contain chicken"
        " fat).",
        "Read the ingredients on stock cubes: some list chicken extract.",
        "Scan each packaging for chicken meal before you buy.",
    ],
)
def test_what_to_check_a_label_for_is_no_use(answer: str) -> None:
    check = check_exclusions("Treats for my puppy? He's allergic to chicken.", answer)
    assert check.violated == [] and check.ruled_out == ["chicken"]


def test_a_use_before_the_label_is_still_a_use() -> None:
    answer = "Roast the chicken thighs, then read the label on the stock."
    assert check_exclusions("Dinner ideas without chicken", answer).violated == ["chicken"]


def test_a_tool_run_by_hand_is_no_power_tool() -> None:
    items = ["power tools"]
    by_hand = "Tools: a pull saw, a hand drill or brace with bits, and a manual sander block."
    assert check_members(items, by_hand).violated == []
    assert check_members(items, "Tools: a drill with bits and a screwdriver.").violated == [
        ("power tools", "drill")
    ]
    # a hand drill is still a drill where drills themselves are ruled out
    assert check_members(["drill"], "Use a hand drill.").violated == [("drill", "drill")]


def test_a_tool_run_by_hand_is_not_found_by_embedding_either() -> None:
    def embed(texts: list[str]) -> np.ndarray:
        # "router" (no listed member) sits on the power-tool axis; every other word is far
        near = ("power tools", "router")
        return np.array([[1.0, 0.0] if t in near else [0.0, 1.0] for t in texts])

    items = ["power tools"]
    by_hand = "Cut the groove with a hand router."
    assert check_members(items, by_hand, embed=embed, min_cosine=0.5).violated == []
    powered = "Cut the groove with a router."
    assert check_members(items, powered, embed=embed, min_cosine=0.5).violated == [
        ("power tools", "router")
    ]


@pytest.mark.parametrize(
    "query",
    [
        "We stick to books the library has copies of, or free public domain ebooks.",
        "I'd like to propose that the main hall be free for the youth club on Thursdays.",
        "Feel free to suggest anything, we're totally free on Sunday.",
    ],
)
def test_a_spaced_free_after_a_function_word_excludes_nothing(query: str) -> None:
    assert exclusion_matches(query) == []


def test_a_spaced_free_after_a_noun_still_excludes_it() -> None:
    assert exclusion_matches("A sugar free cake for my dad, and nut-free too") == [
        ("sugar", "sugar free"),
        ("nut", "nut-free"),
    ]


def test_what_was_tried_and_failed_is_no_use() -> None:
    query = "14yo on his phone till 1am. dont want to confiscate it, tried that, total war."
    answer = "Since confiscation backfired, aim for a plan he helps design."
    assert check_exclusions(query, answer).violated == []
    assert check_exclusions(query, "Confiscate the phone at 10pm.").violated == ["confiscate"]


def test_a_quoted_phrase_after_usual_is_not_required() -> None:
    query = (
        "I don't want to write the usual \"let me know if there's anything I can do\". "
        "Can you draft a message?"
    )
    assert [k for k in inferred_constraints(query) if k.check == "keywords"] == []
    (k,) = [
        k for k in inferred_constraints('Write a haiku and use "moon".') if k.check == "keywords"
    ]
    assert k.value == ["moon"]


LETTER = (
    "Dear Keith,\n\nWe were so sorry to hear about your loss.\n\n"
    "Take whatever time you need.\n\nWith warm wishes,\nThe Hendersons"
)


def test_a_letters_greeting_and_sign_off_are_no_paragraphs() -> None:
    (k,) = [
        k
        for k in inferred_constraints("A sympathy note to Keith, two short paragraphs please.")
        if k.check == "count"
    ]
    assert (k.unit, k.value) == ("paragraphs", 2)
    assert check_instruction(LETTER, k)[0] is True
    three = LETTER.replace("Take whatever", "We think of you.\n\nTake whatever")
    assert check_instruction(three, k)[0] is False
    # a first paragraph that only starts like a greeting is a paragraph
    plain = "To start, soak the beans overnight.\n\nThen simmer them.\n\nServe hot."
    assert check_instruction(plain, k)[0] is False
