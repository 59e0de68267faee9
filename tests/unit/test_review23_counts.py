"""Review 23 (r3): how answers are counted, and how the count checks word their reasons."""

from __future__ import annotations

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import count_units, split_sentences
from scoregate.scoring.instructions import check_instruction


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
