"""Pairwise training: each faithful answer scored above a violation of its own request.

Training with independent labels (``train.fit``) asks for absolute targets: the minimal
edits at 0.0 pulled the faithful answers they were edited from down with them. Here the
model only has to rank: for each (request, faithful answer, violating answer) triple the
loss is ``softplus(margin - (s_faithful - s_violating))`` on the logits, so a violation
that already scores ``margin`` logits below its faithful answer costs nothing. Two
anchors keep the absolute scale the gate's cut points read: the faithful answers at 1.0
and a stream of anchor pairs at their labels (the negation pairs of the mix; binary
cross-entropy, each weighted ``anchor``). With ``label_worse`` the violating answers are
also read at their labels (``dataset.VIOLATION_LABELS``) and the anchors take realistic
off-topic answers at 0.0 (``off_topic_anchors``): the ranking term plus the pointwise one.
``instruction_anchors`` adds the requests that state a form: their faithful answers at 1.0
and the answers that break the form at the label the shipped model was trained with, so a
pass over requests with no stated form does not move what the model reads of those.

Violations that break a stated form (``breaks_format``) are left out: the answer still
does the ask, and the reward track checks the form mechanically.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoregate_training.dataset import VIOLATION_LABELS, off_topic_pair
from scoregate_training.pairs import Pair
from scoregate_training.train import (
    TRAIN_MAX_LENGTH,
    StepHook,
    _optimizer,
    apply_loss,
    logits_of,
)

#: Violations a triple never holds (left to the reward track's form checks).
SKIPPED_WHYS = frozenset({"breaks_format"})
#: Characters of each answer compared when an edit looks for the answer it was made from.
EDIT_MATCH_CHARS = 600


@dataclass(frozen=True)
class Triple:
    """A request, an answer that should score higher and one that should score lower."""

    query: str
    better: str
    worse: str
    source: str
    #: The worse answer's target where it is also read at its label (``label_worse``).
    worse_label: float = 0.0


def edited_from(faithful: Sequence[str], edited: str) -> str:
    """The faithful answer an edit was most likely made from (the closest in characters)."""
    head = edited[:EDIT_MATCH_CHARS]

    def similarity(answer: str) -> float:
        return difflib.SequenceMatcher(None, answer[:EDIT_MATCH_CHARS], head).ratio()

    return max(faithful, key=similarity)


def ranking_triples(
    rows: list[dict[str, Any]],
    edits: list[dict[str, Any]],
    rng: random.Random,
    every_faithful: bool = False,
) -> list[Triple]:
    """One triple per violating answer of each request (with one of the request's faithful
    answers, drawn by ``rng``) and one per minimal edit (with the answer it was edited
    from), shuffled. Edits whose request is not in ``rows`` are skipped, so a validation
    split of the requests splits the edits with them.

    ``every_faithful``: each violation is paired with every faithful answer of its request
    instead of one drawn at random. Where a request has a short and a long faithful answer
    and a short and a long violation, each faithful answer is then ranked above each
    violation, whatever their lengths, so length alone says nothing."""
    out: list[Triple] = []
    by_query: dict[str, dict[str, Any]] = {}
    for row in rows:
        query, faithful = str(row["query"]), [str(a) for a in row["faithful"]]
        by_query[query] = row
        for v in row["violating"]:
            if v.get("why") in SKIPPED_WHYS:
                continue
            why = str(v.get("why"))
            label = VIOLATION_LABELS.get(why, 0.0)
            better = faithful if every_faithful else [rng.choice(faithful)]
            out += [Triple(query, f, str(v["text"]), why, label) for f in better]
    for e in edits:
        source = by_query.get(str(e["query"]))
        if source is None:
            continue
        text = str(e["text"])
        best = edited_from([str(a) for a in source["faithful"]], text)
        label = VIOLATION_LABELS.get(str(e["why"]), 0.0)
        out.append(Triple(str(e["query"]), best, text, f"edit-{e['why']}", label))
    rng.shuffle(out)
    return out


#: Two requests of one domain whose word sets overlap this much or more are too alike for
#: one's answer to be a wrong answer to the other.
NEIGHBOUR_MAX_JACCARD = 0.2


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9']+", text.lower()))


def neighbour_triples(
    rows: list[dict[str, Any]], rng: random.Random, per_request: int = 1
) -> list[Triple]:
    """Each request's faithful answer above a faithful answer of *another* request of the
    same domain, read at 0.0: the answer an agent gives when it picked up the wrong ticket.
    It shares the request's topic and words, so the embedding relevance gate passes it and
    only the cross-encoder can tell the asked question from its neighbour. Requests whose
    word sets overlap ``NEIGHBOUR_MAX_JACCARD`` or more are not paired (one's answer may
    well answer the other). Up to ``per_request`` different neighbours a request; one with
    no neighbour gives no triple."""
    by_domain: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_domain.setdefault(str(row.get("domain", "")).strip().lower(), []).append(row)
    out: list[Triple] = []
    for row in rows:
        words = _words(str(row["query"]))
        near = [
            other
            for other in by_domain[str(row.get("domain", "")).strip().lower()]
            if other is not row
            and len(words & (w := _words(str(other["query"])))) / max(len(words | w), 1)
            < NEIGHBOUR_MAX_JACCARD
        ]
        for other in rng.sample(near, min(per_request, len(near))):
            better = str(rng.choice(row["faithful"]))
            worse = str(rng.choice(other["faithful"]))
            out.append(Triple(str(row["query"]), better, worse, "neighbour", 0.0))
    rng.shuffle(out)
    return out


def off_topic_anchors(rows: list[dict[str, Any]], rng: random.Random) -> list[Pair]:
    """Each request with a faithful answer of another request, at 0.0."""
    return [p for row in rows if (p := off_topic_pair(row, rows, rng)) is not None]


#: The label of an answer that breaks a stated form but does the ask (the shipped model's
#: recipe, ``warm-lr1e-5-ed0-fmt09``): the reward track checks the form.
FORMAT_ANCHOR_LABEL = 0.9


def instruction_anchors(rows: list[dict[str, Any]]) -> list[Pair]:
    """The requests of the instruction kind in ``rows``: each faithful answer at 1.0 and
    each violation that breaks the stated form at ``FORMAT_ANCHOR_LABEL``."""
    out: list[Pair] = []
    for row in rows:
        if row.get("kind") != "instruction":
            continue
        query = str(row["query"])
        out += [Pair(query, str(a), 1.0, "instruction-faithful") for a in row["faithful"]]
        out += [
            Pair(query, str(v["text"]), FORMAT_ANCHOR_LABEL, "instruction-format")
            for v in row["violating"]
            if v.get("why") in SKIPPED_WHYS
        ]
    return out


def blend(others: list[Pair], extra: list[Pair], share: float, rng: random.Random) -> list[Pair]:
    """``others`` and ``extra`` shuffled together, ``extra`` repeated (or cut) so that it
    makes ``share`` of the result."""
    if not 0.0 <= share < 1.0:
        raise ValueError(f"share must be in [0, 1), got {share}")
    if not extra or share == 0.0:
        return list(others)
    n = round(share * len(others) / (1.0 - share))
    out = list(others) + [extra[i % len(extra)] for i in range(n)]
    rng.shuffle(out)
    return out


def hard_triples(ce: Any, triples: list[Triple], above: float) -> list[Triple]:
    """The triples whose worse answer ``ce`` (the model a pass starts from) scores at or
    above ``above``: the violations it would let through near the accept cut. Each
    distinct (request, worse answer) is scored once."""
    keys = list(dict.fromkeys((t.query, t.worse) for t in triples))
    if not keys:
        return []
    scores = ce.predict(keys, batch_size=64, show_progress_bar=True)
    high = {k for k, s in zip(keys, scores, strict=True) if float(s) >= above}
    return [t for t in triples if (t.query, t.worse) in high]


def pairwise_loss(better: Any, worse: Any, margin: float) -> Any:
    """Mean ``softplus(margin - (better - worse))`` over logit tensors of equal shape."""
    import torch

    return torch.nn.functional.softplus(margin - (better - worse)).mean()


def fit_pairwise(
    ce: Any,
    triples: list[Triple],
    anchors: list[Pair],
    *,
    lr: float,
    batch_size: int = 8,
    margin: float = 1.0,
    anchor: float = 0.3,
    max_length: int = TRAIN_MAX_LENGTH,
    label_worse: bool = False,
    on_step: StepHook | None = None,
) -> float:
    """Train ``ce`` (a trained one-label CrossEncoder) in place, one pass over
    ``triples``; each step also reads ``batch_size`` of ``anchors`` (cycled), and with
    ``label_worse`` the worse answers at their ``worse_label``. Returns the mean loss of
    the last 50 steps."""
    import torch

    if not triples:
        raise ValueError("no triples to train on")
    steps = -(-len(triples) // batch_size)
    opt, sched = _optimizer(ce.model, lr, lr, steps)
    bce = torch.nn.BCEWithLogitsLoss()
    recent: list[float] = []
    ce.model.train()
    for step in range(steps):
        batch = triples[step * batch_size : (step + 1) * batch_size]
        n = len(batch)
        first = step * batch_size
        extra = [anchors[(first + i) % len(anchors)] for i in range(n)] if anchors else []
        queries = [t.query for t in batch] * 2 + [p.query for p in extra]
        contents = [t.better for t in batch] + [t.worse for t in batch] + [p.content for p in extra]
        logits = logits_of(ce, queries, contents, max_length)
        better, worse, rest = logits[:n], logits[n : 2 * n], logits[2 * n :]
        ones = torch.ones(n, device=logits.device)
        loss = pairwise_loss(better, worse, margin) + anchor * bce(better, ones)
        if label_worse:
            targets = torch.tensor([t.worse_label for t in batch], dtype=torch.float32)
            loss = loss + anchor * bce(worse, targets.to(logits.device))
        if extra:
            labels = torch.tensor([p.label for p in extra], dtype=torch.float32)
            loss = loss + anchor * bce(rest, labels.to(logits.device))
        recent = [*recent, apply_loss(ce, loss, opt, sched)][-50:]
        if on_step is not None:
            on_step(step + 1, steps, recent[-1])
    ce.model.eval()
    return sum(recent) / len(recent)
