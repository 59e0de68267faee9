"""Negation pairs from the CANNOT dataset project (CC BY-SA 4.0).

The files in ``../shared/data/negation`` were processed and published by the CANNOT
dataset project (dmlls/cannot-dataset on GitHub) from SemAntoNeg, the Wikipedia
fact-checking corpus, the sentiment labelled sentences and NaN-NLI. A negation or
contradiction is a 0.0 example; a paraphrase or identity pair is a 1.0 example.

SemAntoNeg is split by connected groups of sentences (union-find over premise and
hypothesis) so the held-out part never shares a sentence with training.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path

from scoregate_training.pairs import Pair

SEMANTONEG = "sem_anto_neg_dev.tsv"
NEGATED_FILES: tuple[str, ...] = (
    "wikifactcheck_english_0.tsv",
    "wikifactcheck_english_1.tsv",
    "wikifactcheck_english_2.tsv",
    "sentiment_labelled_sentences.tsv",
    "nan_nli.tsv",
)


@dataclass(frozen=True)
class SemRow:
    """One SemAntoNeg row: ``negated`` is True for a negation, False for a paraphrase."""

    premise: str
    hypothesis: str
    negated: bool


def read_tsv(path: Path) -> list[dict[str, str]]:
    """Read a tab-separated file with a header row (no quoting)."""
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def read_semantoneg(data_dir: Path) -> list[SemRow]:
    """Read ``sem_anto_neg_dev.tsv`` (label 1 = negated, 0 = paraphrase)."""
    rows = read_tsv(data_dir / SEMANTONEG)
    return [
        SemRow(r["premise"].strip(), r["hypothesis"].strip(), r["label"].strip() == "1")
        for r in rows
        if r.get("premise") and r.get("hypothesis")
    ]


class UnionFind:
    """Disjoint sets over strings."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        """Return the representative of ``x``'s set (path halving)."""
        self._parent.setdefault(x, x)
        while self._parent[x] != x:
            self._parent[x] = self._parent[self._parent[x]]
            x = self._parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        """Merge the sets of ``a`` and ``b``."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self._parent[rb] = ra


def group_split(
    rows: list[SemRow], heldout_fraction: float = 0.3, seed: int = 13
) -> tuple[list[SemRow], list[SemRow]]:
    """Split rows into (train, held-out) by connected groups of sentences.

    Two rows are in one group when they share a sentence, directly or through other
    rows; whole groups go to one side, so no sentence appears on both sides.
    """
    uf = UnionFind()
    for r in rows:
        uf.union(r.premise, r.hypothesis)
    roots = sorted({uf.find(r.premise) for r in rows})
    random.Random(seed).shuffle(roots)
    held = set(roots[: round(len(roots) * heldout_fraction)])
    train = [r for r in rows if uf.find(r.premise) not in held]
    heldout = [r for r in rows if uf.find(r.premise) in held]
    return train, heldout


def semantoneg_pairs(rows: list[SemRow]) -> list[Pair]:
    """Paraphrases at 1.0, negations at 0.0."""
    return [Pair(r.premise, r.hypothesis, 0.0 if r.negated else 1.0, "semantoneg") for r in rows]


def read_negated(data_dir: Path) -> list[tuple[str, str, str]]:
    """Every (sentence, negated, source-file) row of the sentence/negated files."""
    out: list[tuple[str, str, str]] = []
    for name in NEGATED_FILES:
        path = data_dir / name
        if not path.is_file():
            continue
        for r in read_tsv(path):
            s, n = (r.get("sentence") or "").strip(), (r.get("negated") or "").strip()
            if s and n and s != n:
                out.append((s, n, path.stem))
    return out


def negated_pairs(
    rows: list[tuple[str, str, str]], banned: set[str], rng: random.Random, identity_share: float
) -> list[Pair]:
    """Negations at 0.0 plus a share of identity/light-edit pairs at 1.0.

    Rows that contain a sentence from ``banned`` (the held-out split) are dropped.
    """
    out: list[Pair] = []
    for s, n, src in rows:
        if s in banned or n in banned:
            continue
        out.append(Pair(s, n, 0.0, src))
        if rng.random() < identity_share:
            out.append(Pair(s, light_edit(s, rng), 1.0, src + "-same"))
    return out


_EDITS: tuple[tuple[str, str], ...] = (
    (" is not ", " isn't "),
    (" isn't ", " is not "),
    (" do not ", " don't "),
    (" don't ", " do not "),
    (" was not ", " wasn't "),
    (" cannot ", " can't "),
    (" it is ", " it's "),
)


def light_edit(sentence: str, rng: random.Random) -> str:
    """A meaning-preserving surface edit: a contraction swapped, or case/punctuation."""
    for a, b in _EDITS:
        if a in sentence and rng.random() < 0.7:
            return sentence.replace(a, b, 1)
    choice = rng.randrange(3)
    if choice == 0:
        return sentence.rstrip(".!") + "."
    if choice == 1:
        return sentence[:1].lower() + sentence[1:]
    return sentence


def random_pairs(sentences: list[str], n: int, rng: random.Random) -> list[Pair]:
    """Unrelated sentence pairs at 0.0."""
    return [
        Pair(rng.choice(sentences), rng.choice(sentences), 0.0, "random-sentences")
        for _ in range(n)
    ]
