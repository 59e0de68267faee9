"""The training example shared by every data generator."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    """One (query, content) example with a target score in [0, 1].

    ``source`` names the generator or file it came from, for the data summary.
    """

    query: str
    content: str
    label: float
    source: str


def sample(pairs: list[Pair], n: int | None, rng: random.Random) -> list[Pair]:
    """Return ``n`` pairs drawn without replacement (all of them, shuffled, if ``n`` is None)."""
    out = list(pairs)
    rng.shuffle(out)
    return out if n is None else out[:n]


def join_items(items: list[str]) -> str:
    """Join ``["a", "b", "c"]`` as ``"a, b and c"``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
