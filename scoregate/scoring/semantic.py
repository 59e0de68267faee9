"""Semantic track (seed 001 track 1): cosine of MiniLM embeddings of query and content.

All texts of all pairs go through one ``encode`` call (the micro-batching worker sends
many pairs at once). Content longer than the model's window (256 word pieces for
MiniLM) is split into overlapping token chunks, every chunk is embedded, and the
content's cosine is the **maximum** over its chunks: the answer is as relevant as its
most relevant part, and nothing is silently truncated. A query longer than the window
is chunked the same way and its chunk embeddings averaged (one intent, many words).
The raw cosine is min-max normalised to [0, 1] with ``semantic.min_cosine`` and
``semantic.max_cosine``.

A request that asks several things ("when should I go, and what should I pack?", see
:func:`scoregate.scoring.request_analysis.split_asks`) also gets each ask compared with
every sentence of the answer: ``details["asks"]`` holds each ask's best sentence cosine,
and fusion caps an answer that leaves one ask unaddressed.

Query embeddings may be cached (key: model id + sha256 of the text) so repeated
queries are not re-encoded. numpy only at import time: torch is never imported here.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from scoregate.config.tracks import SemanticConfig
from scoregate.schemas.request import is_blank
from scoregate.schemas.result import TrackScore
from scoregate.scoring.request_analysis import analyze

log = logging.getLogger(__name__)

TRACK = "semantic"
#: Special tokens ([CLS], [SEP]) the model adds around every text.
SPECIAL_TOKENS = 2
DEFAULT_WINDOW = 256
Vector = npt.NDArray[np.float32]


class EmbeddingCache(Protocol):
    """Bytes by key, e.g. Redis with a TTL; a miss returns None."""

    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...


class Encoder(Protocol):
    """What the track needs from a SentenceTransformer."""

    tokenizer: Any
    max_seq_length: int

    def encode(self, sentences: list[str], **kwargs: Any) -> Any: ...


def min_max_scale(x: float, lo: float, hi: float) -> float:
    """Map ``x`` from [lo, hi] to [0, 1], clamped."""
    if hi <= lo:
        raise ValueError(f"min_max_scale needs hi > lo (got lo={lo}, hi={hi})")
    return float(min(1.0, max(0.0, (x - lo) / (hi - lo))))


def token_spans(tokenizer: Any, text: str) -> list[tuple[int, int]]:
    """Character (start, end) of every word piece of ``text``, no special tokens."""
    enc = tokenizer(
        text,
        add_special_tokens=False,
        return_offsets_mapping=True,
        truncation=False,
        verbose=False,
    )
    return [(int(a), int(b)) for a, b in enc["offset_mapping"]]


def chunk_text(text: str, spans: Sequence[tuple[int, int]], size: int, overlap: int) -> list[str]:
    """Split ``text`` into windows of ``size`` tokens that overlap by ``overlap`` tokens."""
    if len(spans) <= size:
        return [text]
    step = max(1, size - overlap)
    out: list[str] = []
    for start in range(0, len(spans), step):
        end = min(start + size, len(spans))
        out.append(text[spans[start][0] : spans[end - 1][1]])
        if end == len(spans):
            break
    return out


def split_text(model: Encoder, text: str, cfg: SemanticConfig) -> list[str]:
    """``[text]`` when it fits the model's window, else its overlapping token chunks."""
    window = int(getattr(model, "max_seq_length", None) or DEFAULT_WINDOW) - SPECIAL_TOKENS
    spans = token_spans(model.tokenizer, text)
    if len(spans) <= window:
        return [text]
    return chunk_text(text, spans, min(cfg.chunk_tokens, window), cfg.chunk_overlap)


def cache_key(model_name: str, text: str) -> str:
    """``<model id>:<sha256 of text>``."""
    return f"{model_name}:{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def _cache_get(cache: EmbeddingCache | None, key: str) -> Vector | None:
    if cache is None:
        return None
    try:
        raw = cache.get(key)
    except Exception as exc:  # a broken cache must not break scoring
        log.warning("embedding cache get failed: %s", exc)
        return None
    return np.frombuffer(raw, dtype=np.float32) if raw else None


def _cache_set(cache: EmbeddingCache | None, key: str, vec: Vector) -> None:
    if cache is None:
        return
    try:
        cache.set(key, vec.astype(np.float32).tobytes())
    except Exception as exc:
        log.warning("embedding cache set failed: %s", exc)


def _normalise(vec: Vector) -> Vector:
    norm = float(np.linalg.norm(vec))
    return (vec / norm).astype(np.float32) if norm > 0 else vec.astype(np.float32)


def _encode(model: Encoder, texts: list[str], cfg: SemanticConfig) -> Vector:
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    out = model.encode(
        texts,
        batch_size=cfg.batch_size,
        convert_to_numpy=True,
        normalize_embeddings=True,
        show_progress_bar=False,
    )
    return np.asarray(out, dtype=np.float32)


