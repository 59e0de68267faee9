"""Precision track (seed 001 track 2): a cross-encoder reads (query, content) together.

The packaged MiniLM cross-encoder (``scoregate:precision``) gives one logit; its
``predict`` applies a sigmoid, so the score is in [0, 1]: high when the content answers
the query and honours what it excludes, low when it contradicts the request, does what
the request excludes, or is off-topic.

Content longer than the model's window is split into token chunks (sharing the window
with the query) and scored chunk by chunk; the content's score is the maximum over its
chunks, as in the semantic track. Nothing is silently truncated.

The model scores a short answer lower than a long one that says the same
(``precision.short_answer_lift`` corrects that in logit space; docs/decisions.md).

On top of the model, an optional explicit exclusion check (``precision.exclusion_check``)
parses what the request excludes ("without X", "no X", "other than X", "never use X",
"I do NOT want X", "X-free", ...) and, when the content mentions X without negating it,
multiplies the score by ``precision.exclusion_penalty``. torch is never imported here.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from scoregate.config.tracks import PrecisionConfig
from scoregate.schemas.request import is_blank
from scoregate.schemas.result import TrackScore
from scoregate.scoring.activities import affirmed_activities
from scoregate.scoring.affirmation import ExclusionCheck, check_exclusions, mentions, stem
from scoregate.scoring.exclusions import parse_exclusions, strip_exclusions
from scoregate.scoring.membership import Embed, check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.semantic import chunk_text, token_spans
from scoregate.scoring.tried import offered_again

__all__ = [
    "ExclusionCheck",
    "check_exclusions",
    "mentions",
    "parse_exclusions",
    "precision_scores",
    "stem",
    "strip_exclusions",
]

TRACK = "precision"
#: [CLS] query [SEP] content [SEP]
PAIR_SPECIAL_TOKENS = 3


class PairScorer(Protocol):
    """What the track needs from a CrossEncoder."""

    tokenizer: Any

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> Any: ...


# --- the track ---------------------------------------------------------------------------


def content_chunks(model: PairScorer, query: str, content: str, cfg: PrecisionConfig) -> list[str]:
    """``[content]`` when the pair fits ``max_length``, else content chunks that do."""
    query_tokens = len(token_spans(model.tokenizer, query))
    budget = cfg.max_length - PAIR_SPECIAL_TOKENS - min(query_tokens, cfg.max_length // 2)
    spans = token_spans(model.tokenizer, content)
    if len(spans) <= budget:
        return [content]
    return chunk_text(content, spans, budget, min(cfg.chunk_overlap, budget // 2))


def _predict(model: PairScorer, flat: list[tuple[str, str]], cfg: PrecisionConfig) -> list[float]:
    if not flat:
        return []
    out = model.predict(flat, batch_size=cfg.batch_size, show_progress_bar=False)
    return [min(1.0, max(0.0, float(x))) for x in out]


def lift_short(score: float, words: int, cfg: PrecisionConfig) -> float:
    """The model's ``score`` of an answer of ``words`` words, with the short-answer lift:
    ``short_answer_lift * (1 - words / short_answer_words)`` logits added when positive."""
    share = 1.0 - words / cfg.short_answer_words
    if cfg.short_answer_lift <= 0 or share <= 0:
        return score
    p = min(max(score, 1e-6), 1.0 - 1e-6)
    z = math.log(p / (1.0 - p)) + cfg.short_answer_lift * share
    return 1.0 / (1.0 + math.exp(-z))


@dataclass
class _Slots:
    """Where one pair's chunks sit in the flat predict batch: against the whole request
    and, when the request excludes something, against what it asks for (``core``)."""

    full: slice | None
    core: slice | None = None
    core_query: str = ""
    #: Each ask of a multi-part request, read alone (``score_each_ask``).
    asks: list[tuple[str, slice]] = field(default_factory=list)


def _pair_score(
    pair: tuple[str, str],
    raw: list[float],
    slots: _Slots,
    cfg: PrecisionConfig,
    elapsed_ms: float,
    embed: Embed | None = None,
) -> TrackScore:
    if slots.full is None:
        return TrackScore(
            name=TRACK,
            score=0.0,
            details={"model_score": 0.0, "chunks": 0},
            reasons=["content is empty: nothing answers the query"],
            elapsed_ms=elapsed_ms,
        )
    words = len(pair[1].split())
    raw_score, chunks = max(raw[slots.full]), slots.full.stop - slots.full.start
    model_score = lift_short(raw_score, words, cfg)
    best = f", best of {chunks} chunks" if chunks > 1 else ""
    details: dict[str, Any] = {"model_score": round(model_score, 4), "chunks": chunks}
    lifted = ""
    if model_score != raw_score:
        details.update(raw_model_score=round(raw_score, 4), words=words)
        lifted = f"; {raw_score:.2f} before the short-answer lift, {words} words"
    reasons = [f"answer fits the request {model_score:.2f} (cross-encoder{best}{lifted})"]
    score = model_score
    if slots.core is not None:
        core_score = lift_short(max(raw[slots.core]), words, cfg)
        details.update(core_query=slots.core_query, core_score=round(core_score, 4))
        reasons.append(f"answer fits what the request asks for {core_score:.2f} (exclusions aside)")
        score = (model_score + core_score) / 2
    if slots.asks:
        each = {ask: lift_short(max(raw[at]), words, cfg) for ask, at in slots.asks}
        weakest = min(each, key=lambda ask: each[ask])
        details["ask_scores"] = {ask: round(s, 4) for ask, s in each.items()}
        reasons.append(
            f"answer fits each part of the request: lowest {each[weakest]:.2f} ('{weakest}')"
        )
        score = (score + each[weakest]) / 2
    if cfg.exclusion_check:
        analysis = analyze(pair[0])
        check = check_members(
            analysis.excluded,
            pair[1],
            embed=embed,
            min_cosine=cfg.member_min_cosine,
            asked=analysis.asked,
            request=pair[0],
            situations=analysis.situations,
            for_now=analysis.for_now,
            lacks=analysis.lacks,
        )
        phrases = {e.item: e.phrase for e in analysis.exclusions}
        lacks = set(analysis.lacks)
        # an activity whose words an excluded item already reported is not said twice
        said_by = [phrases.get(item, item).lower() for item, _ in check.violated]
        done = [
            (a, words)
            for a, words in affirmed_activities(pair[1], analysis.avoided)
            if not any(p in a.phrase.lower() or a.phrase.lower() in p for p in said_by)
        ]
        again = offered_again(pair[1], analysis.tried)
        violated = [item for item, _ in check.violated] + [a.label for a, _ in done]
        violated += [t.item for t, _ in again]
        said = [
            f"suggests '{words}', which the request would rather not do ('{a.phrase}')"
            for a, words in done
        ]
        said += [
            f"suggests '{words}' again, which the request"
            f" {'already holds' if t.act == 'earn' else 'has already tried'} ('{t.phrase}')"
            for t, words in again
        ]
        # only things the asker says they lack ("I don't have a car"): review at most
        lacks_only = bool(violated) and set(violated) <= lacks
        details.update(
            excluded=analysis.excluded,
            violated=violated,
            violated_by=dict(check.violated),
            violations=check.violations(phrases, lacks) + said,
            violated_lacks_only=lacks_only,
        )
        reasons = said + check.reasons(phrases, lacks) + reasons
        if violated and not lacks_only:
            score *= cfg.exclusion_penalty
    return TrackScore(
        name=TRACK, score=score, details=details, reasons=reasons, elapsed_ms=elapsed_ms
    )


def core_query(query: str, cfg: PrecisionConfig) -> str | None:
    """What the request asks for without its exclusions, when the track also scores
    against it (request analysis's core ask)."""
    if not (cfg.exclusion_check and cfg.score_without_exclusions):
        return None
    analysis = analyze(query)
    core = analysis.core_ask if analysis.exclusions else ""
    return core if core and core != query.strip() else None


def asks_read(query: str, cfg: PrecisionConfig) -> tuple[str, ...]:
    """The asks of a multi-part request the track also reads one by one (none for a
    request of one ask, or with ``score_each_ask`` off)."""
    if not cfg.score_each_ask:
        return ()
    asks = analyze(query).asks
    return asks if len(asks) >= 2 else ()


def precision_scores(
    model: PairScorer,
    pairs: list[tuple[str, str]],
    cfg: PrecisionConfig,
    embed: Embed | None = None,
) -> list[TrackScore]:
    """Score (query, content) pairs with the cross-encoder, all chunks in one predict call.

    A request that excludes something ("Cookies with no chocolate, please.") is read
    twice when ``score_without_exclusions`` is on: as written, and as what it asks for
    ("Cookies."); the model's two scores are averaged, and the exclusion itself is left
    to the explicit check. The model alone tends to score any answer to an exclusion
    request low, faithful ones included.

    Args:
        model: A one-label CrossEncoder (``predict`` returns sigmoid scores in [0, 1]).
        pairs: (query, content) pairs.
        cfg: The ``precision`` section of the scoring config.
        embed: Optional text embedder (normalised vectors) for excluded-class membership.
    """
    start = time.perf_counter()
    flat: list[tuple[str, str]] = []
    slots: list[_Slots] = []

    def add(query: str, chunks: list[str]) -> slice:
        flat.extend((query, chunk) for chunk in chunks)
        return slice(len(flat) - len(chunks), len(flat))

    for query, content in pairs:
        if is_blank(content):  # white space and invisible characters (U+200B) say nothing
            slots.append(_Slots(None))
            continue
        chunks = content_chunks(model, query, content, cfg)
        slot = _Slots(add(query, chunks))
        core = core_query(query, cfg)
        if core is not None:
            slot.core, slot.core_query = add(core, content_chunks(model, core, content, cfg)), core
        for ask in asks_read(query, cfg):
            slot.asks.append((ask, add(ask, content_chunks(model, ask, content, cfg))))
        slots.append(slot)
    raw = _predict(model, flat, cfg)
    share = (time.perf_counter() - start) * 1000 / max(len(pairs), 1)
    return [_pair_score(p, raw, s, cfg, share, embed) for p, s in zip(pairs, slots, strict=True)]
