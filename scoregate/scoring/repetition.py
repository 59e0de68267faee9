"""An answer that repeats a few words over and over (pure).

A generation stuck in a loop, or padding, can be long enough that the best of its chunks
reads as fitting to the models, which take the best chunk of a long answer. Its
vocabulary gives it away: Guiraud's richness, the number of distinct words over the
square root of the number of words, stays roughly flat with length for real text, where
the share of distinct words falls. No stored answer of 100 words or more reads under 4.5
(``docs/decisions.md``, "An answer that repeats a few words over and over"); word salad
of two dozen words reads under 2, and one sentence copied a hundred times under 0.5.

The whole answer is read, and so is every stretch of ``min_words`` running words: a
generation that starts well and then loops on one sentence until it is cut off keeps the
whole answer's richness high, but not the looping stretch's (no stored answer has a
stretch of 150 words under 3.6).

Table rows and code blocks are left out of the count: a schedule's cells and a
program's keywords repeat by their nature.

>>> found = repeated("\\n".join(["Preheat the oven and roast the vegetables."] * 40), 150, 2.0)
>>> (found.distinct, found.words, found.whole, round(found.richness, 2))
(6, 280, True, 0.36)
>>> repeated("A short answer. " * 5, 150, 2.0) is None
True
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

#: A word: a run of letters (any script), with an inner apostrophe ("don't").
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
#: A fenced code block.
_FENCE = re.compile(r"^\s*(```|~~~).*?^\s*\1", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Repetition:
    """An answer's words (outside tables and code) and how few of them are distinct."""

    words: int
    distinct: int
    #: Whether the count is the whole answer's, not one stretch of it.
    whole: bool = True

    @property
    def richness(self) -> float:
        return self.distinct / math.sqrt(self.words)


def prose_words(text: str) -> list[str]:
    """The words of ``text`` outside fenced code blocks and table rows, lower-cased."""
    prose = _FENCE.sub("\n", text)
    lines = (line for line in prose.splitlines() if not line.lstrip().startswith("|"))
    return [w.lower() for line in lines for w in _WORD.findall(line)]


def repeated(text: str, min_words: int, max_richness: float) -> Repetition | None:
    """The answer's repetition when it has at least ``min_words`` words outside tables and
    code and a richness under ``max_richness``; ``None`` otherwise."""
    words = prose_words(text)
    if len(words) < max(1, min_words):
        return None
    found = Repetition(words=len(words), distinct=len(set(words)))
    if found.richness < max_richness:
        return found
    stretch = Repetition(words=min_words, distinct=_fewest_distinct(words, min_words), whole=False)
    return stretch if stretch.richness < max_richness else None


def _fewest_distinct(words: list[str], size: int) -> int:
    """The fewest distinct words in any ``size`` running words (one pass)."""
    counts = Counter(words[:size])
    fewest = len(counts)
    for gone, new in zip(words, words[size:], strict=False):
        counts[new] += 1
        counts[gone] -= 1
        if not counts[gone]:
            del counts[gone]
        fewest = min(fewest, len(counts))
    return fewest