class _Batch:
    """Texts for one ``encode`` call, each group of chunks remembered as a row slice."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, chunks: list[str]) -> slice:
        start = len(self.texts)
        self.texts.extend(chunks)
        return slice(start, len(self.texts))


def _plan_queries(
    model: Encoder,
    queries: list[str],
    cfg: SemanticConfig,
    cache: EmbeddingCache | None,
    batch: _Batch,
) -> tuple[dict[str, Vector], dict[str, slice]]:
    """Cached query vectors, and the batch slices of the queries still to encode."""
    cached: dict[str, Vector] = {}
    pending: dict[str, slice] = {}
    for q in dict.fromkeys(queries):
        vec = _cache_get(cache, cache_key(cfg.model, q))
        if vec is not None:
            cached[q] = vec
        else:
            pending[q] = batch.add(split_text(model, q, cfg))
    return cached, pending


#: Sentences of an answer, for the per-ask comparison (list items and lines count).
_ANSWER_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
#: At most this many sentences of an answer are compared with the asks.
MAX_ASK_SENTENCES = 60


def answer_sentences(content: str) -> list[str]:
    """The answer's sentences and lines (at least one), for the per-ask comparison."""
    parts = [p.strip() for p in _ANSWER_SENTENCES.split(content) if len(p.strip()) > 2]
    return parts[:MAX_ASK_SENTENCES] or [content.strip()]


def _ask_coverage(
    emb: Vector, asks: tuple[str, ...], slots: tuple[slice, slice]
) -> list[dict[str, Any]]:
    """Each ask with the cosine of the answer sentence closest to it."""
    ask_rows, sentence_rows = slots
    a = emb[ask_rows] / np.linalg.norm(emb[ask_rows], axis=1, keepdims=True).clip(1e-12)
    s = emb[sentence_rows] / np.linalg.norm(emb[sentence_rows], axis=1, keepdims=True).clip(1e-12)
    best = (a @ s.T).max(axis=1)
    return [{"ask": ask, "cosine": round(float(c), 4)} for ask, c in zip(asks, best, strict=True)]


def _pair_score(
    qvec: Vector,
    emb: Vector,
    slot: slice | None,
    cfg: SemanticConfig,
    elapsed_ms: float,
    asks: tuple[tuple[str, ...], tuple[slice, slice]] | None = None,
) -> TrackScore:
    if slot is None:
        return TrackScore(
            name=TRACK,
            score=0.0,
            details={"cosine": 0.0, "chunks": 0},
            reasons=["content is empty: nothing to compare with the query"],
            elapsed_ms=elapsed_ms,
        )
    cosine = float(np.max(emb[slot] @ qvec))
    chunks = slot.stop - slot.start
    score = min_max_scale(cosine, cfg.min_cosine, cfg.max_cosine)
    best = f", best of {chunks} chunks" if chunks > 1 else ""
    details: dict[str, Any] = {"cosine": round(cosine, 4), "chunks": chunks}
    if asks is not None:
        details["asks"] = _ask_coverage(emb, *asks)
    return TrackScore(
        name=TRACK,
        score=score,
        details=details,
        reasons=[f"semantic similarity {score:.2f} (cosine {cosine:.2f}{best})"],
        elapsed_ms=elapsed_ms,
    )


def semantic_scores(
    model: Encoder,
    pairs: list[tuple[str, str]],
    cfg: SemanticConfig,
    cache: EmbeddingCache | None = None,
) -> list[TrackScore]:
    """Score (query, content) pairs by embedding cosine, all texts in one encode call.

    Args:
        model: A SentenceTransformer (or anything with ``encode`` and ``tokenizer``).
        pairs: (query, content) pairs.
        cfg: The ``semantic`` section of the scoring config.
        cache: Optional query-embedding cache (key: model + sha256 of the query).
    """
    start = time.perf_counter()
    batch = _Batch()
    # The answer is compared with the request's topic: the request less the clauses that
    # only set its form ("all lowercase, 3 bullet points"), which no answer echoes.
    topics = [analyze(q).topic or q for q, _ in pairs]
    qvecs, pending = _plan_queries(model, topics, cfg, cache, batch)
    # white space and invisible characters (U+200B) say nothing: an empty answer
    slots = [None if is_blank(c) else batch.add(split_text(model, c, cfg)) for _, c in pairs]
    ask_slots: list[tuple[tuple[str, ...], tuple[slice, slice]] | None] = []
    for q, c in pairs:
        asks = () if is_blank(c) else analyze(q).asks
        ask_slots.append(
            (asks, (batch.add(list(asks)), batch.add(answer_sentences(c)))) if asks else None
        )
    emb = _encode(model, batch.texts, cfg)
    for q, rows in pending.items():
        qvecs[q] = _normalise(emb[rows].mean(axis=0))
        _cache_set(cache, cache_key(cfg.model, q), qvecs[q])
    share = (time.perf_counter() - start) * 1000 / max(len(pairs), 1)
    return [
        _pair_score(qvecs[topic], emb, slot, cfg, share, asks)
        for topic, slot, asks in zip(topics, slots, ask_slots, strict=True)
    ]
