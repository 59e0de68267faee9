"""Review 23 (r3): how answers are counted, and how the count checks word their reasons."""

from __future__ import annotations

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import count_units, split_sentences
from scoregate.scoring.instructions import check_instruction, describe


def _count(unit: str, value: int, relation: str = "exactly") -> Instruction:
    return Instruction(check="count", unit=unit, value=value, relation=relation, inferred=True)


# finding 12: an initialism inside a sentence ends none


def test_initialism_before_a_word_that_goes_on_ends_no_sentence() -> None:
    text = (
        "Inflation is the rise in the general price level. It is measured by indices such as"
        " the U.S. CPI. Central banks aim to keep it near 2%."
    )
    assert count_units(text, "sentences", None) == 3
    assert check_instruction(text, _count("sentences", 3))[0] is True


def test_initialism_before_a_sentence_opener_still_ends_one() -> None:
    moved = "I moved to the U.S. It was big."
    assert split_sentences(moved) == ["I moved to the U.S.", "It was big."]
    assert len(split_sentences("We met at 5 p.m. on Friday. Then we left.")) == 2
    assert len(split_sentences("The U.S. economy grew. The U.K. did not.")) == 2
    assert len(split_sentences("Call me at 2 p.m. Please be on time.")) == 2


def test_a_postscript_marker_opens_the_sentence_after_it() -> None:
    text = "Thanks for the help.\n\nP.S. I brought you some olive oil."
    assert split_sentences(text) == ["Thanks for the help.", "P.S. I brought you some olive oil."]


# finding 13: how the reasons and labels read


def test_a_limit_of_none_reads_none() -> None:
    k = Instruction(check="letter_frequency", value="e", count=0, relation="at_most", inferred=True)
    ok, why = check_instruction("Hello there.", k)
    assert ok is False and why.endswith("the request asks for none"), why
    assert "at most 0" not in why
    assert describe(k) == "no 'e'"


def test_a_per_item_label_puts_the_plural_on_its_unit() -> None:
    k = _count("item_words", 6, "at_most")
    assert describe(k) == "at most 6 words per list item"
    ok, why = check_instruction("- one two three four five six seven\n- one two", k)
    assert ok is False and why.endswith("at most 6 words per item"), why


def test_start_and_end_are_quoted_as_written() -> None:
    end = Instruction(check="ends_with", value="Stay secure.", inferred=True)
    _, why = check_instruction("Use a password manager for the sites you visit. Stay safe.", end)
    assert "'the sites you visit. Stay safe.'" in why, why
    start = Instruction(check="starts_with", value="Hello", inferred=True)
    _, why = check_instruction("Dear Anna, I write about Monday.", start)
    assert "'Dear Anna, I write about Monday.'" in why, why


def test_a_bulleted_list_passes_as_bulleted() -> None:
    k = Instruction(check="list_form", value="bulleted", inferred=True)
    assert check_instruction("- apple\n- pear\n- plum", k) == (True, "a bulleted list of 3 items")


def test_a_dash_is_no_word_of_a_bare_answer() -> None:
    k = Instruction(check="bare_answer", value="the names", inferred=True)
    ok, why = check_instruction("Max — Bella\nLuna — Daisy", k)
    assert ok is True and why == "2 items of at most 2 words", why


# finding 17: a heading is no paragraph; nested bullets and list fragments are not counted


def test_a_markdown_heading_is_no_paragraph() -> None:
    text = (
        "## Tea\n\nTea is brewed from the leaves of one plant.\n\nGreen, black and oolong differ."
    )
    assert count_units(text, "paragraphs", None) == 2
    assert check_instruction(text, _count("paragraphs", 2))[0] is True


def test_nested_bullets_are_not_counted_with_the_top_level() -> None:
    text = "- Tea\n  - green\n  - black\n- Coffee\n- Cocoa"
    assert count_units(text, "bullets", None) == 3
    assert check_instruction(text, _count("bullets", 3))[0] is True
    steps = "1. Open an account.\n2. Buy one of:\n   - a date fund\n   - an index fund\n3. Wait."
    assert count_units(steps, "items", None) == 3
    assert count_units("  - a\n  - b", "bullets", None) == 2  # an indented list, none nested


def test_list_fragments_under_a_lead_in_are_one_sentence() -> None:
    text = (
        "Rome is Italy's capital.\nHighlights:\n- the Colosseum\n- the Pantheon\n"
        "- the Vatican Museums\nGo in spring."
    )
    assert count_units(text, "sentences", None) == 3
    assert check_instruction(text, _count("sentences", 3, "at_most"))[0] is True
    # items that are sentences stay sentences
    assert count_units("Tips:\n- Drink water.\n- Sleep well.", "sentences", None) == 3


# finding 10: a counted list given inline or one name a line is counted there


def test_a_list_written_inline_is_counted() -> None:
    nine = "Max, Bella, Luna, Charlie, Daisy, Milo, Rosie, Teddy, Bailey."
    assert check_instruction(nine, _count("items", 10)) == (
        False,
        "9 list items; the request asks for exactly 10 list items",
    )
    assert count_units("Here are three: Max, Bella and Luna.", "items", None) == 3
    assert count_units("Max\nBella\nLuna", "items", None) == 3
    assert count_units("Some names:\nMax\nBella", "items", None) == 2


def test_prose_is_not_read_as_an_inline_list() -> None:
    for prose in (
        "Dogs are loyal, friendly, and fun to be with.",
        "I like Max, Bella and Luna for a dog.",
        "Great question. Max, Bella, Luna.",
        "Max is great.\nBella too.",
        "Sure!\nHere you go",
        "Paris, France",
    ):
        assert count_units(prose, "items", None) is None, prose
        assert check_instruction(prose, _count("items", 3))[0] is None, prose
